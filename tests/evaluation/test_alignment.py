"""Alignment of string anonymizations back to character spans of the original."""

from textanon.io.datasets.alignment import masked_spans

ORIGINAL = "Tom Hanks (born July 9, 1956) is an American actor from Concord, California."


def masked_words(original, anonymized):
    return [original[s:e] for s, e in masked_spans(original, anonymized)]


def test_tag_replacement():
    anon = "PERSON (born DATE) is an American actor from LOCATION, LOCATION."
    assert masked_words(ORIGINAL, anon) == ["Tom Hanks", "July 9, 1956", "Concord", "California"]


def test_suppression_and_deletion():
    anon = "*** (born ***) is an *** actor from ***."
    assert masked_words(ORIGINAL, anon) == ["Tom Hanks", "July 9, 1956", "American", "Concord, California"]


def test_generalization_masks_the_original_stretch():
    anon = "An actor (born in the 1950s) is an American actor from a city in the United States."
    got = masked_words(ORIGINAL, anon)
    assert "Tom Hanks" in got and "July 9, 1956" in got and "Concord, California" in got
    assert "American" not in " ".join(got)


def test_lowercased_and_respaced_text_masks_nothing():
    anon = "tom hanks ( born july 9 , 1956 ) is an american actor from concord , california ."
    assert masked_spans(ORIGINAL, anon) == []


def test_identical_and_empty():
    assert masked_spans(ORIGINAL, ORIGINAL) == []
    assert masked_words(ORIGINAL, "") == [ORIGINAL[:-1]]
    assert masked_spans("", "anything") == []


def test_sensitive_tags_with_brackets():
    anon = "[SENSITIVE] (born [SENSITIVE]) is an American actor from Concord, [SENSITIVE]."
    assert masked_words(ORIGINAL, anon) == ["Tom Hanks", "July 9, 1956", "California"]
