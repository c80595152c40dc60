"""Training Docs from human annotations: TAB-format JSON (or the echr-dev entity layer) -> ``doc.ents``.

One annotator's mentions become the entities (overlaps resolved longest-first), and each court case is
cut into paragraphs at newline tokens (never inside an entity) so that batches stay small. Documents
are kept apart by ``doc_id`` so that train/dev/test splits and cross-validation folds never share a case.
"""
import random
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.util import filter_spans

from ..evaluation.tab_corpus import GoldDocument
from ..labels import TAB_LABELS


def gold_doc(nlp: Language, gold: GoldDocument, annotator: Optional[str] = None) -> Doc:
    """The whole case as one Doc with the annotator's mentions as ``doc.ents``."""
    ann = annotator if annotator is not None else next(iter(gold.annotations), None)
    if ann is not None and ann not in gold.annotations:
        raise ValueError(f"document {gold.doc_id!r} has no annotator {ann!r} (has {sorted(gold.annotations)})")
    doc = nlp.make_doc(gold.text)
    spans = []
    for m in gold.annotations.get(ann, []) if ann is not None else []:
        if m.entity_type not in TAB_LABELS:
            raise ValueError(f"document {gold.doc_id!r}: mention {m.start}-{m.end} has label {m.entity_type!r}, "
                             f"not one of the 8 TAB types")
        span = doc.char_span(m.start, m.end, label=m.entity_type, alignment_mode="expand")
        if span is not None and len(span):
            spans.append(span)
    doc.ents = filter_spans(spans)
    return doc


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


def gold_training_docs(nlp: Language, golds: Sequence[GoldDocument], annotator: Optional[str] = None
                       ) -> Dict[str, List[Doc]]:
    """``{doc_id: [paragraph Docs with ents]}`` in input order."""
    return {g.doc_id: paragraphs(gold_doc(nlp, g, annotator)) for g in golds}


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


def docbin(docs_by_id: Dict[str, List[Doc]], ids: Sequence[str]) -> DocBin:
    """A DocBin with the paragraphs of ``ids``."""
    out = DocBin(store_user_data=False)
    for doc_id in ids:
        for doc in docs_by_id[doc_id]:
            out.add(doc)
    return out


def write_split(docs_by_id: Dict[str, List[Doc]], train_ids: Sequence[str], dev_ids: Sequence[str], folder: Path,
                prefix: str) -> Dict[str, Path]:
    """``<prefix>-train.spacy`` and ``<prefix>-dev.spacy`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"train": folder / f"{prefix}-train.spacy", "dev": folder / f"{prefix}-dev.spacy"}
    docbin(docs_by_id, train_ids).to_disk(paths["train"])
    docbin(docs_by_id, dev_ids).to_disk(paths["dev"])
    return paths


def label_counts(docs_by_id: Dict[str, List[Doc]], ids: Sequence[str]) -> Dict[str, int]:
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
    import json

    import spacy

    from ..evaluation.tab_corpus import load_tab

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
