"""Candidates beyond the detected entities (textanon.search.candidates): titles, numbers, phrases, the rule."""

import spacy

from textanon.search.candidates import informative, propose


def test_propose_titles_numbers_and_phrases():
    nlp = spacy.blank("en")
    doc = nlp('She starred in "Glass Harbour" in 1960 and earned 2,000 zloty as a young nurse.')
    got = {(doc.text[c.start : c.end], c.kind, c.label) for c in propose(doc, taken=[])}
    assert ("Glass Harbour", "title", "MISC") in got
    assert ("1960", "number", "DATETIME") in got and ("2,000", "number", "QUANTITY") in got
    assert ("earned", "phrase", "MISC") in got and ("young nurse", "phrase", "MISC") in got


def test_informative_rule():
    assert informative(2, 100, True, max_df=0.25, rare_df=0.01)  # about the target, not common
    assert not informative(50, 100, True, max_df=0.25, rare_df=0.01)  # common
    assert informative(1, 100, None, max_df=0.25, rare_df=0.01)  # rare, target unknown
    assert not informative(0, 100, True, max_df=0.25, rare_df=0.01)  # the index cannot link it


def test_taken_intervals_agree_with_a_linear_scan():
    """The O(log n) overlap test of propose() answers as the linear scan it replaced, whatever was taken."""
    import random

    from textanon.search.candidates import _Taken

    rng = random.Random(0)
    for _ in range(200):
        spans = [(a, a + rng.randint(1, 6)) for a in (rng.randint(0, 60) for _ in range(rng.randint(0, 8)))]
        taken, linear = _Taken(spans), list(spans)
        for _ in range(30):
            start = rng.randint(0, 70)
            end = start + rng.randint(0, 8)
            free = start < end and not any(s < end and start < e for s, e in linear)
            assert taken.free(start, end) == free
            if free:
                taken.add(start, end)
                linear.append((start, end))
