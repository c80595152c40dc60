"""Choosing the search risk's settings on data that is never evaluated.

Tuning data (``dev``): pseudo-abstracts of actors who are NOT evaluated, cut out of their bodies —
``summary`` (default): sentences drawn from across the body (:mod:`textanon_lab.tuning.summaries`), which
resemble the evaluated abstracts (a summary of the whole article); ``lead``: the lead paragraphs
(:func:`textanon_lab.tuning.threshold.pseudo_abstracts`), much harder to re-identify than the evaluated abstracts.
The defender's index holds the first quarter of each body once the pseudo-abstract is cut out
(:func:`tuning_documents`, as ``WikiActors_500_random_BK25.json`` holds the first 25 % of the bodies of the
evaluated file), so no pseudo-abstract is found verbatim in the index. The judges are the retrieval attackers
of :mod:`textanon_eval.retrieval_attack` (BM25, and MiniLM chunk embeddings) over the **full** remaining
bodies (more than the defender indexed), in groups of about 50 pseudo-abstracts each ranking its group's
bodies, as the evaluation's judges rank the bodies of its 50 people (a small pool is the attacker's
advantage: the defender's index holds 10 times more people); utility is the headline TPI (word-frequency IC,
not the index's IC).

For every setting of the grid the pseudo-abstracts run through the pipeline (target = the actor's name);
privacy of a setting = its highest re-identification rate over the judges. Chosen: among the settings that
mask at most ``max_masked_share`` of the tokens and keep a TPI of at least ``min_tpi`` (all settings when
none does), the one with the highest TPI among those whose privacy is within ``tolerance`` of the lowest
(:func:`textanon_lab.tuning.threshold.choose`, privacy first).
"""

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np
import spacy
from tqdm import tqdm

from textanon.detect.target import find_target_mentions
from textanon.io.datasets.records import Record
from textanon.io.datasets.wikiactors import read_wikiactors
from textanon.pipes.search_risk import configure, use_index
from textanon.render.masking import SUPPRESSION, apply_offsets, merge_offsets
from textanon.risk.search.builder import build_index
from textanon.run.runner import pipe_docs
from textanon_eval.retrieval_attack import DenseAttack, LexicalAttack, reidentification
from textanon_eval.scoring import token_flags
from textanon_eval.tpi import InformationContent, tpi_corpus
from textanon_lab.tuning.sample import TuningSample, pseudo_abstracts, split_lead
from textanon_lab.tuning.summaries import summary_pseudo_abstracts
from textanon_lab.tuning.threshold import choose

#: settings of ``textanon_search_risk`` swept: assume_unindexed (the stronger attacker's prior); k 5, k_rank 30
DEFAULT_GRID: Tuple[Dict[str, object], ...] = tuple(
    {"k": 5, "k_rank": 30, "candidate_unseen": False, "assume_unindexed": a}
    for a in (0.0, 0.05, 0.075, 0.1, 0.125, 0.15)
)


def tuning_documents(
    background_path: Path,
    exclude_path: Path,
    share: float = 0.25,
    min_chars: int = 300,
    pool: Optional[Sequence[dict]] = None,
) -> List[dict]:
    """Records ``{"id", "text", "name"}`` to index for tuning, built like ``WikiActors_500_random_BK25.json``
    (the first ``share`` of each body): for a non-evaluated actor, the first ``share`` of the body once the
    pseudo-abstract is cut out of it (``pool``: the tuning pool's ``{"name", "body"}``, the rest of each body;
    None: the lead paragraphs of ``min_chars`` are cut out); for an evaluated actor (a distractor), the first
    ``share`` of the body."""
    excluded = {r.name for r in read_wikiactors(exclude_path)}
    rests = {p["name"]: p["body"] for p in pool} if pool is not None else None
    out = []
    for rec in read_wikiactors(background_path):
        name, body = rec.name, rec.background
        if not name or body is None:
            continue
        if name in excluded:
            text = body
        elif rests is not None:
            text = rests.get(name, "")  # not in the pool: nothing left once its pseudo-abstract is cut out
        else:
            text = split_lead(body, min_chars)[1]
        text = text[: int(len(text) * share)]
        if text.strip():
            out.append({"id": name, "text": text, "name": name})
    return out


def label(setting: Dict[str, object]) -> str:
    """``k=2 k_rank=30 candidate_unseen=False``."""
    return " ".join(f"{k}={v}" for k, v in setting.items())


