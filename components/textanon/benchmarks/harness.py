"""Benchmark harness: textanon variants, Presidio, spaCy NER, LLM designs and the published columns of a
WikiActors-format file, each scored for privacy (TRIR), utility (TPI), agreement with the manual
anonymization (token precision/recall after alignment), masked share, speed and memory.

Masks of every system are character spans of ``original_abstract``. Systems we run are turned into
text for the attack by replacing masked spans with ``***``; published and LLM columns are used as given.
"""
import json
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from ..evaluation.alignment import masked_spans
from .systems import run_isolated
from .threshold import prf, token_flags

PUBLISHED = ["ner3", "ner4", "ner7", "presidio", "spacy", "word2vec_t=0.5", "word2vec_t=0.25", "manual"]


def load_records(path: Path, limit: Optional[int] = None) -> List[dict]:
    records = [r for r in json.loads(Path(path).read_text(encoding="utf8")) if r.get("original_abstract")]
    return records[:limit] if limit else records


def apply_masks(text: str, spans: Sequence[Sequence[int]], mark: str = "***") -> str:
    out, last = [], 0
    for s, e in sorted(spans):
        out += [text[last:s], mark]
        last = e
    return "".join(out + [text[last:]])


def run_systems(records: List[dict], thresholds: Sequence[float], model: str, trained_model: Optional[str],
                include_presidio: bool = True) -> Dict[str, dict]:
    """``{system: {"masks": {id: spans}, "seconds", "peak_rss_mb", "texts"?}}`` for systems run here."""
    docs = [(r["name"], r["original_abstract"], r["name"]) for r in records]
    runs: Dict[str, dict] = {}
    plan = [("spacy_ner", "spacy_ner", {}), ("textanon_mask_all", "textanon_mask_all", {"model": model})]
    if include_presidio:
        plan.insert(0, ("presidio (run here)", "presidio", {}))
    if trained_model:
        plan.append(("textanon_trained_mask_all", "textanon_mask_all", {"model": trained_model}))
    for label, name, kwargs in plan:
        runs[label] = _checked(label, run_isolated(name, docs, **kwargs))
    risk = _checked("textanon_risk", run_isolated("textanon_risk", docs, model=model, thresholds=thresholds))
    masks = risk.pop("masks")
    runs[f"textanon (default t={masks['threshold']:g})"] = dict(risk, masks=masks["default"])
    for t, m in masks["sweep"].items():
        runs[f"textanon t={t:g}"] = {"masks": m, "seconds": None, "peak_rss_mb": None, "sweep_threshold": t}
    return runs


def _checked(label: str, result: dict) -> dict:
    if "error" in result:
        raise RuntimeError(f"system {label} failed: {result['error']}")
    return result


def text_columns(records: List[dict], llm_file: Optional[Path]) -> Dict[str, dict]:
    """Published columns and LLM designs: ``{system: {"texts": {id: text}}}`` (empty ones skipped;
    placeholder tags glued to neighbouring words are split first, as in ``evaluate-tpi``)."""
    from ..evaluation.corpus import placeholder_tags, split_glued_tags

    out: Dict[str, dict] = {}
    originals = [r["original_abstract"] for r in records]
    for col in PUBLISHED:
        texts = {r["name"]: r[f"{col}_abstract"] for r in records if r.get(f"{col}_abstract")}
        tags = placeholder_tags(list(texts.values()), originals)  # repair tags glued to words ("SSENSITIVEin")
        texts = {n: split_glued_tags(t, tags)[0] for n, t in texts.items()}
        if texts:
            out[f"{col} (published)"] = {"texts": texts, "seconds": None, "peak_rss_mb": None}
    if llm_file and Path(llm_file).exists():
        for design, by_name in json.loads(Path(llm_file).read_text(encoding="utf8")).items():
            texts = {n: t for n, t in by_name.items() if isinstance(t, str)}
            if texts:
                out[f"llm {design} (SmolLM2)"] = {"texts": texts, "seconds": None, "peak_rss_mb": None}
    return out


def score(records: List[dict], systems: Dict[str, dict], trir_settings=None, tpi_model=None,
          cache_dir: Optional[Path] = None, skip_trir: bool = False,
          trir_values: Optional[Dict[str, float]] = None) -> List[dict]:
    """One row per system with every metric (TRIR/TPI from the evaluators). ``trir_values`` (system ->
    %) replaces running the attack here, e.g. results of ``evaluate-trir`` on the exported texts."""
    from ..evaluation.tpi import InformationContent, tpi_corpus

    originals = {r["name"]: r["original_abstract"] for r in records}
    gold = {n: token_flags(t, masked_spans(t, r["manual_abstract"])) for r in records
            for n, t in [(r["name"], r["original_abstract"])] if r.get("manual_abstract")}
    for sysname, s in systems.items():
        if "masks" not in s:
            s["masks"] = {n: masked_spans(originals[n], t) for n, t in s["texts"].items() if n in originals}
        if "texts" not in s:
            s["texts"] = {n: apply_masks(originals[n], m) for n, m in s["masks"].items()}
    if cache_dir is None:
        from ..lm.loading import cache_dir as base_cache

        cache_dir = base_cache() / "ic"  # shared with evaluate-tpi: the originals are scored once
    ic = InformationContent(tpi_model, cache_dir=cache_dir)
    tpi = tpi_corpus(ic, originals, {k: v["masks"] for k, v in systems.items()}, progress=True).mean()
    trir = trir_values if trir_values is not None else ({} if skip_trir else run_attack(records, systems, trir_settings))
    rows = []
    for name, s in systems.items():
        ids = [n for n in s["masks"] if n in gold]
        flags = [token_flags(originals[n], s["masks"][n]) for n in ids]
        quality = prf(flags, [gold[n] for n in ids]) if ids else {}
        n_docs = len(s["masks"])
        rows.append({
            "system": name,
            "trir": trir.get(name),
            "tpi": round(float(tpi[name]), 4),
            "precision": quality.get("precision"),
            "recall": quality.get("recall"),
            "masked_share": quality.get("masked_share"),
            "docs_per_s": round(n_docs / s["seconds"], 3) if s.get("seconds") else None,
            "load_s": round(s["load_s"], 1) if s.get("load_s") else None,
            "peak_rss_mb": round(s["peak_rss_mb"], 1) if s.get("peak_rss_mb") else None,
            "sweep_threshold": s.get("sweep_threshold"),
        })
    return rows


