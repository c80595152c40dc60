"""Span extensions of converted gold corpora (listed in docs/evaluation_tab.md).

spaCy keys span extension *values* by character offsets only, so two annotators' mentions of
the same span would overwrite each other. Gold attributes therefore live in
``doc.user_data[MENTIONS_KEY][span.id_]`` (``span.id_`` = ``"<annotator>/<mention index>"``, kept by
DocBin) and the extensions below are read-only getters over that table. The entity id is also
stored as ``span.kb_id_``.
"""

from typing import Dict, Optional

from spacy.tokens import Span

MENTIONS_KEY = "textanon_gold_mentions"
#: extension name -> description
GOLD_SPAN_EXTENSIONS = {
    "identifier_type": "DIRECT, QUASI or NO_MASK (TAB)",
    "gold_entity_id": "TAB entity_id (same as span.kb_id_)",
    "confidential_status": "TAB confidential_status (e.g. NOT_CONFIDENTIAL, BELIEF, HEALTH)",
    "mention_id": "TAB entity_mention_id",
    "edit_type": "TAB edit_type",
}
_FIELDS = {"gold_entity_id": "entity_id"}


def _getter(name: str):
    key = _FIELDS.get(name, name)

    def get(span: Span) -> Optional[str]:
        table = span.doc.user_data.get(MENTIONS_KEY) or {}
        return (table.get(span.id_) or {}).get(key)

    return get


def register_gold_extensions() -> None:
    """Register the getters once (idempotent)."""
    for name in GOLD_SPAN_EXTENSIONS:
        if not Span.has_extension(name):
            Span.set_extension(name, getter=_getter(name))


def set_gold_attributes(span: Span, attributes: Dict[str, Optional[str]]) -> None:
    """Store the gold attributes of ``span`` (which must have a unique ``span.id_``)."""
    span.doc.user_data.setdefault(MENTIONS_KEY, {})[span.id_] = dict(attributes)


register_gold_extensions()
