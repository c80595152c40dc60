"""WikiActors JSON and plain JSONL ``{id, text}`` -> spaCy Docs."""

import json
from pathlib import Path
from typing import List, Optional, Sequence

from spacy.tokens import Doc

from ..evaluation.alignment import masked_spans
from ..evaluation.tab_corpus import EvaluationError, Source, read_json
from .tokenize import exact_span, make_doc

ORIGINAL = "original_abstract"
SKIPPED = {"name", "public_knowledge", ORIGINAL, "dev_abstract"}


def wikiactors_to_docs(source: Source, columns: Optional[Sequence[str]] = None, nlp=None) -> List[Doc]:
    """One Doc per (record, column): the original abstract, masked spans in ``doc.spans["masked"]``.

    ``doc.user_data``: ``name``, ``column`` (``original_abstract`` for the unmasked original),
    ``method``. Records without an original abstract (background only) and empty columns are skipped.
    """
    data = read_json(source, "WikiActors file")
    if not isinstance(data, list):
        raise EvaluationError("WikiActors file: expected a JSON list of records")
    docs = []
    for i, rec in enumerate(data):
        if not isinstance(rec, dict) or "name" not in rec:
            raise EvaluationError(f"WikiActors record #{i}: missing field 'name'")
        original = rec.get(ORIGINAL)
        if not original:
            continue
        if not isinstance(original, str):
            raise EvaluationError(f"WikiActors record {rec['name']!r}: field {ORIGINAL!r} must be a string")
        names = [c for c in rec if c.endswith("_abstract") and c not in SKIPPED] if columns is None else columns
        for column in [ORIGINAL, *names]:
            anonymized = rec.get(column)
            if not anonymized:
                continue
            if not isinstance(anonymized, str):
                raise EvaluationError(f"WikiActors record {rec['name']!r}: field {column!r} must be a string")
            spans = [] if column == ORIGINAL else masked_spans(original, anonymized)
            doc = make_doc(original, spans, nlp)
            doc.spans["masked"] = [exact_span(doc, s, e, "MASKED") for s, e in spans]
            doc.user_data.update({"name": rec["name"], "column": column, "method": column[: -len("_abstract")]})
            docs.append(doc)
    return docs


def jsonl_to_docs(path, nlp=None) -> List[Doc]:
    """Plain JSONL, one ``{"id": ..., "text": ...}`` per line -> Docs (``doc.user_data["id"]``)."""
    docs, seen = [], set()
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as err:
                raise EvaluationError(f"{Path(path).name} line {n}: not valid JSON ({err})") from err
            if not isinstance(rec, dict) or "id" not in rec or "text" not in rec:
                raise EvaluationError(f"{Path(path).name} line {n}: expected an object with 'id' and 'text'")
            if not isinstance(rec["text"], str) or not rec["text"].strip():
                raise EvaluationError(f"{Path(path).name} line {n} (id {rec['id']!r}): field 'text' is empty")
            if rec["id"] in seen:
                raise EvaluationError(f"{Path(path).name} line {n}: duplicate id {rec['id']!r}")
            seen.add(rec["id"])
            doc = make_doc(rec["text"], (), nlp)
            doc.user_data["id"] = rec["id"]
            docs.append(doc)
    return docs


__all__ = ["wikiactors_to_docs", "jsonl_to_docs"]
