"""Token-level agreement of masks with a reference (the manual anonymization), and mean ± sd aggregation.

Shared by the benchmark table and the threshold tuning. A token is a ``\\w+`` match of the original; it
counts as masked when any of its characters lies in a masked span.
"""

import re
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

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
    """Micro precision / recall / F1 of masked tokens against the reference, and the masked share of tokens."""
    tp = sum(int((p & g).sum()) for p, g in zip(pred, gold))
    n_pred = sum(int(p.sum()) for p in pred)
    n_gold = sum(int(g.sum()) for g in gold)
    precision = tp / n_pred if n_pred else 1.0
    recall = tp / n_gold if n_gold else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    n_tokens = sum(len(p) for p in pred)
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "masked_share": round(n_pred / n_tokens, 4) if n_tokens else 0.0,
    }


def mean_sd(values: Sequence[float], digits: int = 2) -> Dict[str, Optional[float]]:
    """``{"mean", "sd", "n"}``: sample standard deviation (ddof = 1); ``sd`` is None for fewer than 2 values."""
    vals = [float(v) for v in values if v is not None]
    if not vals:
        return {"mean": None, "sd": None, "n": 0}
    sd = float(np.std(vals, ddof=1)) if len(vals) > 1 else None
    return {
        "mean": round(float(np.mean(vals)), digits),
        "sd": None if sd is None else round(sd, digits),
        "n": len(vals),
    }


def format_mean_sd(mean: Optional[float], sd: Optional[float], digits: int = 1) -> str:
    """``"12.3 ± 1.4"``, ``"12.3"`` without sd, ``"–"`` without a value."""
    if mean is None:
        return "–"
    return f"{mean:.{digits}f}" + (f" ± {sd:.{digits}f}" if sd is not None else "")


def combine_seeds(runs: dict) -> dict:
    """One result from ``{seed: run_trir result}``: the first seed's details, ``trir`` = mean over seeds,
    ``trir_sd`` = sample sd (None for one seed), ``trir_by_seed`` = every seed's values."""
    first = dict(next(iter(runs.values())))
    if len(runs) == 1:
        return first
    methods = first["trir"]
    agg = {m: mean_sd([r["trir"][m] for r in runs.values()]) for m in methods}
    first["trir"] = {m: a["mean"] for m, a in agg.items()}
    first["trir_sd"] = {m: a["sd"] for m, a in agg.items()}
    first["trir_by_seed"] = {str(seed): r["trir"] for seed, r in runs.items()}
    first["settings"] = dict(first["settings"], seed=list(runs))
    first["timings_s"] = {str(seed): r["timings_s"] for seed, r in runs.items()}
    first["warnings"] = sorted({w for r in runs.values() for w in r["warnings"]})
    return first


def cell(value, fmt: str = "{}") -> str:
    """A table cell: ``fmt`` of ``value``, or "–" when it was not measured (None)."""
    return "–" if value is None else fmt.format(value)


def trir_cell(row: dict) -> str:
    """A row's TRIR cell: the mean, ± the sd over seeds when there are several, "–" when not run."""
    return cell(row.get("trir"), "{:.1f}") + (f" ± {row['trir_sd']:.1f}" if row.get("trir_sd") is not None else "")


def speed_cell(row: dict) -> str:
    """A row's docs/s cell with its ratio to Presidio's in the same run ("2.1 (0.99×)")."""
    return cell(row.get("docs_per_s")) + (f" ({row['x_presidio']}×)" if row.get("x_presidio") else "")
