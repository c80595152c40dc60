"""Speed benchmark (``bench-speed``): textanon configurations and Presidio on the same documents, in one run.

Every configuration runs in a fresh process (:func:`textanon.benchmarks.systems.run_isolated_sets`: loaded
once, then each corpus timed, so peak RSS is its own) on the 50 WikiActors abstracts and the 27 echr-dev
court cases. The configurations run interleaved, ``repeats`` times (the order rotates each repeat) and the
table gives medians: on a shared machine the load changes during the run. Tokens are counted once with
spaCy's English tokenizer, the same for every configuration (Presidio included).
"""

import os
import resource
import statistics
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from ..datasets.tab import load_tab
from ..datasets.wikiactors import evaluated, read_wikiactors

Docs = List[Tuple[str, str, Optional[str]]]
PRESIDIO = "presidio"


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_wikiactors(path: Path) -> Docs:
    """(id, original abstract, target name) for every record that has an abstract."""
    return [(r.name, r.original, r.name) for r in evaluated(read_wikiactors(path))]


def load_echr(path: Path) -> Docs:
    """(id, text, no target) for every court case of a TAB file (e.g. the echr-dev entity layer)."""
    return [(g.doc_id, g.text, None) for g in load_tab(path, require_identifiers=False)]


def configurations(
    model: str, index: Optional[str] = None, n_process: Sequence[int] = (1, 2)
) -> Dict[str, Tuple[str, dict]]:
    """``{label: (system name, settings)}``: the default (fast) profile in each of ``n_process``, the language-model
    profile, the recognizer alone, the search profile when ``index`` exists, and Presidio (textanon.profiles)."""
    configs: Dict[str, Tuple[str, dict]] = {}
    for n in n_process:
        configs[f"fast profile (default), {n} process{'es' if n > 1 else ''}"] = (
            "textanon_timed",
            {"model": model, "profile": "fast", "n_process": n},
        )
    configs["lm profile (LM risk), 1 process"] = ("textanon_timed", {"model": model, "profile": "lm"})
    configs["recognizer alone, every mention masked"] = ("textanon_timed", {"model": model, "recognizer_only": True})
    if index and Path(index).exists():
        configs["search profile (index)"] = ("textanon_timed", {"model": model, "profile": "search", "index": index})
    configs["Presidio (en_core_web_sm)"] = (PRESIDIO, {})
    return configs


def count_tokens(docs: Docs) -> int:
    """spaCy English tokens of the documents' texts (the same count for every configuration)."""
    import spacy

    tokenizer = spacy.blank("en").tokenizer
    return sum(len(tokenizer(text)) for _, text, _ in docs)


def run(
    model: str,
    wikiactors: Path,
    echr: Path,
    index: Optional[str] = None,
    n_process: Sequence[int] = (1, 2),
    repeats: int = 1,
    limit: Optional[int] = None,
) -> Dict:
    """Time every configuration on both corpora, ``repeats`` times interleaved; medians per configuration and
    corpus, with the ratio of docs/s to Presidio's."""
    from .systems import run_isolated_sets

    corpora = {"wikiactors_50_abstracts": load_wikiactors(wikiactors), "echr_dev_27": load_echr(echr)}
    corpora = {name: docs[:limit] if limit else docs for name, docs in corpora.items()}
    sizes = {
        name: {"docs": len(docs), "tokens": count_tokens(docs), "chars": sum(len(t) for _, t, _ in docs)}
        for name, docs in corpora.items()
    }
    configs = configurations(model, index, n_process)
    labels = list(configs)
    runs: Dict[str, List[dict]] = {label: [] for label in labels}
    load = {"start": os.getloadavg()}
    for rep in range(repeats):
        for label in labels[rep % len(labels) :] + labels[: rep % len(labels)]:
            system, settings = configs[label]
            result = run_isolated_sets(system, list(corpora.values()), **settings)
            if isinstance(result, dict):  # an error: the message names the exception, never a text
                raise RuntimeError(f"{label}: {result['error']}")
            runs[label].append(dict(zip(corpora, result)))
    load["end"] = os.getloadavg()
    results = {
        "model": model,
        "repeats": repeats,
        "corpora": sizes,
        "configurations": {label: summarize(runs[label], sizes) for label in labels},
        "load_average_1_5_15min": load,
    }
    add_ratios(results)
    return results


