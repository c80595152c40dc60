"""``masking.occurrences`` finds what the regular expression ``(?<!\\w)(?:f1|...)(?!\\w)`` finds, without compiling it
(issue 30: propagation compiled a new alternation of a document's masked forms at every rendering)."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from textanon.render.masking import _flexible, occurrences, occurrences_in_groups, propagate

#: words that overlap, share prefixes, carry punctuation, digits, underscores and characters whose case folding the
#: regular expression engine treats specially (dotless i, long s, Greek sigma, dotted capital I)
PIECES = ["Ion", "ion", "ION", "Ionel", "Rusu", "rusu", "Balti", "x", "x_y", "12", "(Ion", "Ion)", "O'Neil", "'s"]
PIECES += ["Iİ", "ıon", "ſun", "ΣΟΣ", "σος", "Émile", "émile", "straße", "-", ",", "."]
SPACES = [" ", "  ", "\t", "\n", "", " \n "]


def reference(text, forms, ignorecase):
    if not forms:
        return []
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(_flexible(f) for f in forms) + r")(?!\w)", re.IGNORECASE if ignorecase else 0
    )
    return [m.span() for m in pattern.finditer(text)]


texts = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SPACES)), max_size=30).map(
    lambda parts: "".join(w + s for w, s in parts)
)
forms = st.lists(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=3).map(" ".join), min_size=1, max_size=8, unique=True
)


@settings(max_examples=400, deadline=None)
@given(text=texts, chosen=forms, ignorecase=st.booleans())
def test_the_same_matches_as_the_regular_expression(text, chosen, ignorecase):
    ordered = sorted(chosen, key=len, reverse=True)
    if ignorecase:
        ordered = [f.lower() for f in ordered]
    assert occurrences(text, ordered, ignorecase) == reference(text, ordered, ignorecase)


@settings(max_examples=300, deadline=None)
@given(text=texts, chosen=st.lists(forms, min_size=1, max_size=4), ignorecase=st.booleans())
def test_groups_in_one_scan_match_as_each_group_alone(text, chosen, ignorecase):
    # propagate's chunks of forms: each group's matches are its own regular expression's, overlapping other groups'
    groups = [sorted({f.lower() if ignorecase else f for f in g}, key=len, reverse=True) for g in chosen]
    assert occurrences_in_groups(text, groups, ignorecase) == [reference(text, g, ignorecase) for g in groups]


def test_a_group_finds_its_own_forms_where_another_groups_match_overlaps():
    text = "Ion Rusu and Rusu Balti"
    assert occurrences_in_groups(text, [["ion rusu"], ["rusu balti", "rusu"], []], True) == [
        [(0, 8)],
        [(4, 8), (13, 23)],
        [],
    ]


def test_earlier_forms_win_and_matches_do_not_overlap():
    text = "Ion  Rusu met Ion, then ion\trusu and IONEL."
    assert occurrences(text, ["ion rusu", "ion"], True) == [(0, 9), (14, 17), (24, 32)]
    assert occurrences(text, ["Ion"], False) == [(0, 3), (14, 17)]


def test_whole_words_only():
    assert occurrences("Ionel and Ion_x and xIon", ["ion"], True) == []


def test_special_case_folding_as_the_regular_expression_engine_folds():
    # "ı" (dotless i) matches "i" under re.IGNORECASE; lower-casing would not see it
    assert occurrences("Bıg", ["big"], True) == reference("Bıg", ["big"], True) == [(0, 3)]
    # a court case with one Turkish name: every other form is still found, at the same offsets (the folding keeps one
    # character per character, "İ" included, whose lower case has two)
    text = "Mr Yılmaz met İsmail ISMAIL and ſusan; ΣΟΣ σος. Yilmaz"
    chosen = ["yilmaz", "ismail", "susan", "σος", "mr"]
    assert occurrences(text, chosen, True) == reference(text, chosen, True)
    assert [text[a:b] for a, b in occurrences(text, chosen, True)] == [
        "Mr", "Yılmaz", "İsmail", "ISMAIL", "ſusan", "ΣΟΣ", "σος", "Yilmaz",
    ]  # fmt: skip


def test_the_engines_folding_over_every_code_point():
    # the two facts _engine_fold rests on (masking._engine_fold's docstring), checked on this Python's tables:
    # the extra case pairs partition the lower cases, and no character with a case lowers to one without
    from _sre import unicode_iscased, unicode_tolower
    from re._casefix import _EXTRA_CASES

    for lower, others in _EXTRA_CASES.items():
        assert unicode_tolower(lower) == lower and unicode_iscased(lower)
        assert all({other, *_EXTRA_CASES[other]} == {lower, *others} for other in others)
    for code in range(0x110000):
        lower = unicode_tolower(code)
        assert lower == code or unicode_iscased(lower), hex(code)
    # and, for the characters the engine treats specially, matching under re.IGNORECASE is folding to the same one
    from textanon.render.masking import _SPECIAL_CASE, _engine_fold

    chars = sorted(_SPECIAL_CASE | {"i", "s", "I", "S", "İ", "K", "k", "ß", "ẞ"})
    for a in chars:
        for b in chars:
            assert bool(re.fullmatch(re.escape(a), b, re.IGNORECASE)) == (_engine_fold(a) == _engine_fold(b)), (a, b)


def test_propagate_masks_every_occurrence_in_any_letter_case():
    text = "Petrescu met PETRESCU and petrescu; Ion Rusu and ION\nRUSU."
    masks = propagate(text, [(0, 8, "***")], {"Petrescu": "***", "Ion Rusu": "[P]"})
    assert [(text[a:b], r) for a, b, r in masks] == [
        ("Petrescu", "***"),
        ("PETRESCU", "***"),
        ("petrescu", "***"),
        ("Ion Rusu", "[P]"),
        ("ION\nRUSU", "[P]"),
    ]


def test_without_the_engines_case_tables_the_regular_expression_matches(monkeypatch):
    # Python 3.10 (allowed by the package) has no re._casefix: every case-insensitive scan is the regex's own
    from textanon.render import masking

    monkeypatch.setattr(masking, "unicode_tolower", None)
    assert not masking._plain_case("Ion Rusu", ["ion"])
    text = "Ion  Rusu met ION, then ion\trusu."
    assert occurrences(text, ["ion rusu", "ion"], True) == reference(text, ["ion rusu", "ion"], True)
