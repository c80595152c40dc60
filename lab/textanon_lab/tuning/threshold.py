"""Choosing the risk threshold t on data that is never evaluated, without manual annotation.

Tuning data: *pseudo-abstracts* (:mod:`.sample`). Every WikiActors background record whose actor is NOT one of the
evaluated individuals (``--exclude``: the 50 evaluated abstracts' file) has a Wikipedia body; its lead
paragraphs (at least ``min_chars`` characters) are cut out and become a pseudo-abstract, the rest of the
body stays as that actor's background knowledge. The evaluated abstracts are never read.

Scores are computed once: each pseudo-abstract runs through the pipeline up to the risk scorer (target =
the actor's name; :func:`textanon.run.runner.pipe_docs`); then for every t of the grid the risky combinations are
recomputed from the stored ``span._.ic`` values and the optimizer re-decides (:func:`textanon.run.runner.redecide`,
as the benchmark sweep does).

Annotation-free criterion, privacy first:

* privacy: re-identification rate of a BM25 attacker (:mod:`.bm25`) that ranks the remaining bodies of all
  non-evaluated actors with the anonymized pseudo-abstract as the query (top-1 = its own body);
* utility: the headline TPI (word-frequency information content, independent of the anonymizer's LM);
* chosen t: the one with the highest TPI among those whose re-identification rate is within
  ``tolerance`` (default 2 percentage points, about 3 of 150 documents) of the lowest rate on the grid;
  ties go to the lower (more masking) rate, then the higher t.
"""

from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np
import spacy
from tqdm import tqdm

import textanon  # noqa: F401
from textanon.detect.target import find_target_mentions
from textanon.io.datasets.records import Record
from textanon.render.masking import SUPPRESSION, apply_offsets, merge_offsets
from textanon.run.runner import pipe_docs, redecide
from textanon_eval.bm25 import BM25
from textanon_eval.provenance import write_metrics
from textanon_eval.tpi import InformationContent, tpi_corpus
from textanon_lab.tuning.sample import TuningSample, pseudo_abstracts, split_lead  # noqa: F401 - pseudo_abstracts, split_lead: public here too

DEFAULT_GRID = tuple(float(t) for t in np.round(np.arange(-1.0, -20.01, -1.0), 2))


def score_once(nlp, items: Sequence[dict]) -> list:
    """The pipeline up to the risk scorer, once per pseudo-abstract (target = the actor's name)."""
    records = [Record(id=it["name"], text=it["abstract"], target=it["name"]) for it in items]
    with nlp.select_pipes(disable=["textanon_optimizer"]):
        return list(pipe_docs(nlp, tqdm(records, desc="score", unit="doc"), batch_size=1))


def decide(nlp, docs: Sequence, thresholds: Sequence[float]) -> Dict[float, List[List[List[int]]]]:
    """Masked character spans of every doc for every threshold, re-decided from the stored IC values."""
    out = {}
    for t in tqdm(thresholds, desc="thresholds"):
        out[float(t)] = [merge_offsets(doc._.masks) for doc in redecide(nlp, docs, t)]
    return out


def reidentification_rate(index: BM25, pool_names: Sequence[str], items: Sequence[dict], texts: Sequence[str]) -> float:
    """Share of ``texts`` (anonymized pseudo-abstracts) whose BM25 top-1 body is their own actor's."""
    hits = sum(1 for it, text in zip(items, texts) if (i := index.top1(text)) >= 0 and pool_names[i] == it["name"])
    return hits / len(items) if items else float("nan")


def choose(rows: List[dict], tolerance: float) -> dict:
    """The most useful t whose re-identification rate is within ``tolerance`` of the grid's lowest rate."""
    best_rate = min(r["reid_rate"] for r in rows)
    ok = [r for r in rows if r["reid_rate"] <= best_rate + tolerance + 1e-12]
    return max(ok, key=lambda r: (r["tpi"], -r["reid_rate"], r["threshold"]))