def summarize(runs: List[Dict[str, dict]], sizes: Dict[str, dict]) -> Dict:
    """Medians over the repeats of one configuration, per corpus."""
    out = {}
    for corpus, size in sizes.items():
        rs = [r[corpus] for r in runs]
        seconds = statistics.median(r["seconds"] for r in rs)
        per_component = [r["masks"].get("seconds_per_component") for r in rs if isinstance(r["masks"], dict)]
        per_component = [p for p in per_component if p]
        entry = {
            "seconds": round(seconds, 2),
            "seconds_all_repeats": [round(r["seconds"], 2) for r in rs],
            "cpu_seconds": round(statistics.median(r["cpu_seconds"] for r in rs), 2),
            "docs_per_s": round(size["docs"] / seconds, 3),
            "tokens_per_s": round(size["tokens"] / seconds, 1),
            "peak_rss_mb": round(max(r["peak_rss_mb"] for r in rs), 1),
            "peak_rss_workers_mb": round(max(r["peak_rss_workers_mb"] for r in rs), 1),
            "load_seconds": round(statistics.median(r["load_s"] for r in rs), 2),
            "errors": sum(r["masks"].get("errors", 0) for r in rs if isinstance(r["masks"], dict)),
        }
        if per_component:
            entry["seconds_per_component"] = {
                k: round(statistics.median(p.get(k, 0.0) for p in per_component), 2) for k in per_component[0]
            }
        out[corpus] = entry
    return out


def add_ratios(results: Dict) -> None:
    """``ratio_to_presidio``: docs/s of each configuration over Presidio's, per corpus (same run, same docs)."""
    configs = results["configurations"]
    presidio = next((c for label, c in configs.items() if label.startswith("Presidio")), None)
    for config in configs.values():
        for corpus, entry in config.items():
            base = presidio and presidio[corpus]["docs_per_s"]
            entry["ratio_to_presidio"] = round(entry["docs_per_s"] / base, 3) if base else None


def bench_speed(output: Path, startup_python: Optional[str] = None, startup: bool = True, **kwargs) -> Tuple[Dict, str]:
    """``bench-speed``: :func:`run` (keyword arguments) and the start-up of the default pipeline
    (:func:`~textanon.benchmarks.startup.measure_startup` with ``startup_python``, by default this Python), the
    results to ``output`` (JSON with provenance) and the markdown table (:func:`to_markdown`) beside it (``.md``).
    ``startup`` False: no start-up figures. Returns (results, table)."""
    import sys

    from ..evaluation.provenance import write_metrics
    from .startup import measure_startup

    results = run(**kwargs)
    python = startup_python or sys.executable
    if startup:
        model = kwargs["model"]
        results["startup"] = {"python": python, "pipelines": measure_startup(python, {model: model})}
    write_metrics(output, results)
    table = to_markdown(results)
    Path(output).with_suffix(".md").write_text(table, encoding="utf-8")
    return results, table


