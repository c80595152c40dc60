"""The one mask type and renderer (textanon.render.masking): merging, offsets, rendering and its errors."""

import pytest

from textanon.render import masking
from textanon.render.masking import MaskError, apply, apply_offsets, merge, merge_offsets


def test_merge_overlapping_but_not_touching_unless_asked():
    masks = [(6, 9, "b"), (0, 3, "a"), (2, 5, "c"), (5, 6, "d")]
    assert merge(masks) == [(0, 5, "a"), (5, 6, "d"), (6, 9, "b")]
    assert merge(masks, adjacent=True) == [(0, 9, "a")]


def test_merge_keeps_the_first_replacement_longest_first_or_shortest_first():
    masks = [(0, 2, "short"), (0, 5, "long"), (3, 4, "inner")]
    assert merge(masks) == [(0, 5, "long")]
    assert merge(masks, shortest_first=True) == [(0, 5, "short")]
    # pairs are masks without a replacement; a merged region takes the first replacement there is
    assert merge([(0, 5), (2, 3, "x"), (7, 8)]) == [(0, 5, "x"), (7, 8, None)]


def test_merge_offsets_gives_sorted_json_regions_without_empty_spans():
    assert merge_offsets([[5, 9, "X"], (0, 2), (2, 4), (7, 7), ("10", "12")]) == [[0, 4], [5, 9], [10, 12]]
    with pytest.raises(MaskError, match="12-30 outside the text"):
        merge_offsets([(0, 2), (12, 30)], length=20)
    with pytest.raises(MaskError):
        merge_offsets([(5, 2)], length=20)  # reversed


def test_apply_writes_replacements_or_the_mark():
    text = "Ion Rusu lives in Balti."
    masks = [(0, 8, "[PERSON]"), (18, 23, "[LOC]")]
    assert apply(text, masks) == "[PERSON] lives in [LOC]."
    assert apply(text, masks, "***") == "*** lives in ***."
    assert apply(text, [(0, 3, ""), (3, 4, "")]) == "Rusu lives in Balti."  # suppression by ""
    assert apply(text, []) == text


def test_apply_overlapping_masks_removes_each_character_once():
    assert apply("abcdef", [(0, 4, "X"), (1, 2, "Y")]) == "XYef"
    assert apply("abcdef", [(0, 3, "X"), (2, 5, "Y")]) == "XYf"


@pytest.mark.parametrize(
    "masks, message",
    [
        ([(0, 3, "X"), (5, 40, "Y")], "5-40 outside the text"),
        ([(-1, 2, "X")], "-1-2 outside the text"),
        ([(4, 2, "X")], "4-2 outside the text"),
        ([(5, 6, "X"), (0, 1, "Y")], "out of order"),
        ([(0, 2)], "no replacement"),
    ],
)
def test_apply_rejects_masks_that_do_not_fit_the_text(masks, message):
    with pytest.raises(MaskError, match=message) as err:
        apply("Ion Rusu", masks)
    assert "Rusu" not in str(err.value)  # offsets only, never the text
    assert isinstance(err.value, ValueError)


def test_apply_offsets_gives_one_mark_per_merged_region():
    text = "Anna met Bo in Oslo."
    assert apply_offsets(text, [[15, 19], [0, 4], [2, 3], [4, 5]], "***") == "***met Bo in ***."
    assert apply_offsets(text, [], "***") == text
    with pytest.raises(MaskError):
        apply_offsets(text, [[15, 40]], "***")


def test_one_mask_type_everywhere():
    from textanon_eval import tab_corpus, tps

    assert tab_corpus.Mask is masking.Mask and tps.Mask is masking.Mask


def test_the_overlap_test_answers_as_checking_every_span():
    import itertools

    from textanon.render.masking import overlap_test

    spans = [(10, 20), (2, 4), (15, 40), (50, 51), (30, 31)]
    overlaps = overlap_test(spans)
    for start, end in itertools.combinations(range(0, 56, 3), 2):
        assert overlaps(start, end) == any(s < end and start < e for s, e in spans), (start, end)
    assert not overlap_test([])(0, 100)


def test_the_containment_test_answers_as_checking_every_span():
    import itertools

    from textanon.render.masking import containment_test

    spans = [(10, 20), (2, 4), (15, 40), (50, 51), (30, 31), (12, 13)]
    inside = containment_test(spans)
    for start, end in itertools.combinations_with_replacement(range(0, 56), 2):
        assert inside(start, end) == any(s <= start and end <= e for s, e in spans), (start, end)
    assert not containment_test([])(0, 1)
