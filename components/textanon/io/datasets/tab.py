"""The TAB format (Text Anonymization Benchmark, ECHR court cases): the one place where it is read.

A TAB file is a JSON list of ``{doc_id, text, annotations: {annotator: {entity_mentions: [...]}}}``; each
mention has ``entity_type``, ``start_offset``, ``end_offset`` and, for masking evaluation, ``entity_id`` and
``identifier_type`` (DIRECT / QUASI / NO_MASK). Optional: ``entity_mention_id``, ``span_text``,
``edit_type``, ``confidential_status``; other document keys (``dataset_type``, ``task``, ``meta``, ...) are
kept in :attr:`GoldDocument.meta`. An entity layer (e.g. echr-dev) is the same format without identifier
types (``require_identifiers=False``).

* :func:`load_tab` validates a file into :class:`GoldDocument` s; every problem raises
  :class:`~textanon.io.datasets.base.DatasetError` naming the document, annotator, mention and field.
* :func:`gold_to_doc` / :func:`doc_to_gold` / :func:`gold_to_json`: exact round trip through a Doc with one
  SpanGroup per annotator (``convert --format tab|echr``).
* :func:`gold_to_ents_doc`: one annotator's mentions as ``doc.ents`` (training the entity model).
"""

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import filter_spans

from textanon.io.datasets.base import DatasetError, Source, integer, read_json
from textanon.io.datasets.gold_extensions import MENTIONS_KEY, set_gold_attributes
from textanon.io.datasets.tokenize import exact_span, make_doc
from textanon.labels import TAB_LABELS

IDENTIFIER_TYPES = ("DIRECT", "QUASI", "NO_MASK")
META_KEY = "tab_meta"
DOC_ID_KEY = "doc_id"
ATTRIBUTES = ("identifier_type", "entity_id", "confidential_status", "mention_id", "edit_type", "span_text")


@dataclass
class Mention:
    """One annotated entity mention (character offsets into the document text)."""

    start: int
    end: int
    entity_type: str
    entity_id: Optional[str] = None
    identifier_type: Optional[str] = None
    mention_id: Optional[str] = None
    span_text: Optional[str] = None
    edit_type: Optional[str] = None
    confidential_status: Optional[str] = None


@dataclass
class GoldDocument:
    """One TAB document: text and every annotator's mentions."""

    doc_id: str
    text: str
    annotations: Dict[str, List[Mention]]  # annotator -> mentions, in file order
    meta: Dict[str, object] = field(default_factory=dict)

    def layer(self, annotator: Optional[str] = None) -> Tuple[Optional[str], List[Mention]]:
        """``(annotator, mentions)`` of ``annotator``, by default the first one (``(None, [])`` without any)."""
        name = annotator if annotator is not None else next(iter(self.annotations), None)
        if name is not None and name not in self.annotations:
            raise DatasetError(f"document {self.doc_id!r} has no annotator {name!r} (has {sorted(self.annotations)})")
        return name, self.annotations.get(name, []) if name is not None else []


# ---------------------------------------------------------------------------- reading


def _mention(raw, text: str, where: str, require_identifiers: bool) -> Mention:
    if not isinstance(raw, dict):
        raise DatasetError(f"{where}: a mention must be an object")
    required = ["start_offset", "end_offset", "entity_type"]
    if require_identifiers:
        required += ["entity_id", "identifier_type"]
    for key in required:
        if key not in raw or raw[key] is None:
            raise DatasetError(f"{where}: missing field {key!r}")
    start = integer(raw["start_offset"], where, "start_offset")
    end = integer(raw["end_offset"], where, "end_offset")
    if start < 0 or end > len(text) or start >= end:
        raise DatasetError(f"{where}: invalid offsets [{start}, {end}] (text has {len(text)} characters)")
    ident = raw.get("identifier_type")
    if ident is not None and ident not in IDENTIFIER_TYPES:
        raise DatasetError(
            f"{where}: field 'identifier_type' is {ident!r}, expected one of {', '.join(IDENTIFIER_TYPES)}"
        )
    opt = {k: (None if raw.get(k) is None else str(raw[k])) for k in ("entity_id", "entity_mention_id")}
    return Mention(
        start,
        end,
        str(raw["entity_type"]),
        opt["entity_id"],
        ident,
        opt["entity_mention_id"],
        raw.get("span_text"),
        raw.get("edit_type"),
        raw.get("confidential_status"),
    )


