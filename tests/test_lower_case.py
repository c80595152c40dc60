"""Names in a text written in lower case (textanon.detect.lower_case): a chat's "tom hughes" and "morriston hospital",
which the generic NER, reading capitals, leaves to the risk scoring as ordinary words."""

import pytest
from core_fixtures import blank_with_recognizer
from wordnet_data import needs_wordnet

from textanon.detect.lower_case import find_lower_case_names, written_in_lower_case

#: the ordinary English words of these tests (the recognizer passes WordNet's lower-case lemmas)
ORDINARY = frozenset(
    "pub work nite train mum tom will rose grace local garden power royal infirmary tho riverside".split()
)


def names(text):
    return [(text[s:e], label) for s, e, label, _ in find_lower_case_names(text, ORDINARY.__contains__)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("i went home early", True),
        ("honestly i'm done with it", True),
        ("lol went to the pub. then home. so tired", True),
        ("Customer: it's me\nAgent: and your name?", True),
        ("He went to the pub with Tom Hughes. They left at ten.", False),
        ("The applicant, Mr Smith, was born in 1960. He lives in Leeds.", False),
        ("one sentence only", False),
        # an "i" in an e-mail address, a path or a list item is no pronoun
        ("Write to i.smith@example.org. The office is closed.", False),
    ],
)
def test_a_text_in_lower_case_is_told_by_its_pronoun_or_its_sentence_starts(text, expected):
    assert written_in_lower_case(text) is expected


def test_given_names_surnames_titles_and_institutions_in_a_chat_are_names():
    text = (
        "lol went to the pub with tom hughes and sarah from work last nite, then got the train back. my mum works "
        "at morriston hospital and dr patel says hi"
    )
    assert names(text) == [
        ("tom hughes", "PERSON"),
        ("sarah", "PERSON"),
        ("morriston hospital", "ORG"),
        ("patel", "PERSON"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # ordinary words that are also given names, alone or before an ordinary word; stop words; verbs
        "i will go. rose garden was lovely. grace said no. i told tom later",
        # an institution after an ordinary word
        "i went to the local hospital and the royal infirmary",
        # handles, addresses and hashtags are other rules'
        "i am on insta as sarah.jones and mail sarah@example.org #sarahjones",
    ],
)
def test_ordinary_words_and_other_rules_spans_are_no_lower_case_names(text):
    assert names(text) == []


def test_a_street_and_a_titled_surname_with_its_possessive_in_an_sms():
    # seen on an appointment reminder: "mill lane" and "dr mehta's" survived
    text = "hi its dr mehta's receptionist, your appt is tues at 9.40 at riverside surgery, mill lane. reply C to stop"
    assert names(text) == [("mehta", "PERSON"), ("mill lane", "LOC")]
    assert names("i was in the fast lane on the main road. so close!") == []
    assert names("i live on station road near the high street") == [("station road", "LOC"), ("high street", "LOC")]


def test_a_text_with_capitals_is_left_to_the_ner():
    assert names("He met sarah and tom hughes at Morriston Hospital. They talked.") == []


@needs_wordnet
def test_the_recognizer_finds_lower_case_names_with_wordnets_ordinary_words():
    nlp = blank_with_recognizer()
    doc = nlp("lol went to the pub with tom hughes and sarah. my mum works at morriston hospital")
    found = {(s.text, s.label_, s._.source) for s in doc.spans["pii"]}
    assert ("tom hughes", "PERSON", "rule:lower_case_name") in found
    assert ("sarah", "PERSON", "rule:lower_case_name") in found
    assert ("morriston hospital", "ORG", "rule:lower_case_institution") in found
    assert not any(s.text in ("pub", "mum") for s in doc.spans["pii"])
