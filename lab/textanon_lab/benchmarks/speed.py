"""Speed benchmark (``bench-speed``): textanon configurations and Presidio on the same documents, in one run.

Every configuration runs in a fresh process (:func:`textanon_lab.benchmarks.systems.run_isolated_sets`: loaded
once, then each corpus timed, so peak RSS is its own) on the 50 WikiActors abstracts and the 27 echr-dev
court cases. The configurations run interleaved, ``repeats`` times (the order rotates each repeat) and the
table gives medians: on a shared machine the load changes during the run. Tokens are counted once with
spaCy's English tokenizer, the same for every configuration (Presidio included).
"""

import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import spacy

from textanon.io.datasets.tab import load_tab
from textanon.io.datasets.wikiactors import evaluated, read_wikiactors
from textanon.render.pseudonyms import Pseudonymizer
from textanon_eval.provenance import write_metrics
from textanon_lab.benchmarks.startup import measure_startup, startup_markdown
from textanon_lab.benchmarks.systems import BLAS_THREADS, run_isolated, run_isolated_sets

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


#: the search profile's trained models alone: the floor under its time (the court NER and en_core_web_sm's tok2vec,
#: tagger, parser, attribute_ruler and ner; Presidio runs en_core_web_sm's models too)
MODELS_ONLY = "search profile's models alone (court NER + en_core_web_sm; no textanon decision)"
#: the default profile masking instead of generalizing (``--replacement suppression``): the profiles table's
#: "fast, suppression" row (the default until decision 12, docs/profiles.md)
FAST_SUPPRESSION = "fast profile, suppression (--replacement suppression), 1 process"


def configurations(
    model: str, index: Optional[str] = None, n_process: Sequence[int] = (1, 2)
) -> Dict[str, Tuple[str, dict]]:
    """``{label: (system name, settings)}``: the default (fast, generalizing) profile in each of ``n_process``, the
    default suppressing (:data:`FAST_SUPPRESSION`), the language-model and strict profiles, the recognizer alone, the
    search profile when ``index`` exists (as shipped, generalizing, and with ``--replacement suppression``: the search
    risk without the generalizer; and its trained models alone, :data:`MODELS_ONLY`), and Presidio
    (textanon.profiles): every profile, each with its seconds per component."""
    configs: Dict[str, Tuple[str, dict]] = {}
    for n in n_process:
        configs[f"fast profile (default), {n} process{'es' if n > 1 else ''}"] = (
            "textanon_timed",
            {"model": model, "profile": "fast", "n_process": n},
        )
    configs[FAST_SUPPRESSION] = ("textanon_timed", {"model": model, "profile": "fast", "replacement": "suppression"})
    configs["lm profile (LM risk), 1 process"] = ("textanon_timed", {"model": model, "profile": "lm"})
    configs["strict profile (every detected span), 1 process"] = (
        "textanon_timed",
        {"model": model, "profile": "strict"},
    )
    configs["recognizer alone, every mention masked"] = ("textanon_timed", {"model": model, "recognizer_only": True})
    if index and Path(index).exists():
        configs["search profile (index)"] = ("textanon_timed", {"model": model, "profile": "search", "index": index})
        configs["search profile, suppression (no generalization)"] = (
            "textanon_timed",
            {"model": model, "profile": "search", "index": index, "replacement": "suppression"},
        )
        configs[MODELS_ONLY] = (
            "textanon_timed",
            {"model": model, "profile": "search", "index": index, "models_only": True},
        )
    configs["Presidio (en_core_web_sm)"] = (PRESIDIO, {})
    return configs


