"""Dates: day -> month and year -> year -> decade -> century ("14 September 2009" -> "September 2009" -> "2009" ->
"the 2000s" -> "the 21st century"; no century for a year ending in 00, which two conventions place differently).
Only dates with a four-digit year are generalized (a year is what makes the levels true supersets); a span with two
years ("1997-2001") or none is left to the optimizer's suppression."""

import re
from typing import List

from .base import Generalization, levels

MONTHS = (
    "january february march april may june july august september october november december".split()
    + "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_MONTH = re.compile(r"\b(" + "|".join(MONTHS) + r")\b\.?", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\d.,])(1[0-9]{3}|20[0-9]{2})(?![\d,]|s\b)")
_YEAR_OR_DECADE = re.compile(r"(?<![\d.,])(1[0-9]{3}|20[0-9]{2})(?![\d,])")
_DECADE = re.compile(r"^(?:the\s+)?(?:early\s+|mid\s+|late\s+|mid-)?(1[0-9]{2}|20[0-9])0s$", re.IGNORECASE)
_FULL = {m[:3]: m for m in MONTHS[:12]}


#: words before a date that make it a bound or an approximation ("before 1990" is not in the 1990s): not generalized
BOUNDS = re.compile(
    r"^(?:before|after|since|until|till|til|by|from|to|through|around|about|circa|c\.|ca\.|approximately|nearly|"
    r"almost|prior\s+to|up\s+to|as\s+(?:early|late)\s+as|no\s+(?:later|earlier)\s+than|pre-|post-)(?:\s+|\b)",
    re.IGNORECASE,
)
#: prepositions of time inside the span, kept before every level ("on 14 September 2009" -> "in September 2009")
PLACING = re.compile(r"^(in|on|during)\s+", re.IGNORECASE)


def generalize_date(text: str) -> List[Generalization]:
    """Generalizations of a date expression, most specific first (empty when it has no single four-digit year, or
    is a bound or an approximation: :data:`BOUNDS`); a leading "in"/"on"/"during" stays ("in"/"during") before
    every level."""
    text = " ".join(text.split())
    if BOUNDS.match(text):
        return []
    placing = PLACING.match(text)
    if placing:
        word = "during" if placing.group(1).lower() == "during" else "in"
        if placing.group(1)[0].isupper():
            word = word.capitalize()
        found = _generalize_date(text[placing.end() :])
        return levels([f"{word} {g.text}" for g in found], "dates", text, [g.members for g in found])
    return _generalize_date(text)


def mentions_year(text: str) -> bool:
    """Whether ``text`` holds a four-digit year (or a decade: "1990s")."""
    return _YEAR_OR_DECADE.search(text) is not None


def _generalize_date(text: str) -> List[Generalization]:
    decade = _DECADE.match(text.strip())
    if decade:
        first = int(decade.group(1)) * 10
        if first % 100 == 0:  # "the 1900s": 1900 belongs to the 19th or the 20th century depending on the count
            return []
        return levels([century(first)], "dates", text, [_decades(first // 100 * 100)])
    years = _YEAR.findall(text)
    if len(set(years)) == 2:
        return generalize_range(text, sorted(int(y) for y in set(years)))
    if len(set(years)) != 1:
        return []
    year = int(years[0])
    month = _MONTH.search(text)
    has_day = bool(re.search(r"\b\d{1,2}(?:st|nd|rd|th)?\b", _YEAR.sub(" ", text)))
    out = []
    if month and has_day:
        out.append(f"{_FULL[month.group(1).lower()[:3]].capitalize()} {year}")
    if month or has_day or text.strip() != str(year):
        out.append(str(year))
    members = [[str(year)]] * len(out)
    out.append(f"the {year // 10 * 10}s")
    members.append([str(y) for y in range(year // 10 * 10, year // 10 * 10 + 10)])
    if year % 100:  # 2000 ends the 20th century counting from 1901, begins the 21st counting from 2000: left out
        out.append(century(year))
        members.append(_decades(year // 100 * 100))
    return levels(out, "dates", text, members)


_RANGE = re.compile(
    r"^(?P<lead>(?:between|from)\s+)?(?:[A-Za-z]+\.?\s+)?(?:\d{1,2}\s+)?\d{4}\s*(?:-|–|—|to|and|until|till)\s*"
    r"(?:[A-Za-z]+\.?\s+)?(?:\d{1,2},?\s+)?\d{4}$",
    re.IGNORECASE,
)


def generalize_range(text: str, years: List[int]) -> List[Generalization]:
    """A period between two years ("1994 to 1999", "between 1965 and 1967", "December 1922 to March 1923") lies
    within the decade or the century holding both: "the 1990s" (after "between"/"from": "in the 1990s"), then the
    century; nothing when they fall in different centuries, or either is a year ending in 00 (its century is in
    doubt), or the span is not one period."""
    match = _RANGE.match(text.strip())
    first, last = years
    if not match or first // 100 != last // 100 or first % 100 == 0 or last % 100 == 0:
        return []
    lead = "in " if match.group("lead") else ""
    out, members = [], []
    if first // 10 == last // 10:
        out.append(f"{lead}the {first // 10 * 10}s")
        members.append([str(y) for y in range(first // 10 * 10, first // 10 * 10 + 10)])
    out.append(lead + century(first))
    members.append(_decades(first // 100 * 100))
    return levels(out, "dates", text, members)


def _decades(start: int) -> List[str]:
    """What "the 20th century" covers, for the century beginning at ``start`` (1900): its decades "1900s" ...
    "1990s" and its years 1901 ... 1999 (a document holding "1987" is one the century describes; the year ``start``
    itself, which two conventions place differently, is left out)."""
    return [f"{d}s" for d in range(start, start + 100, 10)] + [str(y) for y in range(start + 1, start + 100)]


def century(year: int) -> str:
    """ "the 20th century" for 1900-1999."""
    n = year // 100 + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"the {n}{suffix} century"
