"""Orchestration of the annotation-free utility evaluators (TPI, TPS, NMI) and the report.

``python -m textanon evaluate CORPUS`` (and ``spacy project run evaluate``) writes:

* ``metrics/tpi_<name>.json``: the HEADLINE TPI, information content from word frequencies
  (``wordfreq``, independent of the anonymizer: :mod:`.word_ic`);
* ``metrics/tpi_lm_<name>.json``: TPI with the language model (default SmolLM2, the model textanon's
  optimizer minimizes, so it favours textanon by construction), reported beside the headline;
* ``metrics/tps_<name>.json`` (TPS with the headline IC), ``metrics/nmi_<name>.json``
* ``metrics/evaluate_<name>.md``: one row per anonymization method
* ``metrics/evaluate_<name>.png``: utility vs privacy per method. Privacy is
  1 - TRIR from ``metrics/trir_<...>.json`` when that file exists, else the recall of
  the manual anonymization's masked characters (a proxy, named on the plot).
"""

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
from tqdm import tqdm

from textanon.io.datasets.wikiactors import method_name
from textanon_eval.corpus import Corpus, load_corpus, masks_of
from textanon_eval.embeddings import default_encoder
from textanon_eval.errors import EvaluationError
from textanon_eval.nmi import nmi_corpus
from textanon_eval.provenance import write_metrics
from textanon_eval.tpi import HEADLINE_MODEL, InformationContent, tpi_corpus
from textanon_eval.tps import tps_corpus

REFERENCE_METHOD = "manual"
METRICS = ("tpi", "tpi_lm", "tps", "nmi")


@dataclass(frozen=True)
class UtilitySettings:
    """What the utility evaluators read and how they score: the corpus (``limit`` records, ``extra``
    anonymizations, ``offsets`` files ``METHOD=FILE``, ``columns``, ``split_tags``: repair glued placeholder tags),
    the information-content model of TPI and TPS (``model``, ``alternation``, ``n``, ``cache_dir``) and the NMI
    clusterings (``seeds`` per k, ``ks``)."""

    model: Optional[str] = None
    alternation: str = "n"
    n: int = 6
    limit: Optional[int] = None
    extra: Sequence = ()
    offsets: Sequence[str] = ()
    columns: Optional[Sequence[str]] = None
    split_tags: bool = True
    cache_dir: Optional[Path] = None
    seeds: int = 10
    ks: Sequence[int] = tuple(range(2, 11))


def _round(d: Dict[str, float], digits: int = 4) -> Dict[str, float]:
    return {k: round(float(v), digits) for k, v in d.items()}


def corpus_settings(corpus: Corpus, path) -> dict:
    """The corpus part of a result's settings: path, document count, missing anonymizations, alignment."""
    return {
        "corpus": str(path),
        "documents": len(corpus.originals),
        "missing": {m: ids for m, ids in corpus.missing.items() if ids},
        "masked_spans": "alignment of each anonymized string to the original (textanon.io.datasets.alignment)",
        "glued_tags_split": corpus.repaired if corpus.repaired is not None else "off",
    }


def tpi_result(corpus: Corpus, ic: InformationContent, masks=None, progress: bool = True, path="") -> dict:
    """TPI of every anonymization column of ``corpus`` (``masks``: precomputed masked spans per method)."""
    t0 = time.perf_counter()
    masks = masks if masks is not None else masks_of(corpus, progress)
    res = tpi_corpus(ic, corpus.originals, masks, progress)
    notes = {"aggregate": "tpi = mean over documents; tpi_micro = sum TIC(P) / sum TIC(O)"}
    return _corpus_result("tpi", res, ic.settings | corpus_settings(corpus, path) | notes, t0)


def tps_result(
    corpus: Corpus, ic: InformationContent, masks=None, encoder=None, progress: bool = True, path=""
) -> dict:
    """TPS of every anonymization column of ``corpus`` (``masks``: masked spans with replacements per method)."""
    t0 = time.perf_counter()
    encoder = encoder or default_encoder()
    masks = masks if masks is not None else masks_of(corpus, progress, with_replacements=True)
    res = tps_corpus(ic, corpus.originals, masks, encoder, progress)
    notes = {
        "similarity": f"cosine of {encoder.name} embeddings, clipped to [0, 1]",
        "replacements": "anonymized text between the aligned kept stretches around each masked span",
    }
    return _corpus_result("tps", res, ic.settings | corpus_settings(corpus, path) | notes, t0)


def _corpus_result(key: str, res, settings: dict, started: float) -> dict:
    """``{key: mean per method, key_micro, per_document, settings}`` of a TPI/TPS corpus result (rounded), the
    seconds since ``started`` in the settings."""
    return {
        key: _round(res.mean()),
        f"{key}_micro": _round(res.micro),
        "per_document": {m: _round(v) for m, v in res.per_document.items()},
        "settings": settings | {"runtime_s": round(time.perf_counter() - started, 2)},
    }