def count_tokens(docs: Docs) -> int:
    """spaCy English tokens of the documents' texts (the same count for every configuration)."""
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
    (:func:`~textanon_lab.benchmarks.startup.measure_startup` with ``startup_python``, by default this Python), the
    results to ``output`` (JSON with provenance) and the markdown table (:func:`to_markdown`) beside it (``.md``).
    ``startup`` False: no start-up figures. Returns (results, table)."""

    results = run(**kwargs)
    results["blas_threads"] = BLAS_THREADS
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
        f"(model load excluded; a textanon pipeline first anonymizes one short warm-up document, which loads what "
        f"loads on first use: language-model weights, WordNet); CPU seconds: user + system of the process and its "
        f"workers (less sensitive to other load than wall seconds); BLAS threads per process: "
        f"{results.get('blas_threads', 'not set')}; load average at start / end "
        f"{load['start'][0]:.1f} / {load['end'][0]:.1f}.",
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
        lines += ["", startup_markdown(results["startup"]["pipelines"], results["startup"]["python"]).rstrip()]
    return "\n".join(lines) + "\n"


#: the (public) key of the benchmark's synthetic names: a long document must be the same in every run
BENCHMARK_NAMES_KEY = "textanon benchmark names, not a secret"


def long_document(echr: Path, n_chars: int = 1_000_000, seed: int = 0) -> str:
    """A document of ``n_chars`` characters: the echr-dev cases one after the other, repeated as often as needed,
    each copy after the first with its PERSON mentions replaced by other names (the pseudonym surrogates of
    seed ``seed + copy``), so that the protected names differ between copies."""
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


#: the sizes and profiles ``bench-long`` runs by default, and its per-run wall-clock limit (seconds)
LONG_CHARS = (100_000, 300_000, 1_000_000)
LONG_PROFILES = ("fast", "strict", "lm")
LONG_TIME_LIMIT_S = 900.0

#: (model, profile, index, text, time limit in seconds) -> one run's record (:func:`run_long_isolated`)
LongRunner = Callable[[str, str, Optional[str], str, float], Dict]


def run_long_isolated(model: str, profile: str, index: Optional[str], text: str, time_limit: float) -> Dict:
    """``text`` through profile ``profile`` of ``model`` in a fresh process (:func:`.systems.run_isolated` of
    ``textanon_timed``), stopped after ``time_limit`` seconds (model loading included): ``{"seconds",
    "cpu_seconds", "load_seconds", "peak_rss_mb", "seconds_per_component", "masked_spans"}``, ``{"timeout": True}``
    past the limit, or ``{"error"}`` (the exception's type and message, never the text)."""
    r = run_isolated(
        "textanon_timed", [("long", text, None)], time_limit=time_limit, model=model, index=index, profile=profile
    )
    if "timeout" in r or "error" in r:
        return r
    return {
        "seconds": round(r["seconds"], 1),
        "cpu_seconds": round(r["cpu_seconds"], 1),
        "load_seconds": round(r["load_s"], 1),
        "peak_rss_mb": round(r["peak_rss_mb"], 1),
        "seconds_per_component": {k: round(v, 1) for k, v in (r["masks"]["seconds_per_component"] or {}).items()},
        "masked_spans": len(r["masks"]["masks"]["long"]),
    }


def bench_long(
    model: str,
    echr: Path,
    output: Path,
    chars: Sequence[int] = LONG_CHARS,
    profiles: Sequence[str] = LONG_PROFILES,
    index: Optional[str] = None,
    time_limit: float = LONG_TIME_LIMIT_S,
    runner: Optional[LongRunner] = None,
) -> Dict:
    """``bench-long``: for every profile and every size in ``chars``, one document of that many characters
    (:func:`long_document`, built at run time, never saved) through the profile (``index``: the search profile's)
    in a fresh process (``runner``, by default :func:`run_long_isolated`) with a limit of ``time_limit`` seconds
    (a run past it is recorded as a timeout, the others go on). Writes ``output`` (JSON: seconds, CPU seconds,
    peak RSS and seconds per component per (profile, size)), the table beside it (``.md``, :func:`long_markdown`)
    and the plot (``.png``, :func:`plot_long`: seconds and peak RSS against characters, one line per profile)."""
    runner = runner or run_long_isolated
    sizes = sorted(set(chars))
    texts = {n: long_document(echr, n) for n in sizes}
    tokens = {n: count_tokens([("long", text, None)]) for n, text in texts.items()}
    runs: Dict[str, Dict[str, Dict]] = {}
    for profile in profiles:
        runs[profile] = {}
        for n in sizes:
            record = runner(model, profile, index if profile == "search" else None, texts[n], time_limit)
            record["tokens"] = tokens[n]
            runs[profile][str(n)] = record
    out = {
        "model": model,
        "chars": sizes,
        "profiles": list(profiles),
        "time_limit_s": time_limit,
        "runs": runs,
        "load_average_1_5_15min": os.getloadavg(),
        "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    output = Path(output)
    write_metrics(output, out)
    output.with_suffix(".md").write_text(long_markdown(out), encoding="utf-8")
    plot_long(out, output.with_suffix(".png"))
    return out


def long_markdown(results: Dict) -> str:
    """One row per (profile, size): seconds, CPU seconds, peak RSS, masked spans (or the timeout / error); then
    the seconds per component of each run."""
    lines = [
        "| profile | characters | tokens | seconds | CPU seconds | peak RSS (MiB) | masked spans |",
        "|---|---|---|---|---|---|---|",
    ]
    for profile, runs in results["runs"].items():
        for n, r in runs.items():
            if r.get("timeout"):
                cells = [f"timeout (> {results['time_limit_s']:g} s)", "–", "–", "–"]
            elif "error" in r:
                cells = [f"error: {r['error']}", "–", "–", "–"]
            else:
                cells = [r["seconds"], r["cpu_seconds"], r["peak_rss_mb"], r["masked_spans"]]
            lines.append("| " + " | ".join(map(str, [profile, f"{int(n):,}", r.get("tokens", "–"), *cells])) + " |")
    lines += ["", "Seconds per component:", ""]
    for profile, runs in results["runs"].items():
        for n, r in runs.items():
            if r.get("seconds_per_component"):
                comps = ", ".join(f"{k} {v}" for k, v in r["seconds_per_component"].items())
                lines.append(f"- {profile}, {int(n):,} characters: {comps}")
    lines += [
        "",
        f"Each run in a fresh process (model load excluded from seconds, included in the {results['time_limit_s']:g} s "
        "limit); one document of the echr-dev cases concatenated, other names in each copy.",
    ]
    return "\n".join(lines) + "\n"


def plot_long(results: Dict, path: Path) -> Path:
    """Seconds and peak RSS against characters, one line per profile (runs that timed out or failed left out),
    the seconds with a dotted line through each profile's smallest size growing linearly (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, key, label in ((axes[0], "seconds", "seconds"), (axes[1], "peak_rss_mb", "peak RSS of the process (MiB)")):
        for i, (profile, runs) in enumerate(results["runs"].items()):
            points = sorted((int(n), r[key]) for n, r in runs.items() if key in r)
            if not points:
                continue
            color = f"C{i}"
            ax.plot([x for x, _ in points], [y for _, y in points], "o-", color=color, label=profile)
            if key == "seconds":  # the time of the smallest size, growing in proportion to the length
                x0, y0 = points[0]
                ax.plot([x for x, _ in points], [y0 * x / x0 for x, _ in points], ":", color=color, alpha=0.5)
        ax.set_xlabel("characters")
        ax.set_ylabel(label)
        ax.set_xscale("log")
        if key == "seconds":
            ax.set_yscale("log")
            ax.legend(title="profile (dotted: linear)")
        else:
            ax.set_ylim(bottom=0)
            ax.legend(title="profile (model included)")
    fig.suptitle(f"One long document, {results['model']}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
