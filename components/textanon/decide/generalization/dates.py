"""Dates: day -> month and year -> year -> decade -> century ("14 September 2009" -> "September 2009" -> "2009" ->
"the 2000s" -> "the 21st century"; no century for a year ending in 00, which two conventions place differently).
Only dates with a four-digit year are generalized (a year is what makes the levels true supersets); a period is
generalized as a whole (:func:`generalize_period`: "2010–present" -> "since the 2010s", "1999–2004" -> "the
1990s–2000s"); a span with two years that is no period, or none, is left to the optimizer's suppression."""

import re
from typing import List

from textanon.decide.generalization.base import Generalization, levels
from textanon.detect.rules import OTHER_CALENDAR_MONTHS

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
    r"almost|prior\s+to|up\s+to|as\s+of|as\s+(?:early|late)\s+as|no\s+(?:later|earlier)\s+than|pre-|post-)(?:\s+|\b)",
    re.IGNORECASE,
)
#: prepositions of time inside the span, kept before every level ("on 14 September 2009" -> "in September 2009")
PLACING = re.compile(r"^(in|on|during)\s+", re.IGNORECASE)


def generalize_date(text: str, preceding: str = "") -> List[Generalization]:
    """Generalizations of a date expression, most specific first (empty when it has no single four-digit year and
    is no period between two years or from a year to the present, :func:`generalize_period`, or is a bound or an
    approximation: :data:`BOUNDS`); a leading "in"/"on"/"during" stays ("in"/"during") before every level.
    ``preceding``: the text right before the span ("from" before "2010–present")."""
    text = " ".join(text.split())
    period = generalize_period(text, preceding)
    if period or _RANGE.match(text):
        return period
    if BOUNDS.match(text):
        return []
    placing = PLACING.match(text)
    if placing:
        word = "during" if placing.group(1).lower() == "during" else "in"
        if placing.group(1)[0].isupper():
            word = word.capitalize()
        rest = text[placing.end() :]
        period = _RANGE.match(rest)
        if period and period.group("now"):  # "during 2010–present": not "during since the 2010s"
            return []
        found = generalize_period(rest, "from" if period and not period.group("lead") else "") or (
            [] if period else _generalize_date(rest)
        )
        return levels([f"{word} {g.text}" for g in found], "dates", text, [g.members for g in found])
    return _generalize_date(text)


#: a month of another calendar (:data:`textanon.detect.rules.OTHER_CALENDAR_MONTHS`) right before a year or inside a
#: date: the year is no Gregorian year
_OTHER_CALENDAR_BEFORE = re.compile(OTHER_CALENDAR_MONTHS + r",?\s*$")
_OTHER_CALENDAR_INSIDE = re.compile(r"\b" + OTHER_CALENDAR_MONTHS + r"\b")
#: an era after a year: the Hijri and Solar Hijri years ("1445 AH", "1402 SH"), the Buddhist era ("2566 BE")
_OTHER_ERA_AFTER = re.compile(r"^\s*(?:A\.?\s?H\.?|S\.?\s?H\.?|H\.?\s?S\.?|B\.?\s?E\.?|AP)(?![\w])")


def other_calendar(preceding: str, text: str, following: str = "") -> bool:
    """Whether the year of ``text`` is counted in another calendar than the Gregorian: a Hijri or Persian month
    right before it or inside the span, or an era after it ("1445 AH"). Its decade and century would be false."""
    return bool(
        _OTHER_CALENDAR_BEFORE.search(preceding[-40:])
        or _OTHER_CALENDAR_INSIDE.search(text)
        or _OTHER_ERA_AFTER.match(following)
        or re.search(r"\d\s*(?:A\.?H\.?|S\.?H\.?)\s*$", text)
    )


def mentions_year(text: str) -> bool:
    """Whether ``text`` holds a four-digit year (or a decade: "1990s"), a month's name or a year cut to two digits
    after an apostrophe ("March '15", "the class of ’98"): a date, never a number between two bounds ("March between
    '10 and '20")."""
    return (
        _YEAR_OR_DECADE.search(text) is not None
        or _MONTH.search(text) is not None
        or _SHORT_YEAR.search(text) is not None
    )


#: a year cut to two digits after an apostrophe ("'15", "’98"): its century is not written, so it is not generalized
_SHORT_YEAR = re.compile(r"(?<!\w)['‘’]\d{2}(?!\d)")


