"""Token-level P/R/F1 of an entity recognizer against a gold entity layer (TAB labels).

Tokens are ``\\w+`` sequences (as in TAB). A gold token carries the label of the first gold
mention containing it; a predicted token the label of the first predicted span containing it.
Per type T: recall = gold-T tokens predicted with a matching label / gold-T tokens; precision =
predicted-T tokens whose gold label matches / predicted-T tokens. ``micro`` pools all types;
``untyped`` ignores labels (any entity vs any entity: what matters for masking).
With ``org_loc_interchangeable`` ORG and LOC match each other.
"""

import re
import time
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import spacy

from textanon.extensions import DEFAULT_SPANS_KEY
from textanon.io.datasets.gold import folds
from textanon.io.datasets.records import Record
from textanon.io.datasets.tab import GoldDocument, load_tab
from textanon.labels import ONTONOTES_TO_TAB
from textanon.run.runner import pipe_docs
from textanon_eval.provenance import write_metrics

WORD = re.compile(r"\w+")
Labeled = Tuple[int, int, str]
DISABLE_FOR_NER = ("textanon_entity_linker", "textanon_lm_risk", "textanon_optimizer")


def token_labels(text: str, spans: Iterable[Labeled]) -> Dict[Tuple[int, int], str]:
    """``(token start, token end) -> label`` for the ``\\w+`` tokens inside the spans."""
    out: Dict[Tuple[int, int], str] = {}
    for start, end, label in spans:
        for m in WORD.finditer(text[start:end]):
            out.setdefault((start + m.start(), start + m.end()), label)
    return out


def _same(a: str, b: str, org_loc: bool) -> bool:
    return a == b or (org_loc and {a, b} == {"ORG", "LOC"})


def _prf(tp_p: int, n_pred: int, tp_r: int, n_gold: int) -> Dict[str, float]:
    p = tp_p / n_pred if n_pred else 0.0
    r = tp_r / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "gold_tokens": n_gold, "predicted_tokens": n_pred}


def _tally(counts: Dict[str, List[int]], untyped: List[int], tokens: Dict, other: Dict, at: int, org_loc: bool):
    """Count ``tokens`` in slot ``at + 1`` and those with a matching label in ``other`` in slot ``at``."""
    for tok, label in tokens.items():
        c = counts.setdefault(label, [0, 0, 0, 0])
        c[at + 1] += 1
        c[at] += tok in other and _same(other[tok], label, org_loc)
        untyped[at + 1] += 1
        untyped[at] += tok in other


def score_tokens(pairs: Sequence[Tuple[Dict, Dict]], org_loc_interchangeable: bool = False) -> Dict[str, object]:
    """Scores from ``[(gold token labels, predicted token labels), ...]`` (one pair per document)."""
    counts: Dict[str, List[int]] = {}  # label -> [tp_precision, n_pred, tp_recall, n_gold]
    untyped = [0, 0, 0, 0]
    for gold, pred in pairs:
        _tally(counts, untyped, gold, pred, 2, org_loc_interchangeable)  # recall: gold tokens found
        _tally(counts, untyped, pred, gold, 0, org_loc_interchangeable)  # precision: predicted tokens right
    totals = [sum(c[i] for c in counts.values()) for i in range(4)]
    return {
        "micro": _prf(*totals),
        "untyped": _prf(*untyped),
        "by_type": {label: _prf(*counts[label]) for label in sorted(counts)},
        "org_loc_interchangeable": org_loc_interchangeable,
    }


def predicted_spans(doc, source: str = "auto", spans_key: str = DEFAULT_SPANS_KEY) -> List[Labeled]:
    """Labeled spans of a processed Doc: ``doc.spans[spans_key]`` or OntoNotes ``doc.ents`` mapped to TAB."""
    if source == "auto":
        source = "spans" if spans_key in doc.spans else "ents"
    if source == "spans":
        return [(s.start_char, s.end_char, s.label_) for s in doc.spans.get(spans_key, [])]
    out = []
    for ent in doc.ents:
        label = ONTONOTES_TO_TAB.get(ent.label_, ent.label_)
        if label is not None:
            out.append((ent.start_char, ent.end_char, label))
    return out


