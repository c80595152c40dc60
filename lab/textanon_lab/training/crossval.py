"""Court-case fine-tuning of the silver model, and its k-fold cross-validated comparison.

``finetune`` continues training the silver model (``configs/ner_court.cfg`` sources its tok2vec+ner)
on human-annotated cases. ``cross_validate`` measures what that buys on annotated cases without
scoring any case the model was tuned on: the cases are dealt into k folds by document; for each fold
a model is fine-tuned on the other folds (a slice of them is its early-stopping dev set) and the
held-out fold is tagged by the hybrid pipeline (``configs/textanon.cfg``, ``paths.ner_model`` set to the fold
model). Every recognizer variant of :data:`VARIANTS` is scored on the same held-out predictions, token level,
pooled over folds.
"""

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

import spacy
from spacy.cli.train import train as spacy_train

from textanon.io.datasets.gold import (
    folds,
    gold_corpus,
    gold_summary,
    gold_training_docs,
    label_counts,
    split_ids,
    write_split,
)
from textanon.io.datasets.tab import GoldDocument, load_tab
from textanon.labels import CODE, DEM, MISC, PERSON, TAB_LABELS
from textanon.pipeline import assemble
from textanon_eval.ner_eval import score_tokens, token_labels
from textanon_eval.provenance import write_metrics
from textanon_lab.training.compare import table

RECOGNIZER = "textanon_entity_recognizer"
#: recognizer settings compared on the same predictions; every variant sets the gazetteer explicitly (the pipeline
#: config's own setting is not inherited) and ``model_spans_key = None`` leaves the trained model out
VARIANTS: Dict[str, dict] = {
    "rules + NER + gazetteer": {"model_spans_key": None, "use_gazetteer": True},
    "rules + NER": {"model_spans_key": None, "use_gazetteer": False},
    "trained model alone": {
        "model_spans_key": "model",
        "model_labels": list(TAB_LABELS),
        "use_ner": False,
        "use_gazetteer": False,
        "use_rules": False,
    },
    "hybrid (model: all types)": {"model_spans_key": "model", "model_labels": list(TAB_LABELS), "use_gazetteer": True},
    "hybrid (model: DEM, MISC, CODE)": {
        "model_spans_key": "model",
        "model_labels": [DEM, MISC, CODE],
        "use_gazetteer": True,
    },
    "hybrid (model: DEM, MISC)": {"model_spans_key": "model", "model_labels": [DEM, MISC], "use_gazetteer": True},
    "hybrid (model: all types; no gazetteer)": {
        "model_spans_key": "model",
        "model_labels": list(TAB_LABELS),
        "use_gazetteer": False,
    },
    "hybrid (model: PERSON, DEM, MISC, CODE; no gazetteer)": {
        "model_spans_key": "model",
        "model_labels": [PERSON, DEM, MISC, CODE],
        "use_gazetteer": False,
    },
    "hybrid (model: DEM, MISC, CODE; no gazetteer)": {
        "model_spans_key": "model",
        "model_labels": [DEM, MISC, CODE],
        "use_gazetteer": False,
    },
    "hybrid (model: DEM, MISC; no gazetteer)": {
        "model_spans_key": "model",
        "model_labels": [DEM, MISC],
        "use_gazetteer": False,
    },
}
#: the variant configs/textanon.cfg ships (tests check the config says the same)
SHIPPED_VARIANT = "hybrid (model: DEM, MISC)"


def finetune(
    config: Path, output: Path, train: Path, dev: Path, base_model: Path, overrides: Optional[Dict[str, object]] = None
) -> Path:
    """``spacy train`` of ``config`` from ``base_model``; returns ``output/model-best``."""
    settings = {
        "paths.train": str(train),
        "paths.dev": str(dev),
        "paths.base_model": str(base_model),
        **(overrides or {}),
    }
    spacy_train(config, output, use_gpu=-1, overrides=settings)
    return output / "model-best"