def nmi_result(
    corpus: Corpus,
    seeds: int = 10,
    ks: Sequence[int] = tuple(range(2, 11)),
    encoder=None,
    progress: bool = True,
    path="",
) -> dict:
    """NMI of every method with all documents anonymized, k chosen by silhouette over ``ks``, over ``seeds``."""
    t0 = time.perf_counter()
    encoder = encoder or default_encoder()
    complete = {m: t for m, t in corpus.anonymized.items() if set(t) == set(corpus.originals)}
    res = nmi_corpus(corpus.originals, complete, encoder, ks, seeds, progress)
    return {
        "nmi": {m: round(r["nmi"], 4) for m, r in res.items()},
        "details": {m: {"std": round(r["std"], 4), "k": r["k"]} for m, r in res.items()},
        "settings": corpus_settings(corpus, path)
        | {
            "encoder": encoder.name,
            "clustering": "k-means (sklearn, n_init=10) on L2-normalised embeddings; k chosen by the best mean "
            "silhouette of the originals; NMI of same-seed clusterings, mean over seeds",
            "originals_self_nmi": round(next(iter(res.values()))["originals_self_nmi"], 4) if res else None,
            "originals_self_nmi_note": "mean NMI between clusterings of the ORIGINALS with different seeds: the "
            "stability of the clustering itself",
            "ks": list(ks),
            "seeds": seeds,
            "k": next(iter(res.values()))["k"] if res else None,
            "silhouette": {str(k): round(v, 4) for k, v in next(iter(res.values()))["silhouette"].items()}
            if res
            else {},
            "skipped_incomplete": [m for m in corpus.anonymized if m not in complete],
            "runtime_s": round(time.perf_counter() - t0, 2),
        },
    }


def report_missing(corpus: Corpus, warn: Callable[[str], None] = print) -> Corpus:
    """One ``warn`` line per anonymization column of ``corpus`` with records that have no anonymization (left
    out of that column's average); returns ``corpus``."""
    for method, ids in corpus.missing.items():
        if ids:
            shown = ", ".join(map(repr, ids[:5])) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            warn(f"column {method!r}: no anonymization (empty or null) for record(s) {shown}: left out of its average")
    return corpus


def evaluate_metric(
    metric: str,
    input_path,
    output,
    settings: UtilitySettings = UtilitySettings(),
    warn: Callable[[str], None] = print,
    progress: bool = True,
) -> dict:
    """``evaluate-tpi`` / ``evaluate-tps`` / ``evaluate-nmi``: one metric (``tpi``, ``tps`` or ``nmi``) of every
    anonymization column of ``input_path`` read as ``settings`` says, written to ``output`` (JSON with
    provenance); ``warn`` gets one line per column with missing anonymizations. Returns the result (its ``metric``
    key maps each method to its value)."""
    if metric not in ("tpi", "tps", "nmi"):
        raise EvaluationError(f"unknown metric {metric!r}: choose among tpi, tps, nmi")
    st = settings
    corpus = report_missing(load_corpus(input_path, st.limit, st.extra, st.offsets, st.columns, st.split_tags), warn)
    if metric == "nmi":
        result = nmi_result(corpus, st.seeds, st.ks, progress=progress, path=input_path)
    else:
        ic = InformationContent(st.model, st.alternation, st.n, st.cache_dir)
        result = (tpi_result if metric == "tpi" else tps_result)(corpus, ic, progress=progress, path=input_path)
    write_metrics(output, result)
    return result


# ---------------------------------------------------------------------------- privacy


def _norm_method(name: str) -> str:
    return method_name("_".join(name.lower().split()))  # "Word2Vec t=0.5" -> "word2vec_t=0.5"


