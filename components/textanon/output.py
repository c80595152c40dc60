"""Serializing anonymized Docs: JSONL output records and the TAB/TAE offset format."""

import json
from pathlib import Path
from typing import Dict, Iterator, List, Union

from spacy.tokens import Doc

from .allow_deny import ALLOWED_KEY
from .masking import covered, merge


def doc_to_record(doc: Doc, doc_id: str, spans_key: str = "pii") -> dict:
    """Output record: id, anonymized text, every detected span with its decision, warnings.

    A span's ``masked`` is read from the masks actually applied (``doc._.masks``): true only if every
    character of the span is masked, whatever the optimizer decided."""
    masks = [list(m) for m in (doc._.masks or [])]
    applied = merge(masks)
    spans = [
        {
            "start": s.start_char,
            "end": s.end_char,
            "label": s.label_,
            "entity_id": s._.entity_id,
            "ic": None if s._.ic is None else round(float(s._.ic), 4),
            "masked": covered(applied, s.start_char, s.end_char),
            "source": s._.source,
        }
        for s in doc.spans.get(spans_key, [])
    ]
    for span, out in zip(doc.spans.get(spans_key, []), spans):
        if span._.risk_reasons is not None:  # the search risk's (absent otherwise: default output unchanged)
            out["risk_reasons"] = list(span._.risk_reasons)
    record = {
        "id": doc_id,
        "anonymized_text": doc._.anonymized_text,
        "spans": spans,
        "risky_combinations": doc._.risky_combinations or [],
        "masks": masks,
        "warnings": doc._.anonymization_warnings or [],
    }
    if doc._.reid_rank is not None:
        record["reid_rank"] = doc._.reid_rank
    if doc.spans.get(ALLOWED_KEY):  # spans an allow list removed (absent otherwise: default output unchanged)
        record["allowed"] = [
            {"start": s.start_char, "end": s.end_char, "label": s.label_, "source": s._.source}
            for s in doc.spans[ALLOWED_KEY]
        ]
    return record


def masks_by_doc(records: List[dict]) -> Dict[str, List[list]]:
    """``{doc_id: [[start, end, replacement], ...]}`` from output records (error records skipped).

    Raises ValueError on a repeated id rather than silently keeping one record's masks."""
    out: Dict[str, List[list]] = {}
    for r in records:
        if "error" in r:
            continue
        if r["id"] in out:
            raise ValueError(f"duplicate id {r['id']!r}: masks would be lost")
        out[r["id"]] = r["masks"]
    return out


def read_output(path: Union[str, Path]) -> Iterator[dict]:
    """The records of an ``anonymize`` output file (JSONL); a line that is not a JSON object is an error record."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = None
            if not isinstance(record, dict):
                record = {"id": f"line{n}", "error": f"output line {n} is not a JSON object"}
            yield record
