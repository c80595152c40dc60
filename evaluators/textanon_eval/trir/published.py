"""The published WikiActors TRIR, the comparison with it (Spearman, differences) and the markdown report of a
TRIR result (the benchmark script that runs the attack: ``python -m textanon_lab.benchmarks.trir``)."""

from typing import Dict, List, Optional

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