def evaluate_ner(
    gold_docs: Sequence[GoldDocument],
    nlp,
    annotator: Optional[str] = None,
    source: str = "auto",
    spans_key: str = DEFAULT_SPANS_KEY,
    org_loc_interchangeable: bool = False,
    batch_size: int = 1,
    progress: Optional[Callable[[int], None]] = None,
    folds: int = 0,
    seed: int = 0,
) -> Dict[str, object]:
    """Run ``nlp`` on the gold texts (:func:`textanon.run.runner.pipe_docs`) and score its entities against one
    annotator's mentions; with ``folds`` also the scores of each fold of documents (:func:`fold_scores`)."""
    pairs = []
    records = (Record(id=g.doc_id, text=g.text) for g in gold_docs)
    for i, (g, doc) in enumerate(zip(gold_docs, pipe_docs(nlp, records, batch_size=batch_size))):
        ann = annotator if annotator is not None else next(iter(g.annotations), None)
        mentions = g.annotations.get(ann, []) if ann is not None else []
        gold = token_labels(g.text, [(m.start, m.end, m.entity_type) for m in mentions])
        pairs.append((gold, token_labels(g.text, predicted_spans(doc, source, spans_key))))
        if progress:
            progress(i + 1)
    result = score_tokens(pairs, org_loc_interchangeable)
    result["documents"] = len(pairs)
    result["macro_f1"] = macro_f1(result)
    if folds:
        result["folds"] = fold_scores([g.doc_id for g in gold_docs], pairs, folds, seed, org_loc_interchangeable)
    return result


def macro_f1(scores: Dict[str, object]) -> float:
    """Mean F1 over the types that have gold tokens (the issue's "macro": each TAB type weighs the same)."""
    f1s = [s["f1"] for s in scores["by_type"].values() if s["gold_tokens"]]
    return sum(f1s) / len(f1s) if f1s else 0.0


def fold_scores(
    doc_ids: Sequence[str], pairs: Sequence[Tuple[Dict, Dict]], k: int, seed: int = 0, org_loc: bool = False
) -> List[dict]:
    """Scores of each of ``k`` folds of documents (:func:`textanon.io.datasets.gold.folds`, the folds of ``cv-ner``):
    ``[{test, macro_f1, f1: {type: F1}}]``, to see how much the scores vary from one group of cases to another."""
    by_id = dict(zip(doc_ids, pairs))
    out = []
    for test in folds(list(doc_ids), k, seed):
        scores = score_tokens([by_id[d] for d in test], org_loc)
        f1 = {t: round(s["f1"], 4) for t, s in scores["by_type"].items() if s["gold_tokens"]}
        out.append({"test": test, "macro_f1": round(macro_f1(scores), 4), "f1": f1})
    return out


def evaluate_ner_model(
    gold_path,
    model: str,
    output,
    annotator: Optional[str] = None,
    source: str = "auto",
    spans_key: str = DEFAULT_SPANS_KEY,
    org_loc_interchangeable: bool = False,
    full: bool = False,
    limit: Optional[int] = None,
    folds: int = 0,
) -> Dict[str, object]:
    """``evaluate-ner``: :func:`evaluate_ner` of the pipeline ``model`` (recognition only: the components of
    :data:`DISABLE_FOR_NER` disabled unless ``full``) on the first ``limit`` documents of the TAB-format
    ``gold_path`` (``folds``: per-fold scores too), with the model, pipeline and seconds, written to ``output``
    (JSON with provenance)."""

    gold = load_tab(gold_path, require_identifiers=False)[:limit]
    nlp = spacy.load(model)
    disabled = [] if full else [p for p in DISABLE_FOR_NER if p in nlp.pipe_names]
    start = time.perf_counter()
    with nlp.select_pipes(disable=disabled):
        result = evaluate_ner(gold, nlp, annotator, source, spans_key, org_loc_interchangeable, folds=folds)
    result.update(
        {
            "model": model,
            "pipeline": [p for p in nlp.pipe_names if p not in disabled],
            "seconds": round(time.perf_counter() - start, 1),
        }
    )
    write_metrics(output, result)
    return result


__all__ = [
    "evaluate_ner",
    "evaluate_ner_model",
    "fold_scores",
    "macro_f1",
    "score_tokens",
    "token_labels",
    "predicted_spans",
    "DISABLE_FOR_NER",
]
