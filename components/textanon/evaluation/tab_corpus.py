"""Readers and writers for TAB-format gold corpora and offset-form masks, with validation.

* Gold (TAB JSON): a list of ``{doc_id, text, annotations: {annotator: {entity_mentions: [...]}}}``;
  each mention has ``entity_type``, ``start_offset``, ``end_offset`` and, for masking
  evaluation, ``entity_id`` and ``identifier_type`` (DIRECT / QUASI / NO_MASK). Optional:
  ``entity_mention_id``, ``span_text``, ``edit_type``, ``confidential_status``; other document
  keys (``dataset_type``, ``task``, ``meta``, ...) are kept in :attr:`GoldDocument.meta`.
* Masks: ``{doc_id: [[start, end], ...]}`` or ``{doc_id: [[start, end, replacement], ...]}``.

Every problem raises :class:`EvaluationError` naming the document, annotator, mention and field.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from .errors import EvaluationError

IDENTIFIER_TYPES = ("DIRECT", "QUASI", "NO_MASK")
Mask = Tuple[int, int, Optional[str]]
Source = Union[str, Path, list, dict]


@dataclass
class Mention:
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
    doc_id: str
    text: str
    annotations: Dict[str, List[Mention]]  # annotator -> mentions, in file order
    meta: Dict[str, object] = field(default_factory=dict)


def read_json(source: Source, what: str = "input"):
    """Parsed JSON from a path (or the object itself)."""
    if isinstance(source, (list, dict)):
        return source
    try:
        return json.loads(Path(source).read_text(encoding="utf-8"))
    except OSError as err:
        raise EvaluationError(f"{what} {source}: cannot read ({err.strerror})") from err
    except ValueError as err:
        raise EvaluationError(f"{what} {source}: not valid JSON ({err})") from err


def _int(value, where: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EvaluationError(f"{where}: field {name!r} must be an integer, got {type(value).__name__}")
    return value


def _mention(raw, text: str, where: str, require_identifiers: bool) -> Mention:
    if not isinstance(raw, dict):
        raise EvaluationError(f"{where}: a mention must be an object")
    required = ["start_offset", "end_offset", "entity_type"]
    if require_identifiers:
        required += ["entity_id", "identifier_type"]
    for key in required:
        if key not in raw or raw[key] is None:
            raise EvaluationError(f"{where}: missing field {key!r}")
    start = _int(raw["start_offset"], where, "start_offset")
    end = _int(raw["end_offset"], where, "end_offset")
    if start < 0 or end > len(text) or start >= end:
        raise EvaluationError(f"{where}: invalid offsets [{start}, {end}] (text has {len(text)} characters)")
    ident = raw.get("identifier_type")
    if ident is not None and ident not in IDENTIFIER_TYPES:
        raise EvaluationError(
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
        raise EvaluationError(f"document #{index}: must be an object")
    for key in ("doc_id", "text", "annotations"):
        if key not in raw:
            name = f"document {raw['doc_id']!r}" if "doc_id" in raw else f"document #{index}"
            raise EvaluationError(f"{name}: missing field {key!r}")
    doc_id, text, annotations = str(raw["doc_id"]), raw["text"], raw["annotations"]
    if not isinstance(text, str) or not text.strip():
        raise EvaluationError(f"document {doc_id!r}: field 'text' is empty or not a string")
    if not isinstance(annotations, dict):
        raise EvaluationError(f"document {doc_id!r}: field 'annotations' must map annotators to objects")
    parsed: Dict[str, List[Mention]] = {}
    for annotator, layer in annotations.items():
        where = f"document {doc_id!r}, annotator {annotator!r}"
        if not isinstance(layer, dict) or "entity_mentions" not in layer:
            raise EvaluationError(f"{where}: missing field 'entity_mentions'")
        if not isinstance(layer["entity_mentions"], list):
            raise EvaluationError(f"{where}: field 'entity_mentions' must be a list")
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
        raise EvaluationError("gold corpus: expected a JSON list of documents")
    if not data:
        raise EvaluationError("gold corpus: no documents")
    docs = [parse_document(raw, i, require_identifiers) for i, raw in enumerate(data)]
    seen = set()
    for doc in docs:
        if doc.doc_id in seen:
            raise EvaluationError(f"document {doc.doc_id!r}: duplicate doc_id")
        seen.add(doc.doc_id)
    return docs


def load_masks(source: Source, gold: Optional[Dict[str, str]] = None) -> Dict[str, List[Mask]]:
    """Masked spans by document, validated (against ``gold``: doc_id -> text, if given).

    Spans must satisfy ``0 <= start < end <= len(text)``; their order is kept. Overlapping spans are kept
    as given, as the official TAB script scores them (recall on the union of masked characters; precision
    over each span's tokens, so a token inside two spans counts twice): :func:`overlapping_pairs` counts them
    so that callers can warn.
    """
    data = read_json(source, "masks")
    if not isinstance(data, dict):
        raise EvaluationError("masks: expected a JSON object {doc_id: [[start, end(, replacement)], ...]}")
    masks: Dict[str, List[Mask]] = {}
    for doc_id, spans in data.items():
        where = f"masks of document {doc_id!r}"
        if gold is not None and doc_id not in gold:
            raise EvaluationError(f"{where}: unknown doc_id (not in the gold corpus)")
        if not isinstance(spans, list):
            raise EvaluationError(f"{where}: expected a list of [start, end] or [start, end, replacement]")
        out: List[Mask] = []
        for i, item in enumerate(spans):
            if not isinstance(item, (list, tuple)) or len(item) not in (2, 3):
                raise EvaluationError(f"{where}, span #{i}: expected [start, end] or [start, end, replacement]")
            start, end = _int(item[0], f"{where}, span #{i}", "start"), _int(item[1], f"{where}, span #{i}", "end")
            repl = item[2] if len(item) == 3 else None
            if repl is not None and not isinstance(repl, str):
                raise EvaluationError(f"{where}, span #{i}: replacement must be a string or null")
            if start < 0 or start >= end:
                raise EvaluationError(f"{where}, span #{i}: reversed or empty span [{start}, {end}]")
            if gold is not None and end > len(gold[doc_id]):
                raise EvaluationError(
                    f"{where}, span #{i}: [{start}, {end}] outside the text ({len(gold[doc_id])} characters)"
                )
            out.append((start, end, repl))
        masks[str(doc_id)] = out
    return masks


def overlapping_pairs(spans: Sequence[Sequence]) -> int:
    """Number of spans that overlap an earlier one (sorted by start): 0 for disjoint masks."""
    count, reach = 0, -1
    for item in sorted((int(m[0]), int(m[1])) for m in spans):
        if item[0] < reach:
            count += 1
        reach = max(reach, item[1])
    return count


def write_masks(path: Union[str, Path], masks: Dict[str, Sequence[Sequence]], replacements: bool = True) -> None:
    """Write offset-form masks; ``replacements=False`` drops the third element."""
    out = {}
    for doc_id, spans in masks.items():
        rows = []
        for item in spans:
            start, end = int(item[0]), int(item[1])
            repl = item[2] if len(item) > 2 else None
            rows.append([start, end, repl] if replacements else [start, end])
        out[str(doc_id)] = rows
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


__all__ = [
    "EvaluationError",
    "GoldDocument",
    "Mention",
    "IDENTIFIER_TYPES",
    "load_tab",
    "load_masks",
    "write_masks",
    "parse_document",
    "read_json",
    "overlapping_pairs",
]
