"""Which generalizer handles which entity: by the TAB label of its mention (dates, numbers, places, organizations,
nationalities and common nouns, persons; codes are never generalized)."""

from typing import List, Sequence, Tuple

from ..labels import DATETIME, DEM, LOC, MISC, ORG, PERSON, QUANTITY
from .base import Generalization
from .dates import generalize_date, mentions_year
from .known import generalize_known
from .nationalities import generalize_nationality
from .nouns import generalize_noun
from .numbers import generalize_number
from .organizations import THING_TYPES, generalize_named_thing
from .persons import generalize_person
from .phrases import generalize_phrase
from .places import generalize_place
from .works import generalize_title

#: characters before a mention read for a bound or an approximation of a number ("more than", "in excess of")
CONTEXT_BEFORE = 24


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
    if label in (MISC, ORG, LOC) or (label == PERSON and not generalize_person(text, doc_text, start)):
        # a name followed by a release year ("Phoenix (2005)" too: a film named after a city), or after "starred
        # in" (not for ORG or LOC): a work's title
        found = generalize_title(text, doc_text, start, works_in_context=label not in (ORG, LOC))
        if found:
            return found[:max_levels]
    preceding = doc_text[max(0, start - CONTEXT_BEFORE) : start] if doc_text else ""
    if label == DATETIME:
        # "age 20" -> "age between 20 and 30"; never a year ("before 1990" is no number between 1000 and 2000)
        found = generalize_date(text, preceding) or ([] if mentions_year(text) else generalize_number(text, preceding))
    elif label == QUANTITY:  # "over [100 films]": the bound before the span is read too
        found = generalize_number(text, preceding)
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