def detection_pipeline(pipeline_config: Path, model: Path, gazetteer: Optional[Path]):
    """The hybrid pipeline up to the entity recognizer, with ``model`` as the trained component."""
    return assemble(pipeline_config, gazetteer, {"paths.ner_model": str(model)}, last_component=RECOGNIZER)


def tag_variants(
    nlp, golds: Sequence[GoldDocument], annotator: Optional[str] = None, variants: Dict[str, dict] = VARIANTS
) -> Dict[str, List[tuple]]:
    """``{variant: [(gold token labels, predicted token labels) per document]}``; the models run once."""
    recognizer = nlp.get_pipe(RECOGNIZER)
    base = {
        k: getattr(recognizer, k) for k in ("use_ner", "use_gazetteer", "use_rules", "model_spans_key", "model_labels")
    }
    docs = list(nlp.pipe([g.text for g in golds]))
    gold_labels = []
    for g in golds:
        ann = annotator if annotator is not None else next(iter(g.annotations), None)
        gold_labels.append(token_labels(g.text, [(m.start, m.end, m.entity_type) for m in g.annotations.get(ann, [])]))
    out: Dict[str, List[tuple]] = {name: [] for name in variants}
    try:
        for name, settings in variants.items():
            for key, value in {**base, **settings}.items():
                setattr(recognizer, key, value)
            for g, doc, gold in zip(golds, docs, gold_labels):
                recognizer(doc)
                pred = token_labels(
                    g.text, [(s.start_char, s.end_char, s.label_) for s in doc.spans[recognizer.spans_key]]
                )
                out[name].append((gold, pred))
    finally:
        for key, value in base.items():
            setattr(recognizer, key, value)
    return out


@dataclass(frozen=True)
class FoldSettings:
    """How :func:`cross_validate` trains and tags each fold: ``train_config`` fine-tunes ``base_model`` (with the
    config ``overrides``) on the other folds, ``dev_share`` of them its early-stopping dev set (split with
    ``seed`` + fold); ``pipeline_config`` (with ``gazetteer``) tags the held-out fold; the fold corpora and models
    go to ``work_dir``; gold mentions are ``annotator``'s (None: each document's first)."""

    train_config: Path
    pipeline_config: Path
    base_model: Path
    gazetteer: Optional[Path]
    work_dir: Path
    annotator: Optional[str] = None
    dev_share: float = 0.15
    seed: int = 0
    overrides: Optional[Dict[str, object]] = None


def step_limit(max_steps: Optional[int]) -> Optional[Dict[str, object]]:
    """The config override of ``training.max_steps`` (smoke runs); None without ``max_steps``."""
    return {"training.max_steps": max_steps} if max_steps else None