def parse_document(raw, index: int, require_identifiers: bool = True) -> GoldDocument:
    """One validated :class:`GoldDocument` from a TAB JSON object."""
    if not isinstance(raw, dict):
        raise DatasetError(f"document #{index}: must be an object")
    for key in ("doc_id", "text", "annotations"):
        if key not in raw:
            name = f"document {raw['doc_id']!r}" if "doc_id" in raw else f"document #{index}"
            raise DatasetError(f"{name}: missing field {key!r}")
    doc_id, text, annotations = str(raw["doc_id"]), raw["text"], raw["annotations"]
    if not isinstance(text, str) or not text.strip():
        raise DatasetError(f"document {doc_id!r}: field 'text' is empty or not a string")
    if not isinstance(annotations, dict):
        raise DatasetError(f"document {doc_id!r}: field 'annotations' must map annotators to objects")
    parsed: Dict[str, List[Mention]] = {}
    for annotator, layer in annotations.items():
        where = f"document {doc_id!r}, annotator {annotator!r}"
        if not isinstance(layer, dict) or "entity_mentions" not in layer:
            raise DatasetError(f"{where}: missing field 'entity_mentions'")
        if not isinstance(layer["entity_mentions"], list):
            raise DatasetError(f"{where}: field 'entity_mentions' must be a list")
        parsed[str(annotator)] = [
            _mention(m, text, f"{where}, mention #{i}", require_identifiers)
            for i, m in enumerate(layer["entity_mentions"])
        ]
    meta = {k: v for k, v in raw.items() if k not in ("doc_id", "text", "annotations")}
    return GoldDocument(doc_id, text, parsed, meta)


def load_tab(source: Source, require_identifiers: bool = True) -> List[GoldDocument]:
    """Validated documents of a TAB JSON file (``require_identifiers=False`` for entity layers)."""
    data = read_json(source, "gold corpus")
    if not isinstance(data, list):
        raise DatasetError("gold corpus: expected a JSON list of documents")
    if not data:
        raise DatasetError("gold corpus: no documents")
    docs = [parse_document(raw, i, require_identifiers) for i, raw in enumerate(data)]
    seen = set()
    for doc in docs:
        if doc.doc_id in seen:
            raise DatasetError(f"document {doc.doc_id!r}: duplicate doc_id")
        seen.add(doc.doc_id)
    return docs


# ---------------------------------------------------------------------------- Docs with one SpanGroup per annotator


def gold_to_doc(gold: GoldDocument, spans_key: Optional[str] = None, nlp: Optional[Language] = None) -> Doc:
    """A Doc with ``doc.spans[annotator]`` per annotator (or all in ``doc.spans[spans_key]``), exact offsets."""
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


def tab_to_docs(source: Source, nlp: Optional[Language] = None) -> List[Doc]:
    """TAB JSON (with identifier types) -> Docs, one SpanGroup per annotator."""
    return [gold_to_doc(g, None, nlp) for g in load_tab(source, require_identifiers=True)]


def entity_layer_to_docs(source: Source, nlp: Optional[Language] = None, spans_key: str = "gold") -> List[Doc]:
    """echr-dev style entity layer (first annotator only) -> Docs with ``doc.spans[spans_key]``."""
    docs = []
    for g in load_tab(source, require_identifiers=False):
        first, mentions = g.layer()
        layer = GoldDocument(g.doc_id, g.text, {first: mentions} if first else {}, g.meta)
        doc = gold_to_doc(layer, spans_key, nlp)
        doc.user_data["annotators"] = [spans_key]
        docs.append(doc)
    return docs


# ---------------------------------------------------------------------------- Docs with doc.ents (training)


def gold_to_ents_doc(nlp: Language, gold: GoldDocument, annotator: Optional[str] = None) -> Doc:
    """The whole case as one Doc (``nlp``'s tokenizer) with one annotator's mentions as ``doc.ents``.

    annotator: by default each document's first. Mentions are expanded to token boundaries and overlaps
    resolved longest-first; a label outside the 8 TAB types is an error.
    """
    _, mentions = gold.layer(annotator)
    doc = nlp.make_doc(gold.text)
    spans = []
    for m in mentions:
        if m.entity_type not in TAB_LABELS:
            raise DatasetError(
                f"document {gold.doc_id!r}: mention {m.start}-{m.end} has label {m.entity_type!r}, "
                f"not one of the 8 TAB types"
            )
        span = doc.char_span(m.start, m.end, label=m.entity_type, alignment_mode="expand")
        if span is not None and len(span):
            spans.append(span)
    doc.ents = filter_spans(spans)
    return doc


__all__ = [
    "IDENTIFIER_TYPES",
    "Mention",
    "GoldDocument",
    "parse_document",
    "load_tab",
    "gold_to_doc",
    "doc_to_gold",
    "gold_to_json",
    "tab_to_docs",
    "entity_layer_to_docs",
    "gold_to_ents_doc",
]
