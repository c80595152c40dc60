"""A period ("2010–present", "1999–2004", "from 1999 to 2004") is one DATETIME span and is generalized as a whole,
truthfully: the rules find it as one span, and every level covers both of its ends."""

import pytest

from textanon.decide.generalization.dates import generalize_date, generalize_period
from textanon.detect.rules import compile_rules, find_rule_matches

RULES = compile_rules()


def datetimes(text):
    """The DATETIME spans the recognizer keeps: rule matches, the longest first, none overlapping a longer one."""
    found = sorted(
        ((s, e) for s, e, label, _ in find_rule_matches(text, RULES) if label == "DATETIME"), key=lambda m: m[0] - m[1]
    )
    kept = []
    for s, e in found:
        if not any(s < ke and ks < e for ks, ke in kept):
            kept.append((s, e))
    return sorted(text[s:e] for s, e in kept)


@pytest.mark.parametrize(
    "text, period",
    [
        ("The Good Wife (2010–present) is a drama.", "2010–present"),
        ("Lost (1999–2004) was a series.", "1999–2004"),
        ("She lived there from 1999 to 2004 with him.", "from 1999 to 2004"),
        ("He played in the 2003–04 season.", "2003–04"),
        ("They met between 1965 and 1967 in Paris.", "between 1965 and 1967"),
        ("He has worked there 2010 to the present.", "2010 to the present"),
    ],
)
def test_a_period_is_one_span_not_two_years(text, period):
    assert datetimes(text) == [period]


@pytest.mark.parametrize(
    "text", ["She won in 1999 and 2004.", "It opened on 2004-05-12 in Leeds.", "the Employment Act 1996-97 says"]
)
def test_two_dates_an_iso_date_and_a_statute_are_no_period(text):
    assert not any(m[3] == "year_range" for m in find_rule_matches(text, RULES))


def test_a_short_end_crosses_a_centurys_turn_only_a_few_years_on():
    """A log line: the NER's "2024-05" (a year and its month) had become "the 2020s–2100s" (2024 to 2105)."""
    assert generalize_period("2024-05") == []
    assert [g.text for g in generalize_period("1999–00")] == ["the 1990s–2000s"]
    assert [g.text for g in generalize_period("1996-05")] == ["the 1990s–2000s"]


def test_a_period_to_the_present_starts_in_its_decade_and_century():
    found = generalize_period("2010–present")
    assert [g.text for g in found] == ["since the 2010s", "since the 21st century"]
    assert "2010" in found[0].members and "2019" in found[0].members
    # after "from", "since" is not written twice ("from since the 2010s")
    assert [g.text for g in generalize_period("2010–present", "worked there from ")][0] == "the 2010s"


def test_a_period_across_decades_keeps_both_ends_and_their_years():
    found = generalize_date("1999–2004")
    assert [g.text for g in found] == ["the 1990s–2000s"]  # two centuries (1999, 2004): no century level
    assert {"1999", "2004", "1990s", "2000s"} <= set(found[0].members)
    assert [g.text for g in generalize_date("from 1985 to 1992")] == [
        "from the 1980s to the 1990s",
        "in the 20th century",
    ]


@pytest.mark.parametrize(
    "text, ends",
    [("2010–present", ["2010"]), ("1999–2004", ["1999", "2004"]), ("from 1999 to 2004", ["1999", "2004"])],
)
def test_no_level_of_a_period_describes_only_one_of_its_ends(text, ends):
    # "(2010–present)" -> "(2010)" or "(the 2010s)" would say the period ended there; "the 1990s" drops 2000-2004
    one_end = set(ends) | {g.text for year in ends for g in generalize_date(year)}
    assert generalize_date(text) and not {g.text for g in generalize_date(text)} & one_end