def cross_validate(
    nlp_blank,
    golds: Sequence[GoldDocument],
    *,
    k: int,
    settings: FoldSettings,
    log: Callable[[str], None] = print,
) -> dict:
    """k-fold CV of court fine-tuning (see the module docstring); also scores the un-tuned ``base_model``."""
    train_config, pipeline_config, base_model = settings.train_config, settings.pipeline_config, settings.base_model
    gazetteer, work_dir, annotator, seed = settings.gazetteer, settings.work_dir, settings.annotator, settings.seed
    docs_by_id = gold_training_docs(nlp_blank, golds, annotator)
    by_id = {g.doc_id: g for g in golds}
    fold_ids = folds(list(docs_by_id), k, seed)
    pooled: Dict[str, List[tuple]] = {}
    runs = []
    for i, test_ids in enumerate(fold_ids):
        rest = [d for d in docs_by_id if d not in set(test_ids)]
        train_ids, dev_ids = split_ids(rest, settings.dev_share, seed + i)
        paths = write_split(docs_by_id, train_ids, dev_ids, work_dir / "corpus", f"fold{i}")
        log(f"fold {i + 1}/{k}: fine-tune on {len(train_ids)} cases (dev {len(dev_ids)}), test {len(test_ids)}")
        started = time.time()
        model = finetune(
            train_config, work_dir / f"fold{i}", paths["train"], paths["dev"], base_model, settings.overrides
        )
        seconds = time.time() - started
        nlp = detection_pipeline(pipeline_config, model, gazetteer)
        for name, pairs in tag_variants(nlp, [by_id[d] for d in test_ids], annotator).items():
            pooled.setdefault(f"court-tuned: {name}", []).extend(pairs)
        runs.append(
            {
                "fold": i,
                "train": train_ids,
                "dev": dev_ids,
                "test": test_ids,
                "train_seconds": round(seconds, 1),
                "train_entities": label_counts(docs_by_id, train_ids),
                "model_meta": _meta(model),
            }
        )
    log("silver model without court fine-tuning, all cases")
    nlp = detection_pipeline(pipeline_config, base_model, gazetteer)
    for name, pairs in tag_variants(nlp, list(golds), annotator).items():
        if VARIANTS[name].get("model_spans_key"):
            pooled[f"silver only: {name}"] = pairs
    scores = {name: score_tokens(pairs, org_loc_interchangeable=True) for name, pairs in pooled.items()}
    return {
        "k": k,
        "seed": seed,
        "documents": len(golds),
        "folds": runs,
        "scores": scores,
        "org_loc_interchangeable": True,
    }


def _meta(model: Path) -> dict:
    meta = json.loads((Path(model) / "meta.json").read_text(encoding="utf8"))
    perf = meta.get("performance", {})
    return {"dev_ents_f": perf.get("ents_f"), "dev_ents_per_type": perf.get("ents_per_type")}


def markdown(result: dict) -> str:
    """Per-type token F1, precision and recall tables (rows: TAB types; columns: systems)."""
    scores = result["scores"]
    lines = [
        f"## {result['k']}-fold cross-validation on {result['documents']} annotated court cases "
        "(token F1, ORG/LOC interchangeable)",
        "",
        "Each case is scored by a model that never saw it; folds by document.",
        "",
        table(scores),
        "### Precision",
        "",
        table(scores, "precision"),
        "### Recall",
        "",
        table(scores, "recall"),
    ]
    times = [r["train_seconds"] for r in result["folds"]]
    lines.append(f"- fine-tuning time per fold: {', '.join(f'{t:.0f} s' for t in times)}")
    return "\n".join(lines) + "\n"


def train_court(
    gold: Sequence[Path],
    output: Path,
    base_model: Path,
    config: Path,
    annotator: Optional[str] = None,
    dev_share: float = 0.15,
    max_steps: Optional[int] = None,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> Path:
    """``train-court``: the annotated cases as a train / early-stopping dev split by case
    (:func:`textanon.io.datasets.gold.gold_corpus`, in ``output/corpus``; ``log``ged), then :func:`finetune` of
    ``base_model``. Returns the best model's folder; bad input raises ValueError."""
    stats, paths = gold_corpus(gold, output / "corpus", dev_share, seed, annotator, "court")
    log(gold_summary(stats, paths))
    return finetune(config, output, paths["train"], paths["dev"], base_model, step_limit(max_steps))


def cv_ner(gold: Path, output: Path, folds: int, settings: FoldSettings, log: Callable[[str], None] = print) -> str:
    """``cv-ner``: :func:`cross_validate` in ``folds`` folds (trained and tagged as ``settings`` say) on the TAB-format
    ``gold`` cases, written to ``output`` (JSON with provenance) and its :func:`markdown` table beside it (``.md``).
    Returns the table."""

    golds = load_tab(gold, require_identifiers=False)
    result = cross_validate(spacy.blank("en"), golds, k=folds, settings=settings, log=log)
    write_metrics(output, result)
    table = markdown(result)
    output.with_suffix(".md").write_text(table, encoding="utf8")
    return table
