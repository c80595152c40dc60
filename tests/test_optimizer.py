import pytest
import spacy
from spacy.tokens import Span

import textanon  # noqa: F401
from textanon.masking import apply, merge, propagate


def make_doc(text, mentions, combos, ics=None, target=None, **cfg):
    """Doc with hand-placed pii spans [(substring, label, entity_id)] in text order, then the optimizer."""
    nlp = spacy.blank("en")
    opt = nlp.add_pipe("textanon_optimizer", config=cfg)
    doc = nlp.make_doc(text)
    spans, pos = [], 0
    for i, (sub, label, eid) in enumerate(mentions):
        start = text.index(sub, pos)
        pos = start + len(sub)
        span = doc.char_span(start, pos, label=label)
        span._.entity_id = eid
        span._.ic = (ics or {}).get(eid, 5.0)
        spans.append(span)
    doc.spans["pii"] = spans
    doc._.risky_combinations = combos
    doc._.target = target
    return opt(doc)


def masked_ids(doc):
    return {s._.entity_id for s in doc.spans["pii"] if s._.masked}


def test_minimum_information_loss_breaks_every_combination():
    text = "He is a surgeon in Balti, born in 1961, a Catholic."
    mentions = [("surgeon", "DEM", "D1"), ("Balti", "LOC", "L1"), ("1961", "DATETIME", "T1"), ("Catholic", "DEM", "D2")]
    ics = {"D1": 4.0, "L1": 9.0, "T1": 3.0, "D2": 6.0}
    doc = make_doc(text, mentions, [["D1", "L1"], ["L1", "T1"], ["D2", "T1"]], ics)
    # options: {L1, T1} costs 12, {D1, T1} costs 7 -> cheapest cover
    assert masked_ids(doc) == {"D1", "T1"}
    assert doc._.anonymized_text == "He is a *** in Balti, born in ***, a Catholic."


def test_codes_and_full_person_names_always_masked_without_target():
    text = "Mr Andrei Petrescu (no. 48213/09) met Irina. Later Petrescu left."
    mentions = [("Mr Andrei Petrescu", "PERSON", "P1"), ("48213/09", "CODE", "C1"), ("Irina", "PERSON", "P2"),
                ("Petrescu", "PERSON", "P3")]
    doc = make_doc(text, mentions, [])
    assert masked_ids(doc) == {"P1", "C1", "P3"}  # P3 shares the surname of a masked full name
    assert "Petrescu" not in doc._.anonymized_text and "48213/09" not in doc._.anonymized_text


def test_target_only_masks_the_protected_person():
    text = "Andrei Petrescu met Ion Rusu."
    mentions = [("Andrei Petrescu", "PERSON", "P1"), ("Ion Rusu", "PERSON", "P2")]
    doc = make_doc(text, mentions, [], target="Andrei Petrescu")
    assert masked_ids(doc) == {"P1"}
    unknown = make_doc(text, mentions, [], target="Someone Else")
    assert masked_ids(unknown) == {"P1", "P2"}
    assert any("target not found" in w for w in unknown._.anonymization_warnings)


def test_replacement_styles_and_every_mention_masked():
    text = "Balti is far. Balti, again; BALTI."
    mentions = [("Balti", "LOC", "LOC_1"), ("Balti", "LOC", "LOC_1")]
    doc = make_doc(text, mentions, [["LOC_1"]], replacement="numbered")
    assert doc._.anonymized_text == "[LOC_1] is far. [LOC_1], again; [LOC_1]."
    doc = make_doc(text, mentions, [["LOC_1"]], replacement="label")
    assert doc._.anonymized_text.count("[LOC]") == 3


def test_solver_failure_fails_closed(monkeypatch):
    from ortools.sat.python import cp_model

    monkeypatch.setattr(cp_model.CpSolver, "Solve", lambda self, model: cp_model.UNKNOWN)
    text = "a surgeon in Balti born 1961"
    mentions = [("surgeon", "DEM", "D1"), ("Balti", "LOC", "L1"), ("1961", "DATETIME", "T1")]
    doc = make_doc(text, mentions, [["D1", "L1"], ["L1", "T1"]])
    assert masked_ids(doc) == {"D1", "L1", "T1"}
    assert any("solver status" in w for w in doc._.anonymization_warnings)


def test_llm_spans_are_must_mask():
    nlp = spacy.blank("en")
    opt = nlp.add_pipe("textanon_optimizer")
    doc = nlp.make_doc("a surgeon in Balti")
    span = doc.char_span(2, 9, label="DEM")
    span._.entity_id = "D1"
    doc.spans["pii"] = [span]
    doc.spans["llm_pii"] = [doc.char_span(2, 9, label="PII")]
    doc._.risky_combinations = []
    assert opt(doc)._.anonymized_text == "a *** in Balti"


def test_masking_helpers():
    assert merge([(5, 9, "b"), (0, 3, "a"), (2, 6, "c")]) == [(0, 9, "a")]
    text = "Ion  Rusu met ion rusu and Rusul."
    masks = propagate(text, [(0, 9, "***")], {"Ion Rusu": "***"})
    assert apply(text, masks) == "*** met *** and Rusul."
    with pytest.raises(ValueError):
        spacy.blank("en").add_pipe("textanon_optimizer", config={"replacement": "emoji"})