def _generalize_date(text: str) -> List[Generalization]:
    decade = _DECADE.match(text.strip())
    if decade:
        first = int(decade.group(1)) * 10
        if first % 100 == 0:  # "the 1900s": 1900 belongs to the 19th or the 20th century depending on the count
            return []
        return levels([century(first)], "dates", text, [_decades(first // 100 * 100)])
    years = _YEAR.findall(text)
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


_YEAR4 = r"(?:1[0-9]{3}|20[0-9]{2})"
_DAY = r"(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?"
#: the day and month that may come before a year of a period ("3 December 1922", "December 3, 1922")
_DATE_BEFORE_YEAR = rf"{_DAY}(?:(?:{'|'.join(MONTHS)})\.?\s+{_DAY})?"
#: a period between two years, or from a year to the present: "1994 to 1999", "between 1965 and 1967", "December
#: 1922 to March 1923", "2003–04", "2010–present", "from 2010 to the present", "the 1999–2004 season"
_RANGE = re.compile(
    rf"^(?P<the>the\s+)?(?P<lead>(?:between|from)\s+)?{_DATE_BEFORE_YEAR}(?P<first>{_YEAR4})\s*"
    rf"(?P<sep>-|–|—|to|and|until|till|through)\s*(?:{_DATE_BEFORE_YEAR}(?P<last>{_YEAR4})|(?P<short>\d{{2}})|"
    r"(?P<now>(?:the\s+)?present|now|today))(?P<tail>\s+(?:season|seasons|term|session|(?:school|academic|fiscal|"
    r"financial)\s+year))?$",
    re.IGNORECASE,
)
#: the most years a period written with a short end may span across a century's turn ("1999–00", "1996–05"):
#: further, the short end is no year ("2024-05", a year and its month, is not 2024 to 2105)
SHORT_WRAP_MAX_YEARS = 10
#: words right before a period that already say where it starts ("from 2010–present": "from the 2010s")
_STARTING = re.compile(r"(?:^|\s)(?:from|since)\s*$", re.IGNORECASE)


def generalize_period(text: str, preceding: str = "") -> List[Generalization]:
    """A period written as a whole (see :data:`_RANGE`), generalized as a whole and truthfully:

    * to the present: "2010–present" -> "since the 2010s" -> "since the 21st century" (a start in the 2010s is a
      start in the 21st century; no century for a year ending in 00); after "from"/"since": "the 2010s";
    * within one decade: "1994 to 1999" -> "the 1990s" (after "between"/"from" in the span: "in the 1990s");
    * across decades: both decades, the period's own wording kept: "1999–2004" -> "the 1990s–2000s", "from 1999 to
      2004" -> "from the 1990s to the 2000s", "between 1985 and 1992" -> "between the 1980s and the 1990s", "the
      1999–2004 season" -> "the 1990s–2000s season";
    * then the century holding both years, when one does (neither year ending in 00).

    "2003–04" reads as 2003 to 2004. Empty when the span is not one period, or the years are not in order, or an
    "and" joins two years without "between" ("in 1999 and 2004": two dates, not a period)."""
    match = _RANGE.match(" ".join(text.split()))
    if not match:
        return []
    first, sep, lead = int(match.group("first")), match.group("sep").lower(), (match.group("lead") or "").lower()
    tail = " " + " ".join(match.group("tail").split()) if match.group("tail") else ""
    if sep == "and" and not lead.startswith("between") or (lead.startswith("between") and sep != "and"):
        return []
    if match.group("now"):
        if tail or match.group("the") or lead.startswith("between"):
            return []
        since = "" if _STARTING.search(preceding) else "since "
        out, members = [f"{since}the {first // 10 * 10}s"], [_decade_years(first)]
        if first % 100:
            out.append(since + century(first))
            members.append(_decades(first // 100 * 100))
        return levels(out, "dates", text, members)
    if match.group("short"):
        last = first // 100 * 100 + int(match.group("short"))
        if last < first:  # "1999–00", "1998–03": into the next century, a few years on; "2024-05" is no period
            last += 100
            if last - first > SHORT_WRAP_MAX_YEARS:  # (2024 to 2105: a year and month, "2024-05")
                return []
    else:
        last = int(match.group("last"))
    if not first < last < first + 100:
        return []
    out, members = [], []
    if first // 10 == last // 10:
        out.append(("in " if lead and not tail else "") + f"the {first // 10 * 10}s{tail}")
        members.append(_decade_years(first))
    else:
        a, b = f"the {first // 10 * 10}s", f"the {last // 10 * 10}s"
        if sep in ("-", "–", "—"):
            text_ = f"{lead}{a}–{b[4:]}{tail}"
        elif sep == "and":
            text_ = f"between {a} and {b}{tail}"
        else:
            text_ = f"{'' if _STARTING.search(preceding) and not lead else 'from '}{a} to {b}{tail}"
        out.append(text_)
        members.append(_decade_years(first) + _decade_years(last) + [f"{first // 10 * 10}s", f"{last // 10 * 10}s"])
    if first // 100 == last // 100 and first % 100 and last % 100:
        out.append(("in " if lead and not tail else "") + century(first) + tail)
        members.append(_decades(first // 100 * 100))
    return levels(out, "dates", text, members)


def _decade_years(year: int) -> List[str]:
    """The years of the decade holding ``year``."""
    return [str(y) for y in range(year // 10 * 10, year // 10 * 10 + 10)]


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
