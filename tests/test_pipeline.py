"""The assembled pipeline end to end on a fictional court case (offline default model)."""
import re

import pytest
import spacy

from core_fixtures import CONFIG, SAMPLE, SMALL_GAZETTEER

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def nlp(tmp_path_factory):
    import srsly

    from textanon.pipeline import assemble

    gaz = tmp_path_factory.mktemp("gaz") / "gazetteer.jsonl"
    srsly.write_jsonl(gaz, SMALL_GAZETTEER)
    return assemble(CONFIG, gaz)


@pytest.fixture(scope="module")
def court_doc(nlp):
    return nlp(SAMPLE.read_text(encoding="utf-8"))


def test_extensions_are_populated(court_doc):
    spans = list(court_doc.spans["pii"])
    assert spans
    assert all(s._.entity_id and s._.source and s._.ic is not None and s._.masked is not None for s in spans)
    assert isinstance(court_doc._.risky_combinations, list)
    assert isinstance(court_doc._.anonymized_text, str)
    labels = {s.label_ for s in spans}
    assert {"PERSON", "CODE", "DATETIME", "LOC"} <= labels


def test_application_number_and_applicant_name_never_survive(court_doc):
    out = court_doc._.anonymized_text
    assert "48213/09" not in out
    for part in ("Andrei", "Petrescu"):
        assert not re.search(rf"\b{part}\b", out)
    assert "a.petrescu@example.md" not in out and "+373 231 55 874" not in out


def test_every_mention_of_a_masked_entity_is_masked(court_doc):
    masked = {s._.entity_id for s in court_doc.spans["pii"] if s._.masked}
    for span in court_doc.spans["pii"]:
        assert span._.masked == (span._.entity_id in masked)


def test_pipeline_round_trips_through_disk(nlp, court_doc, tmp_path):
    nlp.to_disk(tmp_path / "pipe")
    loaded = spacy.load(tmp_path / "pipe")
    again = loaded(court_doc.text)
    assert again._.anonymized_text == court_doc._.anonymized_text


def test_target_is_always_masked_and_other_names_follow_risk(nlp):
    text = "Ion Rusu, a lawyer, met Andrei Petrescu in Balti on 3 March 2006."
    risk = nlp.get_pipe("textanon_lm_risk")
    saved, risk.threshold = risk.threshold, -1e6  # nothing is risky by surprisal alone
    try:
        doc = nlp.make_doc(text)
        doc._.target = "Ion Rusu"
        doc = nlp(doc)
    finally:
        risk.threshold = saved
    assert doc._.risky_combinations == []
    assert "Ion Rusu" not in doc._.anonymized_text
    assert "Andrei Petrescu" in doc._.anonymized_text and "Balti" in doc._.anonymized_text


def test_empty_and_whitespace_documents(nlp):
    for text in ("", "   \n\t "):
        doc = nlp(text)
        assert doc._.anonymized_text == text
        assert list(doc.spans["pii"]) == []


def test_packaged_pipeline_loads_and_runs():
    nlp = spacy.load("en_textanon")
    assert nlp.pipe_names[-1] == "textanon_optimizer"
    doc = nlp("The case originated in an application (no. 10424/05) lodged by Mr Ruslan Kurkaev on 21 March 2005.")
    assert "10424/05" not in doc._.anonymized_text and "Kurkaev" not in doc._.anonymized_text
