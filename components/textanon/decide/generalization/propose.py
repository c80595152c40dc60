"""Which generalizer handles which entity: by the TAB label of its mention (dates, numbers, places, organizations,
nationalities and common nouns, persons; codes are never generalized)."""

import re
from typing import List, Sequence, Tuple

from textanon.decide.generalization.base import (
    Generalization,
    after_plural_quantifier,
    in_hyphen_compound,
    reads_after_quantifier,
    reads_in_compound,
)
from textanon.decide.generalization.context import inside_longer_name
from textanon.decide.generalization.dates import BOUNDS as DATE_BOUNDS
from textanon.decide.generalization.dates import generalize_date, generalize_period, mentions_year, other_calendar
from textanon.decide.generalization.known import generalize_known
from textanon.decide.generalization.nationalities import generalize_nationality
from textanon.decide.generalization.nouns import generalize_noun
from textanon.decide.generalization.numbers import generalize_number
from textanon.decide.generalization.organizations import THING_TYPES, generalize_named_thing
from textanon.decide.generalization.persons import generalize_person
from textanon.decide.generalization.phrases import generalize_phrase
from textanon.decide.generalization.places import generalize_place
from textanon.decide.generalization.works import followed_by_release, generalize_title, title_fragment, title_part
from textanon.labels import DATETIME, DEM, LOC, MISC, ORG, PERSON, QUANTITY

#: characters before a mention read for a bound or an approximation of a number ("more than", "in excess of")
CONTEXT_BEFORE = 24
#: characters after a mention read for a bound or an approximation of a number ("or more", "-odd")
CONTEXT_AFTER = 16
#: labels whose generalizations depend on the words around each mention (a bound, an approximation)
CONTEXTUAL = (DATETIME, QUANTITY)
#: labels of names, whose type is read from the name and the words around it (:func:`.context.inside_longer_name`)
NAMES = (PERSON, ORG, LOC, MISC)


def propose(
    label: str,
    text: str,
    doc_text: str = "",
    start: int = 0,
    max_levels: int = 4,
    common_noun: bool = False,
    tokens: Sequence[Tuple[str, str]] = (),
) -> List[Generalization]:
    """Generalizations of the mention ``text`` (label ``label``, at ``start`` of ``doc_text``), most specific first,
    at most ``max_levels``; empty when no generalizer knows a true one. ``common_noun``: the caller knows the
    mention is a common noun (tagged as one, or a gazetteer term): only then do WordNet's noun senses apply to a
    DEM or MISC mention that is not a nationality or a named thing ("earnest" the adjective is not a security).
    ``tokens``: the mention's (word, tag) pairs from a tagger; a MISC common noun phrase ("ensemble drama") then
    becomes its head (:mod:`.phrases`)."""
    text = " ".join(text.split())
    if _unbalanced(text):
        return []  # "(both [1999)—lent] Diaz": a span cut across a parenthesis holds more than one thing
    if label in NAMES and inside_longer_name(text, doc_text, start, next_words=label != PERSON):
        return []  # "Kingsman: The [Golden Circle]": no type read from a part is sure of the whole
    if label in (MISC, ORG, LOC) or (label == PERSON and not generalize_person(text, doc_text, start)):
        # a name followed by a release year ("Phoenix (2005)" too: a film named after a city), or after "starred
        # in" (not for ORG or LOC): a work's title
        found = generalize_title(text, doc_text, start, works_in_context=label not in (ORG, LOC))
        if found:
            return found[:max_levels]
        if (followed_by_release(doc_text, start + len(text)) and title_fragment(doc_text, start)) or title_part(
            text, doc_text, start
        ):
            return []  # the end of a longer title ("Alice in [Wonderland] (2010)"): no type of it is sure
    if label in (ORG, LOC, MISC) and _COORDINATED.search(text):
        return []  # "[Golden Globe and Academy Award] nominations": two names ("Pride and Prejudice (2005)" is a work)
    preceding = doc_text[max(0, start - CONTEXT_BEFORE) : start] if doc_text else ""
    end = start + len(text) if doc_text[start : start + len(text)] == text else _end(doc_text, start, text)
    following = doc_text[end : end + CONTEXT_AFTER] if doc_text else ""
    if label == DATETIME and other_calendar(preceding, text, following):
        found = []  # "14 Jumada al-Awwal [1445]": a Hijri year, no Gregorian decade or century
    elif label == DATETIME and date_bound_before(preceding) and not generalize_period(text, preceding):
        # "before [1995]": "before the 1990s" would be false (1995 is not before the 1990s); a period reads it itself
        found = []
    elif label == DATETIME:
        # "age 20" -> "age between 20 and 30"; never a year ("before 1990" is no number between 1000 and 2000)
        found = generalize_date(text, preceding) or (
            [] if mentions_year(text) else generalize_number(text, preceding, following)
        )
    elif label == QUANTITY:  # "over [100 films]": the bound before the span is read too
        found = generalize_number(text, preceding, following)
    elif label == LOC:
        found = generalize_place(text, doc_text, start) or generalize_named_thing(text, doc_text, start)
    elif label == ORG:  # a typed head ("Juilliard School"), a listed name ("BBC"), an award taken for an ORG
        found = (
            generalize_named_thing(text, doc_text, start)
            or generalize_known(text)
            or generalize_named_thing(text, doc_text, start, THING_TYPES)
        )
    elif label == DEM:
        found = generalize_nationality(text) or (generalize_noun(text, doc_text, start) if common_noun else [])
    elif label == MISC:
        found = (
            generalize_named_thing(text, doc_text, start, THING_TYPES)
            or (generalize_noun(text, doc_text, start) if common_noun else [])
            or generalize_phrase(text, [w for w, _ in tokens], [t for _, t in tokens])
        )
    elif label == PERSON:
        found = generalize_person(text, doc_text, start)
    else:
        found = []
    return found[:max_levels]


