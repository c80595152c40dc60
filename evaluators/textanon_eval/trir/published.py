"""WikiActors TRIR benchmark: run the attack, compare with the published TRIR, write JSON + markdown.

``python -m textanon_eval.trir.published DATA --output metrics/x.json --markdown metrics/x.md``
"""

import argparse
import json
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from textanon_eval.provenance import write_metrics
from textanon_eval.trir.attack import TrirSettings, run_trir
from textanon_eval.trir.data import load_wikiactors

#: Manzanares-Salor et al. (2024), WikiActors 50_eval, distilbert-base-uncased, default settings (GPU).
PUBLISHED_50_EVAL = {
    "original": 100,
    "ner3": 70,
    "ner4": 60,
    "ner7": 88,
    "presidio": 74,
    "spacy": 70,
    "word2vec_t=0.5": 48,
    "word2vec_t=0.25": 26,
    "manual": 10,
}
LABELS = {
    "original": "Original",
    "ner3": "NER3",
    "ner4": "NER4",
    "ner7": "NER7",
    "presidio": "Presidio",
    "spacy": "spaCy",
    "word2vec_t=0.5": "Word2Vec t=0.5",
    "word2vec_t=0.25": "Word2Vec t=0.25",
    "manual": "Manual",
}
#: TrirSettings fields given as ``--name`` options (default: the dataclass's), with their type
SETTING_OPTIONS = (
    ("epochs", int),
    ("patience", int),
    ("window", int),
    ("overlap", int),
    ("batch_size", int),
    ("lr", float),
    ("pretrain_epochs", int),
    ("seed", int),
    ("max_bk_chars", int),
    ("device", str),
)


