"""The search-risk rows of the benchmark (issue 11): textanon deciding with an index of public knowledge.

* one row per index (:class:`SearchBench` ``indexes``, the first is the headline), same pipeline and settings:
  e.g. the index of a quarter of each body (``WikiActors_500_random_BK25.json``: the defender knows less than
  the judges), of the full bodies, and of the bodies *without* the evaluated people (no target documents:
  the population risk alone);
* an **ablation** on the headline index, each step adding one piece: the target's name only; the
  recognizer masking everything it finds; + the candidates (every informative candidate masked); + the
  population risk deciding (no targeted risk); + the targeted risk against the index alone
  (``assume_unindexed = 0``); the headline row adds the stronger-attacker prior when configured;
* a **sweep** of the component's settings (k, k_rank, assume_unindexed) on the headline index.

Every row is an ordinary benchmark system (masks of ``original_abstract``), so every metric and judge of the
harness applies; each variant is timed apart in the same process (:func:`textanon_lab.benchmarks.systems.
textanon_search`).
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from textanon_lab.benchmarks.systems import run_isolated

#: settings of the sweep on the headline index (changes to the pipeline's configured settings)
DEFAULT_SWEEP: Tuple[Dict[str, object], ...] = tuple(
    {"k": k, "k_rank": r} for k in (2, 5, 10) for r in (10, 30, 100)
) + tuple({"assume_unindexed": a} for a in (0.0, 0.05, 0.15, 0.2))

ALL_CANDIDATES = 1_000_000  # k above any index size: every entity and candidate is a population risk

#: (step, settings) of the ablation run by the search pipeline, in order (after "target name only" and
#: "recognizer mask-all + target"); the headline row is the last step
ABLATION: Tuple[Tuple[str, Dict[str, object]], ...] = (
    ("+ candidates (all masked)", {"k": ALL_CANDIDATES, "max_combination_size": 1, "targeted_risk": False}),
    ("+ population risk", {"targeted_risk": False}),
    ("+ targeted risk (index only)", {"assume_unindexed": 0.0}),
)
TARGET_ONLY = "search ablation: target name only"
MASK_ALL = "search ablation: recognizer mask-all + target"


@dataclass
class SearchBench:
    """What the benchmark runs with the search risk: ``pipeline`` (with ``textanon_search_risk``), ``indexes``
    (label -> index folder; the first is the headline), the ``sweep`` and whether to run the ``ablation``."""

    pipeline: str
    indexes: Dict[str, Union[str, Path]]
    sweep: Sequence[Dict[str, object]] = DEFAULT_SWEEP
    ablation: bool = True

    def settings(self) -> dict:
        """What the result records about these rows."""
        return {
            "pipeline": self.pipeline,
            "indexes": {k: str(v) for k, v in self.indexes.items()},
            "headline_index": next(iter(self.indexes), None),
            "sweep": list(self.sweep),
            "ablation": [TARGET_ONLY, MASK_ALL] + [f"search ablation: {s}" for s, _ in ABLATION]
            if self.ablation
            else [],
        }


def search_bench(
    pipeline: Optional[str], index_specs: Sequence[str], sweep: bool = True, ablation: bool = True
) -> SearchBench:
    """A :class:`SearchBench` from ``LABEL=DIR`` index specs (the first is the headline); ``sweep``:
    :data:`DEFAULT_SWEEP` or none. ValueError without a pipeline or an index, or for a spec without ``=``."""
    if not (pipeline and index_specs) or any("=" not in spec for spec in index_specs):
        raise ValueError("the search rows need --search-pipeline and at least one --index LABEL=DIR")
    indexes = dict(spec.split("=", 1) for spec in index_specs)
    return SearchBench(pipeline, indexes, DEFAULT_SWEEP if sweep else (), ablation)


def row_name(index_label: str) -> str:
    """The row of the search pipeline over the index ``index_label``."""
    return f"textanon search-risk (index {index_label})"


def sweep_name(setting: Dict[str, object]) -> str:
    """The row of one sweep setting."""
    return "search sweep " + " ".join(f"{k}={v}" for k, v in setting.items())


def search_systems(records, bench: SearchBench) -> Dict[str, dict]:
    """Benchmark systems ``{row: {"masks", "seconds", "load_s", "peak_rss_mb", ...}}`` of the search rows, in
    table order: the ablation, the headline and the other indexes, the sweep (see the module docstring)."""
    docs = [(r.name, r.original, r.name) for r in records]
    labels = list(bench.indexes)
    if not labels:
        raise ValueError("the search rows need at least one index")
    headline: List[Tuple[str, Dict[str, object]]] = [(row_name(labels[0]), {})]
    if bench.ablation:
        headline += [(f"search ablation: {step}", settings) for step, settings in ABLATION]
    headline += [(sweep_name(s), dict(s)) for s in bench.sweep]
    runs: Dict[str, dict] = {}
    for n, label in enumerate(labels):
        plan = headline if n == 0 else [(row_name(label), {})]
        result = run_isolated(
            "textanon_search",
            docs,
            model=bench.pipeline,
            index=str(bench.indexes[label]),
            variants=[s for _, s in plan],
        )
        if "error" in result:
            raise RuntimeError(f"search rows (index {label}) failed: {result['error']}")
        for (name, settings), run in zip(plan, result["masks"]["runs"]):  # the system returns {"runs"}
            runs[name] = {
                "masks": run["masks"],
                "seconds": run["seconds"],
                "load_s": result["load_s"],
                "peak_rss_mb": result["peak_rss_mb"],
                "search_index": label,
                "search_settings": settings,
            }
    out: Dict[str, dict] = {}
    if bench.ablation:
        out[TARGET_ONLY] = {"masks": {r.name: [] for r in records}, "seconds": None, "peak_rss_mb": None}
        mask_all = run_isolated("textanon_mask_all", docs, model=bench.pipeline)
        if "error" in mask_all:
            raise RuntimeError(f"search ablation (mask-all) failed: {mask_all['error']}")
        out[MASK_ALL] = mask_all
        out.update({f"search ablation: {step}": runs.pop(f"search ablation: {step}") for step, _ in ABLATION})
    out.update({row_name(label): runs.pop(row_name(label)) for label in labels})
    out.update(runs)  # the sweep
    return out


def markdown(result: dict) -> str:
    """The ablation and the sweep of the search rows as two small tables ('' without search rows)."""
    search = result.get("settings", {}).get("search")
    if not search:
        return ""
    by = {r["system"]: r for r in result["rows"]}
    cols = ["bm25_reid", "dense_reid", "trir", "tpi", "masked_share", "precision", "recall", "docs_per_s"]
    head = "| step | " + " | ".join(cols) + " |\n|" + "---|" * (len(cols) + 1) + "\n"

    def line(label: str, name: str) -> str:
        r = by.get(name, {})
        return f"| {label} | " + " | ".join("–" if r.get(c) is None else str(r[c]) for c in cols) + " |\n"

    headline = row_name(search["headline_index"])
    out = ""
    if search["ablation"]:
        out += f"\nAblation on the headline index ({search['headline_index']}), each step adds one piece:\n\n" + head
        for name in search["ablation"]:
            out += line(name.replace("search ablation: ", ""), name)
        out += line("+ the configured search risk (headline)", headline)
    if search["sweep"]:
        out += f"\nSweep on the headline index ({search['headline_index']}), changes to the configured settings:\n\n"
        out += head.replace("| step |", "| setting |")
        for setting in search["sweep"]:
            out += line(sweep_name(setting).replace("search sweep ", ""), sweep_name(setting))
    return out
