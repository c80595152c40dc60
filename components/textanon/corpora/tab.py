"""TAB JSON / entity layers <-> spaCy Docs (one SpanGroup per annotator, or ``"gold"``)."""

from typing import Dict, Iterable, List, Optional

from spacy.tokens import Doc

from ..evaluation.tab_corpus import GoldDocument, Mention, Source, load_tab
from .extensions import MENTIONS_KEY, set_gold_attributes
from .tokenize import exact_span, make_doc

META_KEY = "tab_meta"
DOC_ID_KEY = "doc_id"
ATTRIBUTES = ("identifier_type", "entity_id", "confidential_status", "mention_id", "edit_type", "span_text")


def gold_to_doc(gold: GoldDocument, spans_key: Optional[str] = None, nlp=None) -> Doc:
    """A Doc with ``doc.spans[annotator]`` per annotator (or all in ``doc.spans[spans_key]``)."""
    offsets = [(m.start, m.end) for ms in gold.annotations.values() for m in ms]
    doc = make_doc(gold.text, offsets, nlp)
    doc.user_data[DOC_ID_KEY] = gold.doc_id
    doc.user_data[META_KEY] = dict(gold.meta)
    doc.user_data["annotators"] = list(gold.annotations)
    doc.user_data[MENTIONS_KEY] = {}
    for annotator, mentions in gold.annotations.items():
        group = []
        for i, m in enumerate(mentions):
            span_id = f"{annotator}/{i}"
            span = exact_span(doc, m.start, m.end, m.entity_type, span_id, m.entity_id or "")
            set_gold_attributes(span, {a: getattr(m, a) for a in ATTRIBUTES})
            group.append(span)
        doc.spans[spans_key or annotator] = group
    return doc


def doc_to_gold(doc: Doc, keys: Optional[Iterable[str]] = None) -> GoldDocument:
    """Inverse of :func:`gold_to_doc` (mentions in span-group order)."""
    table: Dict[str, dict] = doc.user_data.get(MENTIONS_KEY) or {}
    keys = list(keys) if keys is not None else list(doc.user_data.get("annotators") or doc.spans.keys())
    annotations: Dict[str, List[Mention]] = {}
    for key in keys:
        mentions = []
        for span in doc.spans.get(key, []):
            attrs = table.get(span.id_) or {}
            mentions.append(
                Mention(
                    span.start_char,
                    span.end_char,
                    span.label_,
                    attrs.get("entity_id"),
                    attrs.get("identifier_type"),
                    attrs.get("mention_id"),
                    attrs.get("span_text"),
                    attrs.get("edit_type"),
                    attrs.get("confidential_status"),
                )
            )
        annotations[key] = mentions
    return GoldDocument(
        str(doc.user_data.get(DOC_ID_KEY, "")), doc.text, annotations, dict(doc.user_data.get(META_KEY) or {})
    )


def gold_to_json(gold: GoldDocument) -> dict:
    """TAB JSON object of a document (``None`` fields left out)."""
    out = {"doc_id": gold.doc_id, "text": gold.text, **gold.meta, "annotations": {}}
    for annotator, mentions in gold.annotations.items():
        rows = []
        for m in mentions:
            row = {
                "entity_type": m.entity_type,
                "entity_mention_id": m.mention_id,
                "start_offset": m.start,
                "end_offset": m.end,
                "span_text": m.span_text,
                "edit_type": m.edit_type,
                "identifier_type": m.identifier_type,
                "entity_id": m.entity_id,
                "confidential_status": m.confidential_status,
            }
            rows.append({k: v for k, v in row.items() if v is not None})
        out["annotations"][annotator] = {"entity_mentions": rows}
    return out


def tab_to_docs(source: Source, nlp=None) -> List[Doc]:
    """TAB JSON (with identifier types) -> Docs, one SpanGroup per annotator."""
    return [gold_to_doc(g, None, nlp) for g in load_tab(source, require_identifiers=True)]


def entity_layer_to_docs(source: Source, nlp=None, spans_key: str = "gold") -> List[Doc]:
    """echr-dev style entity layer (first annotator only) -> Docs with ``doc.spans[spans_key]``."""
    docs = []
    for g in load_tab(source, require_identifiers=False):
        first = next(iter(g.annotations), None)
        layer = GoldDocument(g.doc_id, g.text, {first: g.annotations[first]} if first else {}, g.meta)
        doc = gold_to_doc(layer, spans_key, nlp)
        doc.user_data["annotators"] = [spans_key]
        docs.append(doc)
    return docs


__all__ = ["gold_to_doc", "doc_to_gold", "gold_to_json", "tab_to_docs", "entity_layer_to_docs"]