def run_settings(nlp, items: Sequence[dict], settings: Iterable[Dict[str, object]]) -> Dict[str, List[List[List[int]]]]:
    """Masked character spans of every pseudo-abstract for every setting of the search risk, by label (the
    component is rebuilt with each setting, :func:`textanon.pipes.search_risk.configure`, then restored)."""
    out: Dict[str, List[List[List[int]]]] = {}
    for setting in settings:
        saved = configure(nlp, setting)
        try:
            records = [Record(id=it["name"], text=it["abstract"], target=it["name"]) for it in items]
            docs = pipe_docs(nlp, tqdm(records, desc=label(setting), unit="doc"), batch_size=1)
            out[label(setting)] = [merge_offsets(doc._.masks) for doc in docs]
        finally:
            configure(nlp, saved)
    return out


class GroupJudge:
    """The judges over groups of about ``size`` pseudo-abstracts, each ranking only its group's bodies (as the
    evaluation ranks the bodies of its 50 evaluated people); ``size`` None: one group over the whole ``pool``.
    Judges (:mod:`textanon_eval.retrieval_attack`): BM25, and with ``dense`` the MiniLM attacker."""

    def __init__(
        self,
        items: Sequence[dict],
        pool: Sequence[dict],
        size: Optional[int] = None,
        dense: bool = False,
        cache_dir: Optional[Path] = None,
    ):

        bodies = {p["name"]: p["body"] for p in pool}
        n_groups = max(1, round(len(items) / size)) if size else 1
        self.groups = []
        for members in np.array_split(np.arange(len(items)), n_groups):
            members = [int(j) for j in members]
            names = [p["name"] for p in pool] if size is None else [items[j]["name"] for j in members]
            group = {n: bodies[n] for n in names}
            judges = {"bm25": LexicalAttack(group)}
            if dense:
                judges["dense"] = DenseAttack(group, cache_dir=cache_dir)
            self.groups.append((members, judges, names))

    def rates(self, items: Sequence[dict], texts: Sequence[str]) -> Dict[str, float]:
        """Share of ``texts`` whose own body ranks first in their group, per judge."""
        hits: Dict[str, int] = {}
        for members, judges, _ in self.groups:
            for kind, judge in judges.items():
                found = reidentification(judge, {items[j]["name"]: texts[j] for j in members})["reidentified"]
                hits[kind] = hits.get(kind, 0) + len(found)
        return {kind: n / len(items) for kind, n in hits.items()} if items else {}

    def rate(self, items: Sequence[dict], texts: Sequence[str]) -> float:
        """Share of ``texts`` whose own body ranks first in their group (BM25)."""
        return self.rates(items, texts).get("bm25", float("nan"))


@dataclass(frozen=True)
class TuningSettings:
    """How :func:`tune` sweeps and chooses: the ``grid`` of settings; the judges over groups of ``judge_pool``
    pseudo-abstracts (None: one group over the whole pool; ``dense``: the MiniLM attacker too, its embeddings
    cached in ``cache_dir``); the headline TPI's ``ic_model``; the choice within ``tolerance`` of the lowest
    privacy among the settings masking at most ``max_masked_share`` and keeping a TPI of at least ``min_tpi``."""

    grid: Sequence[Dict[str, object]] = DEFAULT_GRID
    tolerance: float = 0.02
    ic_model: str = "wordfreq"
    judge_pool: Optional[int] = 50
    dense: bool = True
    max_masked_share: Optional[float] = None
    cache_dir: Optional[Path] = None
    min_tpi: Optional[float] = None


