"""The word-class table of the tagger-less phrase candidates (textanon.detect.word_classes): derived from WordNet and
wordfreq, never by hand."""

import os
from pathlib import Path

import pytest

from textanon.detect.word_classes import TABLE, build, verb_adverb_words, verb_or_adverb

NLTK_DATA = os.environ.get("NLTK_DATA")
needs_wordnet = pytest.mark.skipif(
    not (NLTK_DATA and (Path(NLTK_DATA) / "corpora/wordnet/lexnames").exists()),
    reason="WordNet data not prepared (make gazetteer does it)",
)


@needs_wordnet
def test_verbs_and_adverbs_are_told_from_nouns_and_adjectives_by_their_tagged_senses():
    from textanon.detect.gazetteer.wordnet_data import load_wordnet

    wordnet = load_wordnet(NLTK_DATA)
    for word in ("starred", "alongside", "later", "appeared", "known"):
        assert verb_or_adverb(word, wordnet), word
    # nouns and adjectives, also those with a rarer verb sense ("film", "award"); words WordNet does not know
    for word in ("film", "award", "child", "actress", "best", "television", "zqxv"):
        assert not verb_or_adverb(word, wordnet), word
    assert build(["film", "starred", "child", "later"], nltk_data=NLTK_DATA) == ["later", "starred"]


@needs_wordnet
@pytest.mark.slow
def test_the_shipped_table_is_what_the_build_writes():
    assert set(build(nltk_data=NLTK_DATA)) == verb_adverb_words(TABLE)


def test_the_shipped_table_reads_as_a_set_of_lower_case_words():
    words = verb_adverb_words()
    assert len(words) > 5000 and {"starred", "alongside"} <= words and "film" not in words
    assert all(w.isalpha() and w.islower() for w in words)