#: two names joined in one span, the first of two or more capitalized words ("Golden Globe and Academy Award");
#: one word before "and" is a name's own part ("Bosnia and Herzegovina", "Foreign and Commonwealth Office")
_COORDINATED = re.compile(r"[A-Z][\w'\u2019.-]*\s+[A-Z][\w'\u2019.-]*\s+(?:and|or|&)\s+[A-Z]")
_BRACKETS = {")": "(", "]": "[", "}": "{"}


def _unbalanced(text: str) -> bool:
    """Whether ``text`` closes a bracket it does not open or opens one it does not close ("1999)—lent")."""
    depth = []
    for ch in text:
        if ch in "([{":
            depth.append(ch)
        elif ch in _BRACKETS:
            if not depth or depth.pop() != _BRACKETS[ch]:
                return True
    return bool(depth)


def date_bound_before(preceding: str) -> bool:
    """Whether the words right before a date make it a bound or an approximation ("before", "since", "prior to",
    "as early as": :data:`textanon.decide.generalization.dates.BOUNDS`, read in the last one to four words)."""
    words = preceding.split()  # a word glued to the mention ("pre-" of "pre-1990") is read too
    return any(DATE_BOUNDS.fullmatch(" ".join(words[-n:]) + " ") for n in range(1, min(4, len(words)) + 1))


def _end(doc_text: str, start: int, text: str) -> int:
    """Where the mention ``text`` (its whitespace normalized) that starts at ``start`` ends in ``doc_text``."""
    end, words = start, text.split()
    for word in words:
        found = doc_text.find(word, end)
        if found < 0:
            return start + len(text)
        end = found + len(word)
    return end