def to_markdown(results: Dict) -> str:
    """One table: per configuration and corpus docs/s, tokens/s, ratio to Presidio, peak RSS; then seconds per
    component."""
    sizes, load = results["corpora"], results["load_average_1_5_15min"]
    lines = [
        "| configuration | corpus | docs/s | tokens/s | × Presidio | seconds | CPU seconds | peak RSS (MiB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, config in results["configurations"].items():
        for corpus, r in config.items():
            rss = f"{r['peak_rss_mb']}" + (
                f" (+ workers {r['peak_rss_workers_mb']} each)" if r["peak_rss_workers_mb"] > 1 else ""
            )
            ratio = "–" if r["ratio_to_presidio"] is None else f"{r['ratio_to_presidio']}×"
            lines.append(
                f"| {label} | {corpus} | {r['docs_per_s']} | {r['tokens_per_s']} | {ratio} | {r['seconds']} "
                f"| {r['cpu_seconds']} | {rss} |"
            )
    lines += [
        "",
        "Corpora: "
        + "; ".join(f"{c}: {s['docs']} docs, {s['tokens']} tokens, {s['chars']} characters" for c, s in sizes.items())
        + f". Medians of {results['repeats']} interleaved repeat(s), each configuration in a fresh process "
        f"(model load excluded); CPU seconds: user + system of the process and its workers (less sensitive to "
        f"other load than wall seconds); load average at start / end {load['start'][0]:.1f} / {load['end'][0]:.1f}.",
        "",
        "Seconds per component (one process):",
        "",
    ]
    for label, config in results["configurations"].items():
        for corpus, r in config.items():
            comps = r.get("seconds_per_component")
            if comps:
                lines.append(f"- {label}, {corpus}: " + ", ".join(f"{k} {v}" for k, v in comps.items()))
    if results.get("startup"):
        from .startup import startup_markdown

        lines += ["", startup_markdown(results["startup"]["pipelines"], results["startup"]["python"]).rstrip()]
    return "\n".join(lines) + "\n"


#: the (public) key of the benchmark's synthetic names: a long document must be the same in every run
BENCHMARK_NAMES_KEY = "textanon benchmark names, not a secret"


def long_document(echr: Path, n_chars: int = 1_000_000, seed: int = 0) -> str:
    """A document of ``n_chars`` characters: the echr-dev cases one after the other, repeated as often as needed,
    each copy after the first with its PERSON mentions replaced by other names (the pseudonym surrogates of
    seed ``seed + copy``), so that the protected names differ between copies."""
    from ..pseudonyms import Pseudonymizer

    cases = load_tab(echr, require_identifiers=False)
    parts: List[str] = []
    total, copy = 0, 0
    while total < n_chars:
        for case in cases:
            text = case.text
            if copy:
                mentions = next(iter(case.annotations.values()), [])
                persons = _outermost({(m.start, m.end) for m in mentions if m.entity_type == "PERSON"})
                surrogates = Pseudonymizer(seed + copy, key=BENCHMARK_NAMES_KEY)  # the same document every run
                surrogates.start_document(text, [text[s:e] for s, e in persons])
                for s, e in persons:
                    text = text[:s] + surrogates("PERSON", text[s:e], fallback=text[s:e]) + text[e:]
            parts.append(text)
            total += len(text) + 2
            if total >= n_chars:
                break
        copy += 1
    return "\n\n".join(parts)[:n_chars]


def _outermost(spans) -> List[Tuple[int, int]]:
    """Spans not inside another one, last first (replaced from the end, the earlier offsets stay valid)."""
    kept: List[Tuple[int, int]] = []
    for s, e in sorted(spans, key=lambda m: (m[0], -m[1])):
        if not kept or s >= kept[-1][1]:
            kept.append((s, e))
    return kept[::-1]


def bench_long(model: str, echr: Path, output: Path, n_chars: int = 1_000_000) -> Dict:
    """``bench-long``: one document of ``n_chars`` characters (:func:`long_document`, built at run time) through
    the pipeline ``model`` in a fresh process; seconds, seconds per component and peak RSS to ``output``."""
    from ..evaluation.provenance import write_metrics
    from .systems import run_isolated_sets

    text = long_document(echr, n_chars)
    docs = [("long", text, None)]
    result = run_isolated_sets("textanon_timed", [docs], model=model)
    if isinstance(result, dict):
        raise RuntimeError(result["error"])
    r = result[0]
    out = {
        "model": model,
        "chars": len(text),
        "tokens": count_tokens(docs),
        "seconds": round(r["seconds"], 1),
        "cpu_seconds": round(r["cpu_seconds"], 1),
        "load_seconds": round(r["load_s"], 1),
        "peak_rss_mb": round(r["peak_rss_mb"], 1),
        "seconds_per_component": {k: round(v, 1) for k, v in r["masks"]["seconds_per_component"].items()},
        "masked_spans": len(r["masks"]["masks"]["long"]),
        "load_average_1_5_15min": os.getloadavg(),
        "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    write_metrics(output, out)
    return out