def tune(nlp, items: Sequence[dict], pool: Sequence[dict], settings: TuningSettings = TuningSettings()) -> dict:
    """Sweep ``settings.grid`` on ``items`` (pseudo-abstracts), judged over their full remaining bodies (in groups of
    ``judge_pool``, see :class:`GroupJudge`). Privacy of a setting: its highest re-identification rate over
    the judges (every judge must be beaten); only settings masking at most ``max_masked_share`` of the
    tokens and keeping a TPI of at least ``min_tpi`` compete (all of them when none does)."""
    grid, tolerance, ic_model, judge_pool = settings.grid, settings.tolerance, settings.ic_model, settings.judge_pool
    dense, max_masked_share, min_tpi = settings.dense, settings.max_masked_share, settings.min_tpi
    judge = GroupJudge(items, pool, judge_pool, dense=dense, cache_dir=settings.cache_dir)
    per = run_settings(nlp, items, grid)
    originals = {it["name"]: it["abstract"] for it in items}
    tpi = tpi_corpus(
        InformationContent(ic_model, cache_dir=None),
        originals,
        {name: {it["name"]: m for it, m in zip(items, ms)} for name, ms in per.items()},
        progress=False,
    ).mean()
    n_tokens = sum(len(token_flags(it["abstract"], [])) for it in items)
    rows = []
    for n, setting in enumerate(grid):
        ms = per[label(setting)]
        texts = [apply_offsets(it["abstract"], m, SUPPRESSION) for it, m in zip(items, ms)]
        rates = judge.rates(items, texts)
        rows.append(
            {
                **setting,
                "threshold": -n,  # choose()'s last tie-break (larger wins): the earlier setting of the grid
                "reid_rate": round(max(rates.values()), 4),
                **{f"reid_{kind}": round(v, 4) for kind, v in rates.items()},
                "tpi": round(float(tpi[label(setting)]), 4),
                "masked_share": round(
                    sum(int(token_flags(it["abstract"], m).sum()) for it, m in zip(items, ms)) / max(1, n_tokens), 4
                ),
            }
        )
    allowed = [
        r
        for r in rows
        if (max_masked_share is None or r["masked_share"] <= max_masked_share)
        and (min_tpi is None or r["tpi"] >= min_tpi)
    ] or rows
    chosen = choose(allowed, tolerance)
    for r in rows:
        r.pop("threshold")

    baselines = {
        "original (nothing masked)": [it["abstract"] for it in items],
        "target name only": [
            apply_offsets(it["abstract"], find_target_mentions(it["abstract"], it["name"]), SUPPRESSION) for it in items
        ],
    }
    baselines = {
        k: {f"reid_{kind}": round(v, 4) for kind, v in judge.rates(items, texts).items()}
        for k, texts in baselines.items()
    }
    judges = "BM25 top-1" + (" and MiniLM (max cosine of chunks) top-1" if dense else "")
    return {
        "selected": {k: chosen[k] for k in grid[0]},
        "sweep": rows,
        "baselines": baselines,
        "tolerance": tolerance,
        "max_masked_share": max_masked_share,
        "min_tpi": min_tpi,
        "judge": f"{judges} over the full remaining bodies of groups of about {judge_pool} pseudo-abstracts"
        if judge_pool
        else f"{judges} over the whole pool",
        "documents": len(items),
        "pool": len(pool),
        "criterion": f"highest headline TPI ({ic_model}) among settings whose re-identification rate (the highest "
        f"over the judges) is within {tolerance:g} of the grid's lowest (privacy first)"
        + (f", among those masking at most {max_masked_share:g} of the tokens" if max_masked_share else "")
        + (f" with a TPI of at least {min_tpi:g}" if min_tpi else ""),
    }


#: how the tuning pseudo-abstracts are made: ``summary`` (sentences from across the body,
#: :mod:`textanon_lab.tuning.summaries`) or ``lead`` (the lead paragraphs,
#: :func:`textanon_lab.tuning.threshold.pseudo_abstracts`)
DEV_SETS = ("summary", "lead")


def dev_pool(background_path: Path, exclude_path: Path, dev: str = "summary", min_chars: int = 300) -> List[dict]:
    """The tuning pool ``[{"name", "abstract", "body", "eligible"}]`` of the non-evaluated actors (``dev``: one
    of :data:`DEV_SETS`)."""
    if dev == "summary":
        return summary_pseudo_abstracts(background_path, exclude_path)
    if dev == "lead":
        return pseudo_abstracts(background_path, exclude_path, min_chars)
    raise ValueError(f"unknown tuning set {dev!r}; expected one of {', '.join(DEV_SETS)}")


def select_search_settings(
    nlp, sample: TuningSample, settings: TuningSettings = TuningSettings(), pool: Optional[Sequence[dict]] = None
) -> dict:
    """The seeded pseudo-abstracts of ``sample`` (drawn from ``pool``, default the lead paragraphs), then
    :func:`tune` (the index is ``nlp``'s)."""
    pool, _, items = sample.draw(pool)
    result = tune(nlp, items, pool, settings)
    result.update(sample.provenance())
    return result


def tune_pipeline(
    pipeline: str,
    sample: TuningSample,
    dev: str,
    share: float,
    settings: TuningSettings = TuningSettings(),
    log: Callable[[str], None] = print,
) -> dict:
    """``index tune``: the defender's index of :func:`tuning_documents` (``share`` of each body) built in a
    temporary folder and given to the ``pipeline``'s search risk (``log``ged), then :func:`select_search_settings`
    on the ``dev`` pool (:func:`dev_pool`). The result records the pipeline, the pool and the index."""
    background, exclude = sample.background_path, sample.exclude_path
    pool = dev_pool(background, exclude, dev)
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "documents.jsonl"
        indexed = tuning_documents(background, exclude, share, pool=pool)
        docs.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in indexed), encoding="utf-8")
        meta = build_index(docs, Path(tmp) / "index")
        nlp = spacy.load(pipeline)
        log(use_index(nlp, Path(tmp) / "index"))
        result = select_search_settings(nlp, sample, settings, pool=pool)
    result.update({"pipeline": pipeline, "dev": dev, "indexed_share": share, "indexed_documents": meta["documents"]})
    return result
