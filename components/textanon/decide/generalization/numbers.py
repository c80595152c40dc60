"""Numbers, amounts and ages: a range of the leading digit, then an order of magnitude ("20,000 euros" ->
"between 20,000 and 30,000 euros" -> "at least 10,000 euros"; "aged 34" -> "aged between 30 and 40" -> "aged at
least 10"). The number is replaced inside the span, its unit or currency kept. Only spans with exactly one number
written in digits are generalized (from 10 up, or any number before "thousand", "million", "billion"); the range
includes its lower bound and excludes its upper one, so every level is true.

A number after a bound or an approximation is not an exact value: "more than 20", "over 100", "almost 150", "about
100" (:data:`LOWER_BOUNDS`, :data:`APPROXIMATE`) become the order of magnitude below them, the modifier dropped
("more than 20" -> "at least 10": true of every value the original allows, as "about 100" -> "at least 10"); "up to
100", "under 50" (:data:`UPPER_BOUNDS`) get no generalization (a range would claim a lower bound the text never
gave). The modifier is also read in the words just before the span (``before``: "over [100 films]", where it stays
visible): a lower bound there keeps its word and takes the magnitude below ("over 100 films" -> "over 10 films", never
"over between 100 and 200 films"); an approximation or an upper bound there gets no generalization ("about 10
films" would be false). A bound in time before the span ("since 40", "before 30", "by the age of 18":
:data:`TIME_BOUNDS`; "the age of" may also come between any bound and the number) gets none either, and so does a
number with a bound or an approximation after it, inside the span or just after it (``following``: "100 or more",
"40-odd", "100+", "40 or so": :data:`AFTER_BOUNDS`): a range would state a bound the text never gave."""

import re
from typing import List

from spacy.lang.en.stop_words import STOP_WORDS

from textanon.decide.generalization.base import Generalization, levels
from textanon.decide.generalization.hypernyms import noun_sense, wordnet

#: words before a number that make it a lower bound / an approximation / an upper bound
LOWER_BOUNDS = ("more than", "over", "at least", "above", "in excess of", "upwards of", "greater than", "no fewer than")
APPROXIMATE = ("almost", "nearly", "about", "around", "approximately", "roughly", "some", "close to", "circa", "c.")
UPPER_BOUNDS = ("up to", "under", "less than", "fewer than", "at most", "below", "no more than", "not more than")
#: words before a number that make it a bound in time ("since 40", "before 30"): no generalization
TIME_BOUNDS = ("since", "before", "after", "until", "till", "prior to", "as of", "by the age of", "by age")
#: words after a number that make it a bound or an approximation ("100 or more", "40-odd"): no generalization
_AFTER = (
    r"\s*(?:\+|-?\s*odd\b|-ish\b|or\s+(?:more|over|above|less|fewer|under|below|so|thereabouts)\b|"
    r"and\s+(?:over|above|up|under|below)\b|plus\b|at\s+(?:least|most)\b)"
)
AFTER_BOUNDS = re.compile("^" + _AFTER, re.IGNORECASE)
#: the same after up to two words that follow the span ("[100] films or more")
_AFTER_WORDS = re.compile(r"^(?:\s+[^\W\d]+){0,2}?" + _AFTER, re.IGNORECASE)
_AGE = r"(?:\s+(?:the\s+)?ages?(?:\s+of)?)?"
_MODIFIER = re.compile(
    r"\b("
    + "|".join(
        re.escape(w) for w in sorted(LOWER_BOUNDS + APPROXIMATE + UPPER_BOUNDS + TIME_BOUNDS, key=len, reverse=True)
    )
    + r")"
    + _AGE
    + r"\s+$",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w,]|\.\d)")


#: nouns before a bare number that measure a person, not name a thing ("age 34", "weight 82")
MEASURE_NOUNS = frozenset("age ages height weight score temperature pulse rate bmi iq".split())
_WORD_BEFORE = re.compile(r"(?<![\w'’-])([A-Za-z]+)[ \t]+\Z")


