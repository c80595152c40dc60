"""Doc and Span extension attributes set by textanon components (documented in README.md)."""

from typing import List

from spacy.tokens import Doc, Span

#: ``doc.spans`` key of the detected entities: written by the recognizer, read by the linker, the risk
#: scorer, the optimizer and the output (every component's ``spans_key`` setting defaults to it)
DEFAULT_SPANS_KEY = "pii"
#: ``doc.spans`` key of the LLM anonymizer's spans (must-mask for the optimizer: ``extra_spans_keys``)
LLM_SPANS_KEY = "llm_pii"
#: ``doc.spans`` key of the spans an allow list removed (``textanon_allow_deny``; read by the output)
ALLOWED_KEY = "allowed"

#: name -> (object class, default, description); the README table mirrors this.
EXTENSIONS = {
    # Span attributes (spans of doc.spans[DEFAULT_SPANS_KEY] and friends)
    "source": (Span, None, "detector that produced the span: ner, gazetteer, rule, llm, model, target"),
    "entity_id": (Span, None, "id shared by all mentions of one entity (entity linker)"),
    "ic": (Span, None, "information content -log p(span | context) in nats (LM risk scorer); None = unscored"),
    "masked": (Span, None, "True if the applied masks cover this whole mention"),
    "risk_reasons": (Span, None, "why the search risk made this mention's entity a risk (counts and ids, no text)"),
    "generalizations": (
        Span,
        None,
        "the entity's generalization candidates [{text, level, kind, ic}], level 1 first (textanon_generalizer)",
    ),
    "operator": (
        Span,
        None,
        "the operator that wrote this masked mention (replace, mask, hash...); None without an operators setting",
    ),
    "treatment": (Span, None, "the optimizer's choice for this mention's entity: keep, generalize:LEVEL or suppress"),
    # Doc attributes
    "target": (Doc, None, "name of the person to protect, if known"),
    "risky_combinations": (Doc, None, "list of lists of entity ids: each list must not stay fully unmasked"),
    "anonymized_text": (Doc, None, "the text with masked spans replaced"),
    "anonymization_warnings": (Doc, None, "list of failures/fallbacks (fail-closed decisions), never raw text"),
    "masks": (Doc, None, "list of [start_char, end_char, replacement] applied to produce anonymized_text"),
    "generalization_risk": (
        Doc,
        None,
        "the index's rule for generalizations: {breaks: [[combination, {entity: [levels]} or None]], forbidden}",
    ),
    "reid_rank": (Doc, None, "the target's BM25 rank in the search index before/after masking (search risk)"),
    "whole_units": (
        Doc,
        None,
        "what the optimizer's whole_units did: {extended: units masked whole, suppressed: generalized entities "
        "suppressed beside a suppressed part of their unit, joined: placeholders joined to the one before}",
    ),
}


def register_extensions() -> None:
    """Register every textanon extension once (idempotent)."""
    for name, (cls, default, _doc) in EXTENSIONS.items():
        if not cls.has_extension(name):
            cls.set_extension(name, default=default)


def add_warning(doc: Doc, message: str) -> None:
    """Append a warning to ``doc._.anonymization_warnings`` (creating the list)."""
    warnings: List[str] = doc._.anonymization_warnings or []
    warnings.append(message)
    doc._.anonymization_warnings = warnings


register_extensions()