def run_attack(records: List[dict], systems: Dict[str, dict], settings=None) -> Dict[str, float]:
    """TRIR (%) of every system: one attack, trained once on the file's background knowledge (cached)."""
    from ..evaluation.trir.attack import TrirSettings, run_trir
    from ..evaluation.trir.data import TrirInputs

    background = {r["name"]: r["public_knowledge"] for r in records if r.get("public_knowledge")}
    dev = {r["name"]: r["dev_abstract"] for r in records if r.get("dev_abstract")}
    anonymized = {name: dict(s["texts"]) for name, s in systems.items()}
    anonymized["original"] = {r["name"]: r["original_abstract"] for r in records}
    result = run_trir(TrirInputs(background, anonymized, dev), settings or TrirSettings())
    return result["trir"]


def throughput_ratio(rows: List[dict], presidio_name: str = "presidio (run here)") -> Dict[str, Optional[float]]:
    by = {r["system"]: r for r in rows}
    base = by.get(presidio_name, {}).get("docs_per_s")
    timed = [r for r in rows if r["system"].startswith("textanon") and r["docs_per_s"]]
    default = next((r for r in timed if r["system"].startswith("textanon (default")), None)
    fastest = max(timed, key=lambda r: r["docs_per_s"], default=None)
    ratio = lambda r: round(r["docs_per_s"] / base, 3) if (r and base) else None  # noqa: E731
    return {"default_pipeline": ratio(default), "fastest_variant": ratio(fastest),
            "fastest_variant_name": fastest["system"] if fastest else None}


def benchmark(data: Path, thresholds: Sequence[float], model: str = "en_textanon", trained_model: Optional[str] = None,
              llm_file: Optional[Path] = None, limit: Optional[int] = None, skip_trir: bool = False,
              include_presidio: bool = True, texts_out: Optional[Path] = None,
              trir_values: Optional[Dict[str, float]] = None) -> dict:
    """Run and score every system; ``texts_out`` saves ``{system: {name: anonymized text}}`` (the
    input of ``evaluate-trir --anonymized``)."""
    t0 = time.perf_counter()
    records = load_records(data, limit)
    systems = run_systems(records, thresholds, model, trained_model, include_presidio)
    systems.update(text_columns(records, llm_file))
    rows = score(records, systems, skip_trir=skip_trir, trir_values=trir_values)
    if texts_out:
        Path(texts_out).parent.mkdir(parents=True, exist_ok=True)
        Path(texts_out).write_text(json.dumps({k: v["texts"] for k, v in systems.items()}, ensure_ascii=False) + "\n",
                                   encoding="utf8")
    return {
        "rows": rows,
        "throughput_ratio_vs_presidio": throughput_ratio(rows),
        "settings": {"data": str(data), "documents": len(records), "model": model, "trained_model": trained_model,
                     "thresholds": list(thresholds), "llm_anonymizations": str(llm_file) if llm_file else None,
                     "trir": "textanon.evaluation.trir defaults (attack trained once on public_knowledge, cached)",
                     "tpi": "textanon.evaluation.tpi defaults (offline LM, mean over documents)",
                     "precision_recall": "token level (\\w+) against manual_abstract aligned to original_abstract",
                     "speed": "docs/s after loading + warm-up (load_s apart), each system alone in a fresh process, same documents",
                     "wall_s": round(time.perf_counter() - t0, 1)},
    }


def markdown(result: dict) -> str:
    cols = ["system", "trir", "tpi", "precision", "recall", "masked_share", "docs_per_s", "load_s", "peak_rss_mb"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in result["rows"]:
        lines.append("| " + " | ".join("–" if r.get(c) is None else str(r[c]) for c in cols) + " |")
    tr = result["throughput_ratio_vs_presidio"]
    lines += ["", f"Throughput vs Presidio (same run, same documents): default pipeline {tr['default_pipeline']}×, "
              f"fastest textanon variant ({tr['fastest_variant_name']}) {tr['fastest_variant']}×."]
    return "\n".join(lines) + "\n"


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in result["rows"] if r["trir"] is not None]
    fig, ax = plt.subplots(figsize=(8, 6))
    sweep = sorted((r for r in rows if r["sweep_threshold"] is not None), key=lambda r: r["sweep_threshold"])
    if sweep:
        ax.plot([r["tpi"] for r in sweep], [r["trir"] for r in sweep], "-o", ms=3, color="tab:green",
                label="textanon threshold sweep")
    for r in rows:
        if r["sweep_threshold"] is None:
            ax.scatter(r["tpi"], r["trir"], s=30)
            ax.annotate(r["system"], (r["tpi"], r["trir"]), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel("TPI (share of information content preserved) →  more useful")
    ax.set_ylabel("TRIR (% re-identified) →  less private")
    ax.set_title(f"Privacy vs utility, {Path(result['settings']['data']).name}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

