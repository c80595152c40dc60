"""Selecting the risk threshold t on development data.

Each WikiActors abstract is run once through the pipeline up to the risk scorer (target = the
actor's name); then, for every t of a grid, the risky combinations are recomputed from the stored
``span._.ic`` values and the optimizer re-decides. Decisions are scored at the token level (``\\w+``)
against the manual anonymization, aligned to the original text. t is chosen on the development
records by F1 and reported on the held-out records.
"""
import json
import re
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import numpy as np
from tqdm import tqdm

Span = Tuple[int, int]
WORD = re.compile(r"\w+")


def token_flags(text: str, spans: Sequence[Span]) -> np.ndarray:
    """For each \\w+ token of ``text``: does it overlap a span?"""
    marks = np.zeros(len(text) + 1, dtype=np.int32)
    for s, e in spans:
        marks[s] += 1
        marks[e] -= 1
    covered = np.cumsum(marks)[:-1] > 0
    return np.array([covered[m.start() : m.end()].any() for m in WORD.finditer(text)], dtype=bool)


def prf(pred: List[np.ndarray], gold: List[np.ndarray]) -> Dict[str, float]:
    tp = sum(int((p & g).sum()) for p, g in zip(pred, gold))
    n_pred = sum(int(p.sum()) for p in pred)
    n_gold = sum(int(g.sum()) for g in gold)
    precision = tp / n_pred if n_pred else 1.0
    recall = tp / n_gold if n_gold else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    n_tokens = sum(len(p) for p in pred)
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
            "masked_share": round(n_pred / n_tokens, 4) if n_tokens else 0.0}


def sweep(nlp, records: List[dict], thresholds: Sequence[float]) -> Dict[float, List[np.ndarray]]:
    """Token masks of every record for every threshold (LM run once per record)."""
    risk = nlp.get_pipe("textanon_lm_risk")
    optimizer = nlp.get_pipe("textanon_optimizer")
    saved = risk.threshold
    docs = []
    with nlp.select_pipes(disable=["textanon_optimizer"]):
        for r in tqdm(records, desc="score", unit="doc"):
            doc = nlp.make_doc(r["original_abstract"])
            doc._.target = r["name"]
            docs.append(nlp(doc))
    out: Dict[float, List[np.ndarray]] = {}
    try:
        for t in tqdm(thresholds, desc="thresholds"):
            risk.threshold = t
            flags = []
            for doc in docs:
                doc._.anonymization_warnings = None
                optimizer(risk.set_combinations(doc))
                flags.append(token_flags(doc.text, [(s, e) for s, e, _ in doc._.masks]))
            out[t] = flags
    finally:
        risk.threshold = saved
    return out


def select_threshold(nlp, data_path: Path, n_dev: int = 25, grid=None) -> Dict:
    from ..evaluation.alignment import masked_spans

    records = [r for r in json.loads(Path(data_path).read_text(encoding="utf-8")) if r.get("original_abstract") and r.get("manual_abstract")]
    grid = list(grid if grid is not None else np.round(np.arange(-1.0, -20.01, -0.5), 2))
    gold = [token_flags(r["original_abstract"], masked_spans(r["original_abstract"], r["manual_abstract"])) for r in records]
    flags = sweep(nlp, records, grid)
    rows = []
    for t in grid:
        rows.append({"threshold": float(t), "dev": prf(flags[t][:n_dev], gold[:n_dev]), "test": prf(flags[t][n_dev:], gold[n_dev:])})
    best = max(rows, key=lambda r: (r["dev"]["f1"], r["threshold"]))
    return {
        "selected_threshold_log10": best["threshold"],
        "selected": best,
        "criterion": "token-level F1 against the manual anonymization on the development records",
        "data": str(data_path),
        "n_dev": n_dev,
        "n_test": len(records) - n_dev,
        "gold": "manual_abstract aligned to original_abstract",
        "sweep": rows,
    }


def plot(result: Dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ts = [r["threshold"] for r in result["sweep"]]
    fig, ax = plt.subplots(figsize=(7, 4))
    for split, style in (("dev", "-"), ("test", "--")):
        for metric, colour in (("precision", "tab:blue"), ("recall", "tab:orange"), ("f1", "tab:green")):
            ax.plot(ts, [r[split][metric] for r in result["sweep"]], style, color=colour, label=f"{metric} ({split})")
    ax.axvline(result["selected_threshold_log10"], color="grey", lw=0.8)
    ax.set_xlabel("threshold t (log10 probability)")
    ax.set_ylabel("token-level score vs manual anonymization")
    ax.set_title("Risk threshold selection (WikiActors abstracts)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