def numbers_a_thing(preceding: str) -> bool:
    """Whether a bare number after ``preceding`` names something rather than counts it: the word right before it is
    mostly a noun (WordNet) that no article or verb form separates from it, "Participant 23", "Article 34", "room
    12", "Year 4", where "between 20 and 30" or "at least 10" would be no English; not a measure of the person ("age
    34": :data:`MEASURE_NOUNS`), a stop word ("over 100", "of 34"), nor an "-ed" or "-ing" form of a verb ("aged 34",
    "weighing 90": :func:`_verb_form`; "Bed 12" names a bed)."""
    m = _WORD_BEFORE.search(preceding)
    if m is None:
        return False
    word = m.group(1).lower()
    if word in MEASURE_NOUNS or word in STOP_WORDS or _verb_form(word):
        return False
    return noun_sense(word) is not None  # a noun at least as often as anything else ("won" is a verb first)


def _verb_form(word: str) -> bool:
    """Whether ``word`` is an "-ed" or "-ing" form of a verb ("aged", "weighing", "building"), which WordNet reads
    back to another verb; "bed" and "wing" end so and are nouns ("Bay 3 Bed 12" had become "Bed at least 10")."""
    if not word.endswith(("ed", "ing")):
        return False
    base = wordnet().morphy(word, wordnet().VERB)
    return base is not None and base != word


def generalize_number(text: str, preceding: str = "", following: str = "") -> List[Generalization]:
    """Generalizations of a span holding one number in digits (empty otherwise); ``preceding`` / ``following``: the
    text just before / after the span, read for a bound or an approximation that the span leaves outside."""
    found = list(_NUMBER.finditer(text))
    if len(found) != 1:
        return []
    m = found[0]
    if m.start() == 0 and m.end() == len(text) and numbers_a_thing(preceding):
        return []  # "Participant [23]", "Article [34]", "Ward [12]": a number that names, no quantity to bound
    if AFTER_BOUNDS.match(text[m.end() :]) or _AFTER_WORDS.match(following):  # "100+", "[100 films] or more"
        return []
    value = float(m.group(0).replace(",", ""))
    scaled = re.match(r"\s+(thousand|million|billion)\b", text[m.end() :], re.IGNORECASE) is not None
    if value < (1 if scaled else 10):
        return []
    lead = 10 ** (len(str(int(value))) - 1)
    low = int(value // lead * lead)
    before, after = text[: m.start()], text[m.end() :]
    symbol = re.search(r"[^\w\s]+$", before)  # a currency sign glued to the number ("$12"): kept on each bound
    sign = symbol.group(0) if symbol else ""
    before = before[: len(before) - len(sign)]
    grouped = "," in m.group(0) or value >= 10000

    def fmt(v: int) -> str:
        return sign + (f"{v:,}" if grouped else str(v))

    outside = _MODIFIER.search(preceding) if not before.strip() else None
    if outside:  # "over [100 films]": the bound stays visible before the span
        if " ".join(outside.group(1).lower().split()) not in LOWER_BOUNDS:
            return []
        bound = lead // 10 if value == lead else lead
        if bound < (1 if scaled else 10):
            return []
        return levels([f"{before}{fmt(bound)}{after}"], "numbers", text)
    modifier = _MODIFIER.search(before)
    if modifier:
        word = " ".join(modifier.group(1).lower().split())
        if word in UPPER_BOUNDS + TIME_BOUNDS or word != " ".join(modifier.group(0).lower().split()):
            return []  # "under 50", "since 40", or "over the age of 40" in the span (no "at least" to write)
        # "more than 20" is at least 20: its magnitude holds; "about 100", "nearly 1,050" may be 98, 990: one below
        near = word in APPROXIMATE and value < 1.2 * lead
        bound = lead // 10 if near or value == lead else lead
        if bound < (1 if scaled else 10):
            return []
        before = before[: modifier.start()]
        return levels([f"{before}at least {fmt(bound)}{after}"], "numbers", text)
    # right after the preposition "at" ("had a stroke at [52]") the bound is written after the number: "at at least 10"
    # is no English
    at = not before.strip() and _AT_BEFORE.search(preceding) is not None
    bound = f"{before}{fmt(lead)} or more{after}" if at else f"{before}at least {fmt(lead)}{after}"
    return levels([f"{before}between {fmt(low)} and {fmt(low + lead)}{after}", bound], "numbers", text)


#: the preposition "at" right before a number's span (:func:`generalize_number`)
_AT_BEFORE = re.compile(r"(?<![\w'’-])at\s+$", re.IGNORECASE)