def read_trir(path) -> Optional[Dict[str, float]]:
    """method -> TRIR as a fraction, from a TRIR metrics file (several layouts accepted)."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as err:
        raise EvaluationError(f"{path}: TRIR file is not valid JSON ({err})") from err
    table = data
    for key in ("trir", "TRIR", "results", "methods"):
        if isinstance(data, dict) and isinstance(data.get(key), dict):
            table = data[key]
            break
    out = {}
    if isinstance(table, dict):
        for method, value in table.items():
            if isinstance(value, dict):
                value = next((value[k] for k in ("trir", "TRIR", "value", "accuracy") if k in value), None)
            if isinstance(value, (int, float)):
                out[_norm_method(method)] = float(value)
    if not out:
        return None
    if max(out.values()) > 1.0:  # percentages
        out = {k: v / 100.0 for k, v in out.items()}
    return out


def _char_mask(n: int, spans) -> np.ndarray:
    mask = np.zeros(n, dtype=bool)
    for s, e in spans:
        mask[int(s) : int(e)] = True
    return mask


def masking_stats(corpus: Corpus, masks) -> Dict[str, Dict[str, float]]:
    """Masked share of the original's non-space characters and recall of the manual masks."""
    manual = masks.get(REFERENCE_METHOD, {})
    stats = {}
    for method, by_id in masks.items():
        masked = total = hit = ref = 0
        for doc_id, spans in by_id.items():
            text = corpus.originals[doc_id]
            nonspace = np.array([not c.isspace() for c in text], dtype=bool)
            m = _char_mask(len(text), [(s[0], s[1]) for s in spans]) & nonspace
            masked += int(m.sum())
            total += int(nonspace.sum())
            if doc_id in manual:
                r = _char_mask(len(text), [(s[0], s[1]) for s in manual[doc_id]]) & nonspace
                ref += int(r.sum())
                hit += int((m & r).sum())
        stats[method] = {
            "masked_share": masked / total if total else float("nan"),
            "recall_vs_manual": hit / ref if ref else float("nan"),
        }
    return stats


# ---------------------------------------------------------------------------- report


def column_title(metric: str, result: dict) -> str:
    """``"TPI (wordfreq:en)"``, ``"TPI (LM: SmolLM2...)"``: the metric and the IC model behind it."""
    model = result.get("settings", {}).get("model")
    if metric == "tpi_lm":
        return f"TPI (LM: {model})"
    return f"{metric.upper()} ({model})" if metric in ("tpi", "tps") and model else metric.upper()


def _fmt(v) -> str:
    return "–" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.3f}"


