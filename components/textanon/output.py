"""Serializing anonymized Docs: JSONL output records and the TAB/TAE offset format."""
from typing import Dict, List

from spacy.tokens import Doc


def doc_to_record(doc: Doc, doc_id: str, spans_key: str = "pii") -> dict:
    """Output record: id, anonymized text, every detected span with its decision, warnings."""
    spans = [
        {
            "start": s.start_char,
            "end": s.end_char,
            "label": s.label_,
            "entity_id": s._.entity_id,
            "ic": None if s._.ic is None else round(float(s._.ic), 4),
            "masked": bool(s._.masked),
            "source": s._.source,
        }
        for s in doc.spans.get(spans_key, [])
    ]
    return {
        "id": doc_id,
        "anonymized_text": doc._.anonymized_text,
        "spans": spans,
        "risky_combinations": doc._.risky_combinations or [],
        "masks": doc._.masks or [],
        "warnings": doc._.anonymization_warnings or [],
    }


def masks_by_doc(records: List[dict]) -> Dict[str, List[list]]:
    """``{doc_id: [[start, end, replacement], ...]}`` from output records (error records skipped)."""
    return {r["id"]: r["masks"] for r in records if "error" not in r}
