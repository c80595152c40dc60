"""Serializing anonymized Docs: JSONL output records and the TAB/TAE offset format."""
from typing import Dict, List, Sequence

from spacy.tokens import Doc

from .masking import merge


def covered(start: int, end: int, masks: Sequence[Sequence]) -> bool:
    """True if ``[start, end)`` lies entirely under the (merged, sorted) ``masks``."""
    pos = start
    for m_start, m_end, *_ in masks:
        if m_start > pos:
            break
        pos = max(pos, m_end)
        if pos >= end:
            return True
    return pos >= end


def doc_to_record(doc: Doc, doc_id: str, spans_key: str = "pii") -> dict:
    """Output record: id, anonymized text, every detected span with its decision, warnings.

    A span's ``masked`` is read from the masks actually applied (``doc._.masks``): true only if every
    character of the span is masked, whatever the optimizer decided."""
    masks = [list(m) for m in (doc._.masks or [])]
    applied = merge(tuple(m) for m in masks)
    spans = [
        {
            "start": s.start_char,
            "end": s.end_char,
            "label": s.label_,
            "entity_id": s._.entity_id,
            "ic": None if s._.ic is None else round(float(s._.ic), 4),
            "masked": covered(s.start_char, s.end_char, applied),
            "source": s._.source,
        }
        for s in doc.spans.get(spans_key, [])
    ]
    return {
        "id": doc_id,
        "anonymized_text": doc._.anonymized_text,
        "spans": spans,
        "risky_combinations": doc._.risky_combinations or [],
        "masks": masks,
        "warnings": doc._.anonymization_warnings or [],
    }


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