def propose_for_mentions(
    label: str,
    mentions: Sequence[Tuple[str, int]],
    doc_text: str,
    max_levels: int = 4,
    common_noun: bool = False,
    tokens: Sequence[Tuple[str, str]] = (),
) -> List[Generalization]:
    """:func:`propose` for an entity's ``mentions`` (``(text, start)``, the one read first): one list serves every
    mention, so it is kept only when no mention, read in its own context, contradicts it; else none (suppressed).

    * A number or a date reads the words around each mention ("over [70 films]", "about [70 films]"): every mention
      must get the same list (a generalization true of one mention may state a false bound of another).
    * A name contradicts when it gets another non-empty list, or none where the same words got one (its context
      refuses the list: "a [Camden] resident", "[Paris], Texas"; a work's title without its year says less), stands
      inside a longer name ("[Avengers]: Infinity
      War", linked with "The Avengers (2012)"), or is followed by a release year where the first is not, or the
      reverse ("as Muhammad Ali in [Ali] (2001)": a film linked with the person). A shorter mention that gets
      nothing ("Oxford" of "the University of Oxford") does not: its words alone say less, not something else.
    * After a plural quantifier ("two", "several", "many") a singular mention modifies a plural noun after it:
      where a replacement would bring its own determiner there ("two [veteran] CIA officers" -> "two a person CIA
      officers", "many [Los Angeles] and Canadian-based charities" -> "many a city in North America and ..."), none
      is proposed (:func:`textanon.decide.generalization.base.reads_after_quantifier`).
    * Inside a hyphenated compound ("the [Robert Zemeckis]-directed film", "[Los Angeles]-based", "mid-[1994]") only a
      one-word list is kept ("[Oscar]-winning" -> "award-winning"): "the another person-directed film" is no English
      (:func:`textanon.decide.generalization.base.reads_in_compound`)."""
    if not mentions:
        return []
    text, start = mentions[0]
    found = propose(label, text, doc_text, start, max_levels, common_noun, tokens)
    if not found:
        return found
    texts = [g.text for g in found]
    for mention_text, mention_start in mentions:
        end = _end(doc_text, mention_start, " ".join(mention_text.split()))
        if after_plural_quantifier(doc_text, mention_start):
            if not all(reads_after_quantifier(t, doc_text, end) for t in texts):
                return []  # "two [veteran] CIA officers": "two a person CIA officers" is no English; suppressed
        if in_hyphen_compound(doc_text, mention_start, end) and not all(reads_in_compound(t) for t in texts):
            return []  # "the [Robert Zemeckis]-directed film": "the another person-directed film"; suppressed
    works = {g.kind for g in found} == {"works"}
    same = " ".join(text.split())
    for other_text, other_start in mentions[1:]:
        other = [g.text for g in propose(label, other_text, doc_text, other_start, max_levels, common_noun, tokens)]
        if label in CONTEXTUAL:
            if other != texts:
                return []
            continue
        # a name's same words given nothing where they stand ("a [Camden] resident", "[Paris], Texas"): their context
        # refuses the list there (a work's title without its year or "the film" before it is only read less; a common
        # noun's place in a sentence changes its grammar, not what it is)
        refused = label in NAMES and not works and " ".join(other_text.split()) == same
        if (other != texts and (other or refused)) or (
            label in NAMES and _other_kind(label, (text, start), other_text, other_start, doc_text, works)
        ):
            return []
    return found


def _other_kind(
    label: str, first: Tuple[str, int], other_text: str, other_start: int, doc_text: str, works: bool = False
) -> bool:
    """Whether a name's mention at ``other_start`` reads as another kind of thing than the ``first`` (text, start):
    it stands inside a longer name, or one of the two is followed by a release year (a work's title) and the other
    not. With ``works`` (the list is a work's) the year does not count: a film is named with its year once and
    without it later ("Jurassic Park (1993)", "the release of Jurassic Park")."""
    text, start = first
    other_text = " ".join(other_text.split())
    if inside_longer_name(other_text, doc_text, other_start, next_words=label != PERSON):
        return True
    if works:
        return False
    released = followed_by_release(doc_text, _end(doc_text, start, text))
    return released != followed_by_release(doc_text, _end(doc_text, other_start, other_text))
