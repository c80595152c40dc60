"""Training Docs from human annotations: TAB-format JSON (or the echr-dev entity layer) -> ``doc.ents``.

One annotator's mentions become the entities (overlaps resolved longest-first), and each court case is
cut into paragraphs at newline tokens (never inside an entity) so that batches stay small. Documents
are kept apart by ``doc_id`` so that train/dev/test splits and cross-validation folds never share a case.
"""

import json
import random
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from textanon.io.datasets.docbin import write_docbin
from textanon.io.datasets.tab import GoldDocument, gold_to_ents_doc, load_tab
from textanon.labels import TAB_LABELS


def paragraphs(doc: Doc, min_tokens: int = 3) -> List[Doc]:
    """Cut ``doc`` at whitespace tokens holding a newline that lie outside every entity."""
    in_entity = set(i for ent in doc.ents for i in range(ent.start, ent.end))
    cuts = [t.i for t in doc if t.is_space and "\n" in t.text and t.i not in in_entity]
    out, start = [], 0
    for cut in cuts + [len(doc)]:
        piece = doc[start:cut]
        if sum(not t.is_space for t in piece) >= min_tokens:
            out.append(piece.as_doc())
        start = cut + 1
    return out


def gold_training_docs(
    nlp: Language, golds: Sequence[GoldDocument], annotator: Optional[str] = None
) -> Dict[str, List[Doc]]:
    """``{doc_id: [paragraph Docs with ents]}`` in input order."""
    return {g.doc_id: paragraphs(gold_to_ents_doc(nlp, g, annotator)) for g in golds}


def split_ids(doc_ids: Sequence[str], dev_share: float, seed: int = 0) -> Tuple[List[str], List[str]]:
    """Reproducible train/dev split of document ids (at least one dev document when there are two or more)."""
    ids = list(doc_ids)
    n_dev = max(1, int(round(len(ids) * dev_share))) if len(ids) > 1 and dev_share > 0 else 0
    dev = set(random.Random(seed).sample(ids, n_dev))
    return [i for i in ids if i not in dev], [i for i in ids if i in dev]


def folds(doc_ids: Sequence[str], k: int, seed: int = 0) -> List[List[str]]:
    """``k`` disjoint folds of document ids (shuffled once, dealt round-robin)."""
    if k < 2 or k > len(doc_ids):
        raise ValueError(f"need 2 <= folds <= {len(doc_ids)} documents, got {k}")
    ids = list(doc_ids)
    random.Random(seed).shuffle(ids)
    return [sorted(ids[i::k]) for i in range(k)]


def write_split(
    docs_by_id: Dict[str, List[Doc]], train_ids: Sequence[str], dev_ids: Sequence[str], folder: Path, prefix: str
) -> Dict[str, Path]:
    """``<prefix>-train.spacy`` and ``<prefix>-dev.spacy`` (the paragraphs of those ids) in ``folder``."""
    paths = {"train": folder / f"{prefix}-train.spacy", "dev": folder / f"{prefix}-dev.spacy"}
    for split, ids in (("train", train_ids), ("dev", dev_ids)):
        write_docbin((doc for i in ids for doc in docs_by_id[i]), paths[split], store_user_data=False)
    return paths


def label_counts(docs_by_id: Dict[str, List[Doc]], ids: Sequence[str]) -> Dict[str, int]:
    """Number of ``doc.ents`` per TAB label over the docs of ``ids``."""
    counts = {label: 0 for label in TAB_LABELS}
    for doc_id in ids:
        for doc in docs_by_id[doc_id]:
            for ent in doc.ents:
                counts[ent.label_] += 1
    return counts


def gold_corpus(
    inputs: Sequence[Path],
    output_dir: Path,
    dev_share: float,
    seed: int = 0,
    annotator: Optional[str] = None,
    prefix: str = "gold",
) -> Tuple[dict, Dict[str, Path]]:
    """``silver --input-format tab`` (and ``train-court``): the TAB-format ``inputs`` (``annotator``'s mentions,
    default each document's first) as ``<prefix>-train.spacy`` / ``<prefix>-dev.spacy`` split by document, and
    ``<prefix>-stats.json``, in ``output_dir``. Returns (stats, paths); bad input raises ValueError."""

    golds = [g for path in inputs for g in load_tab(path, require_identifiers=False)]
    docs_by_id = gold_training_docs(spacy.blank("en"), golds, annotator)
    train_ids, dev_ids = split_ids(list(docs_by_id), dev_share, seed)
    paths = write_split(docs_by_id, train_ids, dev_ids, output_dir, prefix)
    stats = {
        "documents": {"train": len(train_ids), "dev": len(dev_ids)},
        "paragraphs": {
            "train": sum(len(docs_by_id[i]) for i in train_ids),
            "dev": sum(len(docs_by_id[i]) for i in dev_ids),
        },
        "entities_by_label": {"train": label_counts(docs_by_id, train_ids), "dev": label_counts(docs_by_id, dev_ids)},
    }
    (output_dir / f"{prefix}-stats.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf8")
    return stats, paths


def gold_summary(stats: dict, paths: Dict[str, Path]) -> str:
    """One line on a corpus written by :func:`gold_corpus`."""
    return (
        f"Gold corpus: {stats['documents']} documents, {stats['paragraphs']} paragraphs -> "
        f"{paths['train']}, {paths['dev']}"
    )
