"""Shared helpers for the core pipeline tests."""

from pathlib import Path

import spacy
from spacy.language import Language

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
CONFIG = ROOT / "configs" / "textanon.cfg"
SAMPLE = ROOT / "assets" / "samples" / "court_case.txt"
SMALL_GAZETTEER = [
    {"term": "veterinary surgeon", "label": "DEM"},
    {"term": "surgeon", "label": "DEM"},
    {"term": "lawyer", "label": "DEM"},
    {"term": "primary-school teacher", "label": "DEM"},
    {"term": "tuberculosis", "label": "MISC"},
    {"term": "embezzlement", "label": "MISC"},
]


def blank_with_recognizer(gazetteer=SMALL_GAZETTEER, **cfg):
    """A blank English pipeline with only the entity recognizer (rules + ``gazetteer``, unless None)."""
    import textanon  # noqa: F401

    nlp = spacy.blank("en")
    recognizer = nlp.add_pipe("textanon_entity_recognizer", config={"use_ner": False, **cfg})
    if gazetteer is not None:
        recognizer.set_gazetteer(gazetteer)
    return nlp


def decision_pipeline(*inserted, gazetteer=None, risk=("test_every_entity_risky", {}), **optimizer):
    """A whole pipeline without NER: recognizer (rules + ``gazetteer``), the ``inserted`` components
    ``(factory, config)``, linker, the ``risk`` component ``(factory, config)`` (None: none) and the optimizer
    with the settings ``optimizer``. The default risk, every entity risky, masks everything detected."""
    nlp = blank_with_recognizer(gazetteer)
    for factory, config in inserted:
        nlp.add_pipe(factory, config=config)
    nlp.add_pipe("textanon_entity_linker")
    if risk is not None:
        nlp.add_pipe(risk[0], config=risk[1])
    nlp.add_pipe("textanon_optimizer", config=optimizer)
    return nlp


def spans_at(doc, mentions):
    """Spans of ``doc`` over ``mentions`` = ``[(substring, label)]`` in text order, each found after the one before."""
    spans, pos = [], 0
    for sub, label in mentions:
        start = doc.text.index(sub, pos)
        pos = start + len(sub)
        spans.append(doc.char_span(start, pos, label=label))
    return spans


def entity_spans(doc, mentions):
    """Spans of ``doc`` over ``mentions`` = ``[(substring, label, entity_id)]`` in text order (as :func:`spans_at`),
    each with its entity id."""
    spans = spans_at(doc, [(sub, label) for sub, label, _ in mentions])
    for span, (_, _, eid) in zip(spans, mentions):
        span._.entity_id = eid
    return spans


def masked_ids(doc):
    """The entity ids of the masked pii spans of ``doc``."""
    return {s._.entity_id for s in doc.spans["pii"] if s._.masked}


@Language.component("test_every_entity_risky")
def every_entity_risky(doc):
    """Every entity is risky on its own (in place of the language-model risk): the optimizer masks everything
    detected, so that what a setting removes or adds shows in the anonymized text."""
    doc._.risky_combinations = [[eid] for eid in sorted({s._.entity_id for s in doc.spans["pii"]})]
    return doc


def linked_spans(text, mentions):
    """The linker run on hand-placed spans (mentions = [(substring, label)] in text order): the spans, linked."""
    nlp = spacy.blank("en")
    linker = nlp.add_pipe("textanon_entity_linker")
    doc = nlp.make_doc(text)
    doc.spans["pii"] = spans_at(doc, mentions)
    return list(linker(doc).spans["pii"])
