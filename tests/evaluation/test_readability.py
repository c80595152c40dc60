"""Readability measures (textanon_eval.readability): reference units, fragments, adjacent placeholders,
the Kneser–Ney fluency model and the corpus-level row."""

import math

import pytest

from textanon_eval.kneser_ney import KneserNeyTrigram, vocabulary_probabilities
from textanon_eval.readability import (
    Fluency,
    Readability,
    adjacent_placeholders,
    fragments,
    label_noun,
    reference_nlp,
    reference_units,
    render_labels,
)

AWARDS = "He won four Drama Desk Awards in 2010."
BANK = "He worked at the Bank of England from 2010–present."
CORPUS = [
    "He is an American actor. He won an award for the film in 2001. She is an actress and a singer.",
    "She was born in a small town. He appeared in the film with his wife. The film won an award.",
    "He is a British actor and a singer. She won the award in 1999. He was born in the city.",
] * 3


@pytest.fixture(scope="module")
def nlp():
    return reference_nlp()


def _span(text, word, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    return [start, start + len(word)]


def _units(nlp, text):
    return [text[u.start : u.end] for u in reference_units(nlp(text))]


def test_the_unit_finder_finds_names_titles_and_year_ranges(nlp):
    assert "Bank of England" in _units(nlp, BANK)  # proper nouns joined across "of"
    assert "2010–present" in _units(nlp, BANK)
    assert "Drama Desk Awards" in _units(nlp, AWARDS)
    units = _units(nlp, 'She starred in "The Silent Hour" in 2004.')
    assert "The Silent Hour" in units
    assert not any("four" in u for u in _units(nlp, AWARDS))  # a number is not part of the name
    assert not any("late" in u for u in _units(nlp, "He moved to Paris in the late 1990s."))  # a vague date
    named = _units(nlp, "Mr Igor Munteanu was born in Balti in 1961.")
    assert "Igor Munteanu" in named and not any(u.startswith("Mr ") for u in named)  # a title is apart


def test_a_mask_inside_a_name_fragments_it_and_the_whole_name_does_not(nlp):
    doc = nlp(AWARDS)
    inside = fragments(doc, [_span(AWARDS, "Desk")])
    assert (inside.n_masks, inside.n_fragmenting, inside.rate) == (1, 1, 1.0)
    assert [AWARDS[s:e] for s, e in inside.units] == ["Drama Desk Awards"]
    whole = fragments(doc, [_span(AWARDS, "Drama Desk Awards")])
    assert (whole.n_masks, whole.n_fragmenting, whole.units) == (1, 0, [])
    # two masks inside one name with a word left between: both fragment it
    two = fragments(doc, [_span(AWARDS, "Drama"), _span(AWARDS, "Awards")])
    assert two.n_fragmenting == 2 and two.rate == 1.0
    assert fragments(doc, []).rate == 0.0


def test_a_name_masked_but_for_its_stop_words_is_not_fragmented(nlp):
    doc = nlp(BANK)
    masks = [_span(BANK, "Bank"), _span(BANK, "England"), _span(BANK, "2010–present")]
    assert fragments(doc, masks).n_fragmenting == 0  # "the", "of" left visible are not content
    half_range = fragments(doc, [_span(BANK, "Bank of England"), _span(BANK, "present")])
    assert half_range.n_fragmenting == 1  # "2010–***": the year left visible
    assert [BANK[s:e] for s, e in half_range.units] == ["2010–present"]


def test_adjacent_placeholders_touch_through_punctuation_not_through_words():
    text = "two Drama Desk Awards (2004–07) and more"
    drama, desk, awards = _span(text, "Drama"), _span(text, "Desk"), _span(text, "Awards")
    assert adjacent_placeholders(text, [drama, desk]) == (2, 2)  # "*** *** Awards"
    assert adjacent_placeholders(text, [drama, awards]) == (0, 2)  # a word between
    assert adjacent_placeholders(text, [_span(text, "2004"), _span(text, "07")]) == (2, 2)  # "(***–***)"
    assert adjacent_placeholders(text, [drama, desk, awards]) == (3, 3)
    sentences = "He met Igor. Munteanu, Balti."
    names = [_span(sentences, "Igor"), _span(sentences, "Munteanu"), _span(sentences, "Balti")]
    assert adjacent_placeholders(sentences, names) == (2, 3)  # "***, ***" touch; a sentence end separates
    # a generalization is a word, not a placeholder; touching spans make one placeholder
    assert adjacent_placeholders(text, [drama + ["a theatre prize"], desk]) == (0, 1)
    assert adjacent_placeholders(text, [[4, 9], [9, 14]]) == (0, 1)
    assert adjacent_placeholders(text, []) == (0, 0)


def test_placeholders_are_read_as_the_noun_of_the_entity_they_cover(nlp):
    text = "Tom Hanks was born in Concord in 1956."
    units = reference_units(nlp(text))
    rendered = render_labels(text, [_span(text, "Tom Hanks"), _span(text, "1956"), _span(text, "born")], units)
    assert rendered == "person was thing in Concord in date."
    assert render_labels(text, [_span(text, "Concord") + ["a town"]], units) == "Tom Hanks was born in a town in 1956."
    assert label_noun("LOC") == label_noun("GPE") == "place" and label_noun("DEM") == "group"
    assert label_noun("NO_SUCH_LABEL") == label_noun(None) == "thing"


def test_the_kneser_ney_model_is_a_distribution_and_prefers_seen_text():
    model = KneserNeyTrigram(CORPUS)
    for context in (("<s>", "<s>"), ("an", "american"), ("never", "seen")):
        assert vocabulary_probabilities(model, *context) == pytest.approx(1.0, abs=1e-9)
    seen = model.perplexity("He is an American actor.")
    shuffled = model.perplexity("Actor American an is he.")
    assert 1 < seen < shuffled
    assert math.isnan(model.perplexity("!!!"))


def test_fluency_ratio_is_one_for_the_identity_and_above_for_noise():
    fluency = Fluency(CORPUS)
    original = "He is an American actor. He won an award for the film in 2001."
    assert fluency.ratio(original, original) == pytest.approx(1.0)
    noisy = "He is an zq xv. He won an kk for the pp in 2001."
    assert fluency.ratio(original, noisy) > 1.2


def test_the_row_pools_masks_over_documents_and_averages_fluency(nlp):
    originals = {"a": AWARDS, "b": BANK}
    readability = Readability(originals, fluency_corpus=CORPUS, nlp=nlp)
    masks = {"a": [_span(AWARDS, "Desk")], "b": [_span(BANK, "Bank of England"), _span(BANK, "2010–present")]}
    row = readability.row(masks)
    assert row["fragment_rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert row["adjacent_placeholders"] == 0.0
    assert row["fluency_ratio"] is not None and row["fluency_ratio"] > 0
    assert readability.row({"a": [], "b": []}) == {
        "fragment_rate": 0.0,
        "adjacent_placeholders": 0.0,
        "fluency_ratio": pytest.approx(1.0),
    }
    assert Readability(originals, nlp=nlp).row(masks)["fluency_ratio"] is None  # no corpus: no fluency
