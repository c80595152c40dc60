"""A number's generalization reads the bound or approximation around it and never states a false bound (issue 31):
numeric phrases from the search candidates ("over [70 films]"), bounds in time, bounds after the number, and one
entity mentioned under different bounds."""

import re

import pytest
import spacy

import textanon  # noqa: F401
import textanon.pipes.factories  # noqa: F401  (the factories, also without the entry points)
from textanon.decide.generalization.numbers import generalize_number
from textanon.decide.generalization.propose import propose, propose_for_mentions


def texts(found):
    return [g.text for g in found]


def around(sentence: str, mention: str):
    """(text, start) of ``mention`` in ``sentence``, with the sentence: the arguments of propose()."""
    return mention, sentence, sentence.index(mention)


@pytest.mark.parametrize(
    "sentence, mention",
    [
        ("The tenor sang in over 100 operas.", "100 operas"),
        ("The tenor sang in more than 70 operas.", "70 operas"),
        ("She retired over the age of 40 years.", "40 years"),
    ],
)
def test_a_lower_bound_before_the_span_keeps_its_word_and_takes_the_magnitude_below(sentence, mention):
    text, doc_text, start = around(sentence, mention)
    found = texts(propose("QUANTITY", text, doc_text, start))
    assert found and not any("between" in f for f in found)
    value = int(re.search(r"\d+", mention).group(0))
    for f in found:  # every level is a lower bound at most the original value: "over 10 operas" holds
        assert int(re.search(r"\d+", f).group(0)) <= value


@pytest.mark.parametrize(
    "sentence, mention",
    [
        ("A singer of about 40 operas.", "40 operas"),
        ("A singer of nearly 40 operas.", "40 operas"),
        ("A singer of under 40 operas.", "40 operas"),
        ("She had married before 30 and retired since 55.", "30"),
        ("She had married before 30 and retired since 55.", "55"),
        ("She had learnt to fly by the age of 18 years.", "18 years"),
        ("The tenor sang 100 operas or more.", "100 operas"),
        ("The tenor sang 100 operas or so.", "100 operas"),
        ("The tenor sang 40-odd operas.", "40"),
        ("The tenor sang 100+ operas.", "100"),
    ],
)
def test_an_approximation_an_upper_bound_a_bound_in_time_or_after_the_number_gets_no_range(sentence, mention):
    text, doc_text, start = around(sentence, mention)
    assert propose("QUANTITY", text, doc_text, start) == []


def test_an_exact_count_still_gets_its_range_with_the_noun_kept():
    text, doc_text, start = around("The tenor sang 70 operas in Vienna.", "70 operas")
    assert texts(propose("QUANTITY", text, doc_text, start)) == ["between 70 and 80 operas", "at least 10 operas"]
    assert texts(generalize_number("3 million records")) == [
        "between 3 and 4 million records",
        "at least 1 million records",
    ]


def test_over_the_age_of_inside_the_span_is_not_rewritten_into_a_false_phrase():
    assert generalize_number("over the age of 40") == []


def test_one_entity_under_two_different_bounds_gets_no_generalization():
    sentence = "She sang over 70 operas, then about 70 operas again."
    first, second = sentence.index("70 operas"), sentence.rindex("70 operas")
    assert propose("QUANTITY", "70 operas", sentence, first)  # alone, the first mention has a true one
    assert propose_for_mentions("QUANTITY", [("70 operas", first), ("70 operas", second)], sentence) == []
    plain = "She sang 70 operas, then 70 operas again."
    both = [("70 operas", plain.index("70 operas")), ("70 operas", plain.rindex("70 operas"))]
    assert texts(propose_for_mentions("QUANTITY", both, plain))[0] == "between 70 and 80 operas"


def test_the_component_suppresses_an_entity_whose_mentions_disagree_on_the_bound():
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_generalizer", config={"ic_source": "wordfreq"})
    text = "She sang over 70 operas, then about 70 operas again."
    doc = nlp.make_doc(text)
    spans = []
    for start in (text.index("70 operas"), text.rindex("70 operas")):
        span = doc.char_span(start, start + len("70 operas"), label="QUANTITY")
        span._.entity_id, span._.source = "Q1", "candidate:number"
        spans.append(span)
    doc.spans["pii"] = spans
    doc = nlp.get_pipe("textanon_generalizer")(doc)
    assert all(not s._.generalizations for s in doc.spans["pii"])


@pytest.mark.parametrize("bound", ["before", "since", "until", "prior to", "no later than", "pre-"])
def test_a_date_after_a_bound_word_gets_no_generalization(bound):
    sentence = f"She retired from the stage {bound}{'' if bound.endswith('-') else ' '}1995 and moved on."
    assert propose("DATETIME", "1995", sentence, sentence.index("1995")) == []  # "before the 1990s" would be false


def test_a_date_without_a_bound_word_keeps_its_generalizations():
    for sentence in ("She was born in 1995 in Lyon.", "She came back from Paris in 1995 and stayed."):
        assert texts(propose("DATETIME", "1995", sentence, sentence.index("1995")))[0] == "the 1990s"
    sentence = "She has lived there since 2010–present."  # a period reads the word before it itself
    assert propose("DATETIME", "2010–present", sentence, sentence.index("2010"))


@pytest.mark.parametrize(
    "preceding,number",
    [("Participant ", "23"), ("under Article ", "34"), ("Year ", "4"), ("ward ", "14"), ("Season ", "12")],
)
def test_a_number_that_names_a_thing_gets_no_range(preceding, number):
    # a research note ("Participant at least 10 is the bus driver") and a court case ("under at least 10 of the
    # Convention"): a number right after a noun names, it counts nothing
    assert generalize_number(number, preceding) == []


@pytest.mark.parametrize("preceding", ["aged ", "age ", "he won ", "she scored ", "in ", "Mellor, "])
def test_a_number_after_a_verb_a_measure_or_a_stop_word_keeps_its_range(preceding):
    assert texts(generalize_number("34", preceding))[0] == "between 30 and 40"
