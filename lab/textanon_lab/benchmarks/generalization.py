"""The generalization rows of the benchmark (issue 17): each generalizing textanon configuration beside its
suppressing twin, the same pipeline and risk settings deciding once and rendering twice.

A pipeline (the LM-risk ``en_textanon`` at its configured threshold, or the search-risk pipeline over an index)
gets ``textanon_generalizer`` before its optimizer and decides with ``replacement = "generalize"``; the twin is the
same Docs decided again by an optimizer with the same settings and ``replacement = "suppression"`` (same
information content, same risky combinations). The generalizing row's masks keep their replacement strings, so the
attack, the retrieval judges and TPI see the generalized text (TPI credits the replacements,
:func:`textanon_eval.tpi.generalization_credit`). Row names: ``textanon <label> + generalization``
(``suppress_twin`` names ``textanon <label>, suppression twin``).
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from textanon.render.masking import SUPPRESSION, apply, merge, merge_offsets
from textanon_lab.benchmarks.systems import run_isolated

GENERALIZED = " + generalization"
TWIN = ", suppression twin"
WORD_BY_WORD = " + generalization, whole units off"


def row_names(label: str) -> Tuple[str, str]:
    """(generalizing row, its suppressing twin) of configuration ``label``."""
    return f"textanon {label}{GENERALIZED}", f"textanon {label}{TWIN}"


def ablation_name(label: str) -> str:
    """The row of configuration ``label`` generalizing with the optimizer's ``whole_units`` off (issue 32)."""
    return f"textanon {label}{WORD_BY_WORD}"


@dataclass
class GeneralizeBench:
    """The generalizing configurations: label -> (pipeline, index folder or None)."""

    configs: Dict[str, Tuple[str, Optional[str]]] = field(default_factory=dict)

    def settings(self) -> dict:
        """What the result records about these rows."""
        return {
            label: {"pipeline": p, "index": i, "row": row_names(label)[0], "suppress_twin": row_names(label)[1]}
            for label, (p, i) in self.configs.items()
        }


def generalize_bench(specs: Sequence[str]) -> GeneralizeBench:
    """A :class:`GeneralizeBench` from ``LABEL=PIPELINE`` or ``LABEL=PIPELINE@INDEX`` specs (ValueError otherwise)."""
    configs = {}
    for spec in specs:
        label, sep, rest = spec.partition("=")
        if not sep or not label or not rest:
            raise ValueError(f"--generalize expects LABEL=PIPELINE[@INDEX], got {spec!r}")
        pipeline, _, index = rest.partition("@")
        configs[label] = (pipeline, index or None)
    return GeneralizeBench(configs)


def generalize_systems(records, bench: GeneralizeBench) -> Dict[str, dict]:
    """Benchmark systems of the generalizing rows and their twins: ``{row: {"masks", "replacements"?, "seconds",
    "load_s", "peak_rss_mb", "suppress_twin"?, "generalizations"?}}`` (``masks``: offsets; ``replacements``: with
    the strings; ``generalizations``: the generalized spans of the generalizing row, for the truth audit)."""
    docs = [(r.name, r.original, r.name) for r in records]
    out: Dict[str, dict] = {}
    for label, (pipeline, index) in bench.configs.items():
        result = run_isolated("textanon_twins", docs, model=pipeline, index=index)
        if "error" in result:
            raise RuntimeError(f"generalization rows ({label}) failed: {result['error']}")
        generalized, suppressed, *rest = result["masks"]["runs"]
        common = {"load_s": result["load_s"], "peak_rss_mb": result["peak_rss_mb"]}
        row, twin = row_names(label)
        for word_by_word in rest:  # the ablation: the same decisions rendered without whole units
            out[ablation_name(label)] = dict(
                common,
                masks={n: merge_offsets(m) for n, m in word_by_word["masks"].items()},
                replacements=word_by_word["masks"],
                seconds=None,
                redecide_s=word_by_word["seconds"],
            )
        out[twin] = dict(
            common,
            masks={n: merge_offsets(m) for n, m in suppressed["masks"].items()},
            seconds=None,
            redecide_s=suppressed["seconds"],
        )
        out[row] = dict(
            common,
            masks={n: merge_offsets(m) for n, m in generalized["masks"].items()},
            replacements=generalized["masks"],
            generalizations=generalized.get("generalizations"),
            seconds=generalized["seconds"],
            suppress_twin=twin,
        )
    return out


def replaced_text(original: str, replacements: List[list]) -> str:
    """The generalized text: ``original`` with each mask's replacement (merged; ``***`` where one has none)."""
    return apply(original, [(s, e, SUPPRESSION if r is None else r) for s, e, r in merge(replacements)])


def markdown(result: dict) -> str:
    """The generalizing rows beside their twins ('' without them)."""
    rows = [r for r in result["rows"] if r.get("suppress_twin")]
    if not rows:
        return ""
    by = {r["system"]: r for r in result["rows"]}
    cols = ["tpi", "tpi_lm", "bm25_reid", "dense_reid", "trir", "masked_share", "generalized_share"]
    cols += ["fragment_rate", "adjacent_placeholders", "fluency_ratio"]
    out = "\nGeneralization vs suppression and vs masks word by word (same pipeline, same risk decisions):\n\n"
    out += "| row | " + " | ".join(cols) + " |\n|" + "---|" * (len(cols) + 1) + "\n"
    for r in rows:
        ablation = r["system"].replace(GENERALIZED, WORD_BY_WORD) if r["system"].endswith(GENERALIZED) else None
        for row in (r, by.get(r["suppress_twin"], {})) + ((by[ablation],) if ablation in by else ()):
            out += f"| {row.get('system')} | " + " | ".join("–" if row.get(c) is None else str(row[c]) for c in cols)
            out += " |\n"
    return out
