"""Comparison table of entity recognizers: ``evaluate-ner`` results side by side (+ silver held-out)."""

import json
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from textanon.labels import TAB_LABELS
from textanon_eval.provenance import write_metrics


def load_runs(runs: Sequence[Tuple[str, Path]]) -> Dict[str, dict]:
    """``{system: evaluate-ner result}`` from ``(name, json path)`` pairs (missing files skipped).

    ``path#system`` picks one system of a ``cv-ner`` result (``scores``) or of an earlier comparison
    (``echr_dev``)."""
    out = {}
    for name, spec in runs:
        path, _, key = str(spec).partition("#")
        if not Path(path).exists():
            continue
        data = json.loads(Path(path).read_text(encoding="utf8"))
        if key:
            found = [c[key] for c in (data.get("scores", {}), data.get("echr_dev", {})) if key in c]
            if not found:
                raise KeyError(f"{path} has no system {key!r}")
            data = found[0]
        out[name] = data
    return out


def silver_scores(model_dir: Path) -> Optional[dict]:
    """Per-type P/R/F1 of a trained model on the held-out silver slice (spaCy's dev scores in meta.json)."""
    meta = Path(model_dir) / "meta.json"
    if not meta.exists():
        return None
    perf = json.loads(meta.read_text(encoding="utf8")).get("performance", {})
    by_type = {
        k: {"precision": v["p"], "recall": v["r"], "f1": v["f"]} for k, v in perf.get("ents_per_type", {}).items()
    }
    return {
        "micro": {"precision": perf.get("ents_p"), "recall": perf.get("ents_r"), "f1": perf.get("ents_f")},
        "by_type": by_type,
    }


def table(results: Dict[str, dict], metric: str = "f1") -> str:
    """Markdown: one row per TAB type, then micro and macro (the mean over the types scored), one column per
    system."""
    names = list(results)
    lines = ["| type | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for label in list(TAB_LABELS) + ["micro", "macro"]:
        cells = []
        for name in names:
            r = results[name]
            if label == "micro":
                value = r["micro"].get(metric)
            elif label == "macro":
                values = [r["by_type"][t].get(metric) for t in TAB_LABELS if t in r["by_type"]]
                values = [v for v in values if v is not None]
                value = sum(values) / len(values) if values else None
            else:
                value = r["by_type"].get(label, {}).get(metric)
            cells.append("–" if value is None else f"{value:.3f}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def compare(runs: Sequence[Tuple[str, Path]], silver_models: Sequence[Tuple[str, Path]] = ()) -> dict:
    """``{"echr_dev": evaluate-ner results, "silver_dev": held-out silver scores}`` of each named system."""
    echr = load_runs(runs)
    silver = {name: s for name, p in silver_models if (s := silver_scores(p))}
    return {"echr_dev": echr, "silver_dev": silver}


def markdown(result: dict, notes: List[str] = ()) -> str:
    """Markdown F1 tables of a :func:`compare` result (silver table only when there are silver scores)."""
    out = ["## Token-level F1 on echr-dev (27 court cases, ORG/LOC interchangeable)", "", table(result["echr_dev"])]
    if result["silver_dev"]:
        out += ["## Entity-level F1 on the held-out silver slice (spaCy scorer)", "", table(result["silver_dev"])]
    out += [f"- {n}" for n in notes]
    return "\n".join(out) + "\n"


def compare_ner(
    runs: Sequence[Tuple[str, Path]], silver_models: Sequence[Tuple[str, Path]], output: Path, notes: List[str] = ()
) -> str:
    """``compare-ner``: :func:`compare`, written to ``output`` (JSON with provenance) and its :func:`markdown`
    table (with ``notes``) beside it (``.md``). Returns the table."""
    result = compare(runs, silver_models)
    write_metrics(output, result)
    table = markdown(result, notes)
    output.with_suffix(".md").write_text(table, encoding="utf8")
    return table