def markdown_table(
    methods: List[str], columns: List[Tuple[str, Dict[str, float]]], title: str, notes: Sequence[str] = ()
) -> str:
    """Markdown table, one row per method and one column per ``(title, method -> value)``, then ``notes``."""
    lines = [f"# {title}", ""]
    lines.append("| method | " + " | ".join(c for c, _ in columns) + " |")
    lines.append("|---|" + "---:|" * len(columns))
    for m in methods:
        lines.append(f"| {m} | " + " | ".join(_fmt(vals.get(m)) for _, vals in columns) + " |")
    lines += [""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def plot(path, utility: Dict[str, Dict[str, float]], privacy: Dict[str, float], privacy_label: str, title: str) -> None:
    """Write a PNG with one utility-vs-privacy scatter per utility metric to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = [m for m in utility if utility[m]]
    fig, axes = plt.subplots(1, len(metrics), figsize=(5 * len(metrics), 4.5), squeeze=False)
    for ax, metric in zip(axes[0], metrics):
        for method, u in utility[metric].items():
            if method in privacy and not np.isnan(privacy[method]):
                ax.scatter(privacy[method], u, s=30)
                ax.annotate(method, (privacy[method], u), fontsize=8, xytext=(3, 3), textcoords="offset points")
        ax.set_xlabel(privacy_label)
        ax.set_ylabel(metric)
        ax.set_xlim(-0.05, 1.05)
        ax.set_ylim(-0.05, 1.05)
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def report_outputs(out_dir: Path, name: str, metrics: Sequence[str]) -> List[Tuple[str, Path]]:
    """``(label, path)`` of every file :func:`run_report` writes to ``out_dir`` for ``metrics`` (labels naming the
    ``--out-dir`` option, for the command's overlap check)."""
    out_dir = Path(out_dir)
    return [(f"--out-dir ({m}_{name}.json)", out_dir / f"{m}_{name}.json") for m in metrics] + [
        ("--out-dir (.md)", out_dir / f"evaluate_{name}.md"),
        ("--out-dir (.png)", out_dir / f"evaluate_{name}.png"),
    ]


def run_report(
    corpus_path,
    out_dir="metrics",
    name: str = "wikiactors",
    settings: UtilitySettings = UtilitySettings(),
    trir_path=None,
    metrics: Sequence[str] = METRICS,
    headline_model: str = HEADLINE_MODEL,
    warn: Callable[[str], None] = print,
    progress: bool = True,
) -> dict:
    """Run the evaluators and write JSON files, the markdown table and the plot; returns the paths.

    ``tpi`` and ``tps`` use ``headline_model`` (word-frequency IC, independent of the anonymizer);
    ``tpi_lm`` uses ``settings.model`` (the language model, default SmolLM2). ``settings.extra`` files that do not
    exist are skipped, one ``warn`` line each."""
    st = settings
    for p in st.extra:
        if not Path(p).exists():
            warn(f"extra anonymizations {p} not found: skipped")
    unknown = [m for m in metrics if m not in METRICS]
    if unknown or not metrics:
        raise EvaluationError(
            f"unknown metric {unknown[0]!r}: choose among {', '.join(METRICS)}" if unknown else "no metric selected"
        )
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    extra = [p for p in st.extra if Path(p).exists()]
    corpus = load_corpus(corpus_path, st.limit, extra, st.offsets, st.columns, st.split_tags)
    ic = InformationContent(headline_model, st.alternation, st.n, st.cache_dir)
    ic_lm = InformationContent(st.model, st.alternation, st.n, st.cache_dir)
    written, results = {}, {}
    with_reps = masks_of(corpus, progress, with_replacements=True)
    spans = {m: {d: [(s, e) for s, e, _ in v] for d, v in by_id.items()} for m, by_id in with_reps.items()}
    steps = [m for m in METRICS if m in metrics]
    for metric in tqdm(steps, desc="evaluate", unit="metric", disable=not progress):
        if metric == "tpi":
            results[metric] = tpi_result(corpus, ic, spans, progress, corpus_path)
        elif metric == "tpi_lm":
            results[metric] = tpi_result(corpus, ic_lm, spans, progress, corpus_path)
        elif metric == "tps":
            results[metric] = tps_result(corpus, ic, with_reps, None, progress, corpus_path)
        else:
            results[metric] = nmi_result(corpus, st.seeds, st.ks, progress=progress, path=corpus_path)
        path = out_dir / f"{metric}_{name}.json"
        write_metrics(path, results[metric])
        written[metric] = str(path)

    stats = masking_stats(corpus, spans)
    trir_file = Path(trir_path) if trir_path else out_dir / f"trir_{name}_50_eval.json"
    trir = read_trir(trir_file)
    methods = corpus.methods
    if trir:
        privacy = {m: 1.0 - trir[_norm_method(m)] for m in methods if _norm_method(m) in trir}
        privacy_label = f"privacy = 1 - TRIR ({trir_file.name})"
    else:
        privacy = {m: stats[m]["recall_vs_manual"] for m in methods if m in stats}
        privacy_label = "privacy proxy = recall of manual masks (no TRIR file)"
    columns = [(column_title(k, results[k]), results[k][k[:3]]) for k in steps]
    columns += [
        ("masked share", {m: s["masked_share"] for m, s in stats.items()}),
        ("recall vs manual", {m: s["recall_vs_manual"] for m, s in stats.items()}),
    ]
    if trir:
        columns.append(("TRIR", {m: trir[_norm_method(m)] for m in methods if _norm_method(m) in trir}))
    ordered = (
        sorted(methods, key=lambda m: -results.get("tpi", {}).get("tpi", {}).get(m, 0.0))
        if "tpi" in results
        else methods
    )
    settings = results.get("tpi", results.get("tps", {})).get("settings", {})
    lm_settings = results.get("tpi_lm", {}).get("settings", {})
    notes = [
        f"{len(corpus.originals)} documents of `{corpus_path}`; values are means over documents.",
        f"Headline TPI (and TPS): information content from `{settings.get('model', '-')}` word frequencies, "
        "independent of the anonymizer (out-of-vocabulary words: floor frequency "
        f"{settings.get('oov_floor', '-')}).",
        f"TPI (LM) beside it: `{lm_settings.get('model', '-')}`, alternation: {lm_settings.get('alternation', '-')}; "
        "textanon's optimizer minimizes the information removed as scored by this LM, so this column favours "
        "textanon by construction.",
        "TPS similarity: all-MiniLM-L6-v2 cosine; NMI: k-means on all-MiniLM-L6-v2 embeddings, k by silhouette, "
        "mean over seeds.",
        f"Privacy column used in the plot: {privacy_label}.",
    ]
    if "nmi" in results:
        ns = results["nmi"]["settings"]
        notes.append(
            f"NMI: k = {ns['k']} (best silhouette of the originals: "
            f"{max(ns['silhouette'].values(), default=float('nan')):.3f}); the originals' own clusterings agree "
            f"across seeds with NMI {ns['originals_self_nmi']}, a ceiling for reading the NMI column."
        )
    md = markdown_table(ordered, columns, f"Utility evaluation: {name}", notes)
    md_path = out_dir / f"evaluate_{name}.md"
    md_path.write_text(md, encoding="utf-8")
    written["markdown"] = str(md_path)
    png_path = out_dir / f"evaluate_{name}.png"
    plot(
        png_path,
        {column_title(k, results[k]): results[k][k[:3]] for k in steps},
        privacy,
        privacy_label,
        f"{name}: utility vs privacy ({len(corpus.originals)} documents)",
    )
    written["plot"] = str(png_path)
    return written
