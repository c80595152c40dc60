"""Choosing the search risk's settings (k, k_rank, candidate_unseen) on data that is never evaluated.

Tuning data: the pseudo-abstracts of :mod:`textanon.tuning.threshold` — the lead paragraphs of the bodies of
actors who are NOT evaluated, cut out of their bodies. The defender's index holds the first quarter of each
body once the pseudo-abstract's lead is cut out (:func:`tuning_documents`, as ``WikiActors_500_random_BK25.json``
holds the first 25 % of the bodies of the evaluated file), so no pseudo-abstract is found verbatim in the
index. The judge is the BM25 attacker of :mod:`textanon.tuning.bm25` over the **full** remaining bodies (more
than the defender indexed), in groups of 50 pseudo-abstracts each ranking its group's bodies, as the
evaluation's judge ranks the bodies of its 50 people (a small pool is the attacker's advantage: the
defender's index holds 10 times more people); utility is the headline TPI (word-frequency IC, not the
index's IC).

For every setting of the grid the pseudo-abstracts run through the pipeline (target = the actor's name);
chosen: the setting with the highest TPI among those whose re-identification rate is within ``tolerance``
of the grid's lowest (:func:`textanon.tuning.threshold.choose`, privacy first).
"""

import random
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from tqdm import tqdm

from ..datasets.records import Record
from ..masking import SUPPRESSION, apply_offsets, merge_offsets
from ..runner import pipe_docs
from .bm25 import BM25
from .threshold import pseudo_abstracts, reidentification_rate, split_lead

#: settings of ``textanon_search_risk`` swept: k x k_rank x candidate_unseen
DEFAULT_GRID: Tuple[Dict[str, object], ...] = tuple(
    {"k": k, "k_rank": r, "candidate_unseen": u} for u in (False, True) for k in (2, 3, 5) for r in (1, 3, 10, 30)
)


def tuning_documents(
    background_path: Path, exclude_path: Path, share: float = 0.25, min_chars: int = 300
) -> List[dict]:
    """Records ``{"id", "text", "name"}`` to index for tuning, built like ``WikiActors_500_random_BK25.json``
    (the first ``share`` of each body): for a non-evaluated actor, the first ``share`` of the body once the
    pseudo-abstract's lead is cut out of it; for an evaluated actor (a distractor), the first ``share`` of the body."""
    from ..datasets.wikiactors import read_wikiactors

    excluded = {r.name for r in read_wikiactors(exclude_path)}
    out = []
    for rec in read_wikiactors(background_path):
        name, body = rec.name, rec.background
        if not name or body is None:
            continue
        text = body if name in excluded else split_lead(body, min_chars)[1]
        text = text[: int(len(text) * share)]
        if text.strip():
            out.append({"id": name, "text": text, "name": name})
    return out


def label(setting: Dict[str, object]) -> str:
    """``k=2 k_rank=30 candidate_unseen=False``."""
    return " ".join(f"{k}={v}" for k, v in setting.items())


def run_settings(
    nlp, items: Sequence[dict], settings: Iterable[Dict[str, object]], component: str = "textanon_search_risk"
) -> Dict[str, List[List[List[int]]]]:
    """Masked character spans of every pseudo-abstract for every setting (attributes of the component), by label."""
    risk = nlp.get_pipe(component)
    out: Dict[str, List[List[List[int]]]] = {}
    for setting in settings:
        saved = {k: getattr(risk, k) for k in setting}
        try:
            for k, v in setting.items():
                setattr(risk, k, v)
            records = [Record(id=it["name"], text=it["abstract"], target=it["name"]) for it in items]
            docs = pipe_docs(nlp, tqdm(records, desc=label(setting), unit="doc"), batch_size=1)
            out[label(setting)] = [merge_offsets(doc._.masks) for doc in docs]
        finally:
            for k, v in saved.items():
                setattr(risk, k, v)
    return out