def select_threshold(
    nlp,
    sample: TuningSample,
    grid: Sequence[float] = DEFAULT_GRID,
    tolerance: float = 0.02,
    ic_model: str = "wordfreq",
) -> dict:
    """Sweep ``grid`` on the seeded pseudo-abstracts of ``sample``; see the module docstring for the criterion."""
    pool, eligible, items = sample.draw()
    index = BM25([p["body"] for p in pool])
    pool_names = [p["name"] for p in pool]
    docs = score_once(nlp, items)
    per_t = decide(nlp, docs, grid)
    ic = InformationContent(ic_model, cache_dir=None)
    originals = {it["name"]: it["abstract"] for it in items}
    masks = {f"t={t:g}": {it["name"]: m for it, m in zip(items, ms)} for t, ms in per_t.items()}
    target_only = {it["name"]: find_target_mentions(it["abstract"], it["name"]) for it in items}
    masks["target name only"] = target_only
    tpi = tpi_corpus(ic, originals, masks, progress=False).mean()
    rows = []
    for t, ms in per_t.items():
        texts = [apply_offsets(it["abstract"], m, SUPPRESSION) for it, m in zip(items, ms)]
        chars = sum(e - s for m in ms for s, e in m)
        rows.append(
            {
                "threshold": t,
                "reid_rate": round(reidentification_rate(index, pool_names, items, texts), 4),
                "tpi": round(float(tpi[f"t={t:g}"]), 4),
                "masked_char_share": round(chars / sum(len(it["abstract"]) for it in items), 4),
            }
        )
    chosen = choose(rows, tolerance)
    baselines = {
        "original (nothing masked)": {
            "reid_rate": round(reidentification_rate(index, pool_names, items, [it["abstract"] for it in items]), 4),
            "tpi": 1.0,
        },
        "target name only": {
            "reid_rate": round(
                reidentification_rate(
                    index,
                    pool_names,
                    items,
                    [apply_offsets(it["abstract"], target_only[it["name"]], SUPPRESSION) for it in items],
                ),
                4,
            ),
            "tpi": round(float(tpi["target name only"]), 4),
        },
    }
    return {
        "selected_threshold_log10": chosen["threshold"],
        "selected": chosen,
        "criterion": (
            f"highest headline TPI ({ic.settings['model']}) among thresholds whose BM25 re-identification "
            f"rate is within {tolerance:g} of the lowest rate on the grid (privacy first)"
        ),
        "tuning_data": (
            "pseudo-abstracts: lead paragraphs (>= %d chars) cut out of the WikiActors background bodies "
            "of actors NOT in the evaluated file; attacker pool = the remaining bodies" % sample.min_chars
        ),
        **sample.provenance(),
        "documents": len(items),
        "pool": len(pool),
        "eligible": len(eligible),
        "tolerance": tolerance,
        "attacker": "BM25 (k1 1.5, b 0.75), lower-case words minus spaCy English stop words, top-1 over the pool",
        "baselines": baselines,
        "sweep": rows,
    }


def tune_threshold(
    model: str,
    background_path: Path,
    exclude_path: Path,
    output: Path,
    n: Optional[int] = 150,
    seed: int = 0,
    tolerance: float = 0.02,
    min_chars: int = 300,
) -> dict:
    """``select-threshold``: load the pipeline ``model``, :func:`select_threshold`, write the result to ``output``
    (JSON with provenance) and its :func:`plot` beside it (``.png``). Returns the result."""

    sample = TuningSample(background_path, exclude_path, n, seed, min_chars)
    result = select_threshold(spacy.load(model), sample, tolerance=tolerance)
    write_metrics(output, result)
    plot(result, Path(output).with_suffix(".png"))
    return result


def plot(result: Dict, path: Path) -> None:
    """Re-identification rate and TPI against t, the chosen t marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["sweep"]
    ts = [r["threshold"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(ts, [r["reid_rate"] for r in rows], "-o", ms=3, color="tab:red", label="BM25 re-identification rate")
    ax.plot(ts, [r["tpi"] for r in rows], "-o", ms=3, color="tab:green", label="TPI (word-frequency IC)")
    ax.plot(ts, [r["masked_char_share"] for r in rows], "--", color="grey", label="masked share of characters")
    orig = result["baselines"]["original (nothing masked)"]["reid_rate"]
    ax.axhline(orig, color="tab:red", lw=0.6, ls=":", label="re-identification, nothing masked")
    ax.axvline(result["selected_threshold_log10"], color="black", lw=0.8)
    ax.set_xlabel("threshold t (log10 probability)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(f"Risk threshold on {result['documents']} pseudo-abstracts (no evaluated record)", fontsize=10)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