def _ranks(values: List[float]) -> List[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: List[float], b: List[float]) -> float:
    """Spearman rank correlation (average ranks for ties)."""
    ra, rb = _ranks(a), _ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    var = (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
    return cov / var if var else 0.0


def compare(trir: Dict[str, float], published: Dict[str, float]) -> dict:
    """The methods in both tables, the Spearman correlation (more than two methods) and ours − published."""
    common = [m for m in published if m in trir]
    return {
        "methods": common,
        "spearman": round(spearman([published[m] for m in common], [trir[m] for m in common]), 3)
        if len(common) > 2
        else None,
        "abs_diff": {m: round(trir[m] - published[m], 2) for m in common},
    }


def markdown(result: dict, title: str, published: Optional[Dict[str, float]] = None) -> str:
    """Markdown report of a :func:`run_trir` result: TRIR table (beside ``published``), settings, timings, epochs."""
    s, t = result["settings"], result["timings_s"]
    lines = [f"# {title}", ""]
    cmp = compare(result["trir"], published) if published else None
    sd = result.get("trir_sd") or {}
    ours = "ours TRIR % (mean ± sd)" if sd else "ours TRIR %"
    head = f"| method | published TRIR % | {ours} | ours − published |" if published else f"| method | {ours[5:]} |"
    lines += [head, "|---|---:|---:|---:|" if published else "|---|---:|"]
    for m, v in result["trir"].items():
        name = LABELS.get(m, m)
        cell = f"{v:.1f} ± {sd[m]:.1f}" if sd.get(m) is not None else f"{v:.0f}"
        if published and m in published:
            lines.append(f"| {name} | {published[m]} | {cell} | {v - published[m]:+.0f} |")
        elif published:
            lines.append(f"| {name} | – | {cell} | |")
        else:
            lines.append(f"| {name} | {cell} |")
    if sd:
        lines += ["", f"Mean ± sample sd over the attack seeds {s['seed']} (`trir_by_seed` in the JSON)."]
    lines.append("")
    if cmp and cmp["spearman"] is not None:
        lines.append(
            f"Spearman rank correlation with the published TRIR ({len(cmp['methods'])} methods): **{cmp['spearman']}**"
        )
    lines += [
        f"Upper bound (protected individuals present in the background knowledge): {result['upper_bound']}%",
        "",
        "## Settings",
        "",
        f"- model: `{s['model_label']}` ({s['model_id']}), device {s['device']}, torch threads {s['torch_threads']}",
        f"- {s['individuals']} individuals, {s['train_windows']} training windows (BD ∪ BD′), "
        f"{s['dev_documents']} dev documents",
        f"- window {s['window']} / overlap {s['overlap']}, batch {s['batch_size']}, lr {s['lr']}, "
        f"epochs ≤ {s['epochs']}, patience {s['patience']}, MLM pretraining epochs {s['pretrain_epochs']}; "
        f"ran {s['epochs_run']} epochs, selected epoch {s['selected_epoch']} (dev accuracy, then dev loss)",
        f"- mask marks {'kept' if s['keep_mask_marks'] else 'removed'}, curation {'on' if s['curate'] else 'off'}, "
        f"BD′ {'on' if s['anonymize_background'] else 'off'}, max BK chars {s['max_bk_chars']}, seed {s['seed']}",
        "",
        "## Wall time (s) and memory",
        "",
    ]
    lines += _timings_table(t)
    lines += [
        "",
        f"Peak RSS: {result['peak_rss_mb']} MB"
        + (f"; peak GPU memory {result['peak_gpu_mb']} MB" if "peak_gpu_mb" in result else ""),
        "",
    ]
    hist = result.get("epochs") or []
    if hist:
        methods = [k for k in hist[0] if k.startswith("acc:")]
        lines += [
            "## Per epoch (method accuracies are logged only; selection uses the dev set)",
            "",
            "| epoch | train loss | dev acc | dev loss | "
            + " | ".join(LABELS.get(m[4:], m[4:]) for m in methods)
            + " | s |",
            "|" + "---:|" * (5 + len(methods)),
        ]
        for r in hist:
            lines.append(
                f"| {r['epoch']} | {r['train_loss']:.3f} | {r.get('dev_accuracy', float('nan')):.0f} | "
                f"{r.get('dev_loss', float('nan')):.3f} | "
                + " | ".join(f"{r[m]:.0f}" for m in methods)
                + f" | {r['epoch_s']} |"
            )
    return "\n".join(lines) + "\n"


def _timings_table(timings: dict) -> List[str]:
    """Markdown rows of the wall times: ``{stage: s}`` as one column, ``{seed: {stage: s}}`` one column per seed."""
    if timings and all(isinstance(v, dict) for v in timings.values()):
        seeds = list(timings)
        stages = list(dict.fromkeys(k for v in timings.values() for k in v))
        rows = ["| stage | " + " | ".join(f"seed {x}" for x in seeds) + " |", "|---|" + "---:|" * len(seeds)]
        return rows + [f"| {k} | " + " | ".join(str(timings[x].get(k, "–")) for x in seeds) + " |" for k in stages]
    return ["| stage | seconds |", "|---|---:|"] + [f"| {k} | {v} |" for k, v in timings.items()]


def main(argv: Optional[Sequence[str]] = None) -> dict:
    """Command line: run the attack on ``data``, write the JSON (and markdown) report; returns the result."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("data")
    p.add_argument("--output", required=True)
    p.add_argument("--markdown")
    p.add_argument("--title", default="TRIR on WikiActors")
    p.add_argument("--published", choices=["50_eval", "none"], default="50_eval")
    p.add_argument("--cache-dir")
    p.add_argument("--model")
    p.add_argument("--model-label", help="How to name the model in the report (default: --model)")
    p.add_argument("--threads", type=int)
    p.add_argument("--pretreat-only", action="store_true")
    p.add_argument("--quiet", action="store_true")
    for name, typ in SETTING_OPTIONS:
        p.add_argument("--" + name.replace("_", "-"), type=typ, default=getattr(TrirSettings, name))
    p.add_argument("--keep-mask-marks", action="store_true")
    p.add_argument("--no-dev", action="store_true", help="No dev set: keep the last epoch")
    p.add_argument("--no-monitor", action="store_true", help="Do not score every method after each epoch")
    a = p.parse_args(argv)
    settings = TrirSettings(
        model=a.model,
        **{name: getattr(a, name) for name, _ in SETTING_OPTIONS},
        keep_mask_marks=a.keep_mask_marks,
        monitor=not a.no_monitor,
        use_dev=not a.no_dev,
    )
    inputs = load_wikiactors(a.data, max_bk_chars=a.max_bk_chars)
    result = run_trir(
        inputs,
        settings,
        Path(a.cache_dir) if a.cache_dir else None,
        progress=not a.quiet,
        threads=a.threads,
        pretreat_only=a.pretreat_only,
    )
    if a.pretreat_only:
        print(json.dumps(result))
        return result
    published = PUBLISHED_50_EVAL if a.published == "50_eval" else None
    result["settings"]["model_label"] = a.model_label or result["settings"]["model"]
    result["settings"]["data"] = Path(a.data).name
    if published:
        result["published"] = published
        result["comparison"] = compare(result["trir"], published)

    write_metrics(a.output, result)
    if a.markdown:
        Path(a.markdown).write_text(markdown(result, a.title, published), encoding="utf-8")
    print(
        json.dumps({"trir": result["trir"], "comparison": result.get("comparison"), "timings_s": result["timings_s"]})
    )
    return result


if __name__ == "__main__":
    main()