class GroupJudge:
    """The BM25 judge over groups of ``size`` pseudo-abstracts, each ranking only its group's bodies (as the
    evaluation ranks the bodies of its 50 evaluated people); ``size`` None: one judge over the whole ``pool``."""

    def __init__(self, items: Sequence[dict], pool: Sequence[dict], size: Optional[int] = None):
        bodies = {p["name"]: p["body"] for p in pool}
        step = size or len(items)
        self.groups = []
        for i in range(0, len(items), max(1, step)):
            members = list(range(i, min(i + step, len(items))))
            names = [p["name"] for p in pool] if size is None else [items[j]["name"] for j in members]
            self.groups.append((members, BM25([bodies[n] for n in names]), names))

    def rate(self, items: Sequence[dict], texts: Sequence[str]) -> float:
        """Share of ``texts`` whose own body ranks first in their group."""
        hits = sum(
            reidentification_rate(index, names, [items[j] for j in members], [texts[j] for j in members]) * len(members)
            for members, index, names in self.groups
        )
        return hits / len(items) if items else float("nan")


def tune(
    nlp,
    items: Sequence[dict],
    pool: Sequence[dict],
    grid: Sequence[Dict[str, object]] = DEFAULT_GRID,
    tolerance: float = 0.02,
    ic_model: str = "wordfreq",
    judge_pool: Optional[int] = 50,
) -> dict:
    """Sweep ``grid`` on ``items`` (pseudo-abstracts), judged over their full remaining bodies (in groups of
    ``judge_pool``, see :class:`GroupJudge`)."""
    from ..evaluation.tpi import InformationContent, tpi_corpus
    from .threshold import choose

    judge = GroupJudge(items, pool, judge_pool)
    per = run_settings(nlp, items, grid)
    originals = {it["name"]: it["abstract"] for it in items}
    tpi = tpi_corpus(
        InformationContent(ic_model, cache_dir=None),
        originals,
        {name: {it["name"]: m for it, m in zip(items, ms)} for name, ms in per.items()},
        progress=False,
    ).mean()
    rows = []
    for n, setting in enumerate(grid):
        ms = per[label(setting)]
        texts = [apply_offsets(it["abstract"], m, SUPPRESSION) for it, m in zip(items, ms)]
        chars = sum(e - b for m in ms for b, e in m)
        rows.append(
            {
                **setting,
                "threshold": -n,  # choose()'s last tie-break (larger wins): the earlier setting of the grid
                "reid_rate": round(judge.rate(items, texts), 4),
                "tpi": round(float(tpi[label(setting)]), 4),
                "masked_char_share": round(chars / sum(len(it["abstract"]) for it in items), 4),
            }
        )
    chosen = choose(rows, tolerance)
    for r in rows:
        r.pop("threshold")
    from ..target import find_target_mentions

    baselines = {
        "original (nothing masked)": [it["abstract"] for it in items],
        "target name only": [
            apply_offsets(it["abstract"], find_target_mentions(it["abstract"], it["name"]), SUPPRESSION) for it in items
        ],
    }
    baselines = {k: {"reid_rate": round(judge.rate(items, v), 4)} for k, v in baselines.items()}
    return {
        "selected": {k: chosen[k] for k in grid[0]},
        "sweep": rows,
        "baselines": baselines,
        "tolerance": tolerance,
        "judge": f"BM25 top-1 over the full remaining bodies of groups of {judge_pool} pseudo-abstracts"
        if judge_pool
        else "BM25 top-1 over the whole pool",
        "documents": len(items),
        "pool": len(pool),
        "criterion": f"highest headline TPI ({ic_model}) among settings whose BM25 re-identification rate is "
        f"within {tolerance:g} of the grid's lowest (privacy first)",
    }


def select_search_settings(
    nlp,
    background_path: Path,
    exclude_path: Path,
    n: Optional[int] = 100,
    seed: int = 0,
    grid: Sequence[Dict[str, object]] = DEFAULT_GRID,
    tolerance: float = 0.02,
    min_chars: int = 300,
    judge_pool: Optional[int] = 50,
) -> dict:
    """Seeded ``n`` pseudo-abstracts of non-evaluated actors, then :func:`tune` (the index is ``nlp``'s)."""
    pool = pseudo_abstracts(background_path, exclude_path, min_chars)
    eligible = [p for p in pool if p["eligible"]]
    items = random.Random(seed).sample(eligible, n) if n and n < len(eligible) else list(eligible)
    result = tune(nlp, items, pool, grid, tolerance, judge_pool=judge_pool)
    result.update(
        {
            "background": str(background_path),
            "excluded_evaluated_file": str(exclude_path),
            "evaluated_records_used": 0,
            "seed": seed,
        }
    )
    return result
