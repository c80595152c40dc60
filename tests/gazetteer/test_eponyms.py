"""The table of terms named after a person (textanon.detect.eponyms): derived from WordNet, never by hand."""

import os
from pathlib import Path

import pytest

from textanon.detect.eponyms import TABLE, build, eponym_terms, words_of

NLTK_DATA = os.environ.get("NLTK_DATA")
needs_wordnet = pytest.mark.skipif(
    not (NLTK_DATA and (Path(NLTK_DATA) / "corpora/wordnet/lexnames").exists()),
    reason="WordNet data not prepared (make gazetteer does it)",
)


def test_a_term_is_written_as_the_tokenizer_splits_it():
    assert words_of("Asperger’s  Syndrome") == "asperger 's syndrome"
    assert words_of("Stevens' power law") == "stevens ' power law"
    assert words_of("Charcot-Marie-Tooth disease") == "charcot-marie-tooth disease"


def test_the_shipped_table_holds_diseases_and_procedures_never_names_alone():
    terms = eponym_terms()
    assert {"asperger 's syndrome", "parkinson 's disease", "heimlich maneuver", "apgar score"} <= terms
    # a run of names WordNet reads as a thing, a person, a place: never in it
    assert not {"mary jane", "jim crow", "matthew walker", "john doe", "new york"} & terms
    assert all(t == t.lower() and len(t.split()) >= 2 for t in terms)


@needs_wordnet
@pytest.mark.slow
def test_the_shipped_table_is_what_the_build_writes():
    assert set(build(nltk_data=NLTK_DATA)) == eponym_terms(TABLE)
