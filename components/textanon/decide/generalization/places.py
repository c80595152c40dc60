"""Places: a city becomes "a city in <US state / country>" -> "a city in <country>" -> "a city in <continent>" ->
"a city"; a US state "a US state" -> "a place in North America"; a country "a country in <continent>" -> "a
country". Each level lists the names it covers (``members``: every US state; a state and its largest cities; a
country and its largest cities; a continent's countries), whose documents the index risk counts as the level's.
A city name shared by cities of comparable size in different places ("Birmingham") gets "a city" only, which is
true of every one of them. Data: :mod:`.gazetteer` (GeoNames, offline).

A name the gazetteer knows is not always a place where it stands: "she starred in Alice" (a film; Alice is also a
city in Texas), "her sister Alice". So no place is proposed for a name in a title context (:func:`.context.
title_context`) or right after a word that says a person's name follows ("sister", "actress", "opposite", "directed
by": :mod:`.persons`), nor for a one-word name that is a common given name (:func:`given_names`), nor for a small
town whose name is made of everyday words ("West End": :data:`COMMON_WORDS_MIN_POPULATION`): the optimizer
suppresses it."""

import re
from functools import lru_cache
from typing import FrozenSet, List

from textanon.decide.generalization.base import Generalization, levels
from textanon.decide.generalization.context import title_context, words_before
from textanon.decide.generalization.geonames import CONTINENTS, geonames
from textanon.decide.generalization.persons import BY_PERSON, NEXT_IS_PERSON, PERSON_CUES, everyday_word
from textanon.render.pseudonyms import vocabulary

#: a city whose name is made of everyday words only ("West End", "Long Beach") is taken for that city only when it
#: has at least this many inhabitants: the words name districts, streets and venues far more often than a town
COMMON_WORDS_MIN_POPULATION = 100_000


def everyday_words(text: str) -> bool:
    """Whether every word of ``text`` is an everyday English word ("West End", "Long Beach", "Salt Lake City")."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", text)
    return bool(words) and all(everyday_word(w) for w in words)


@lru_cache(maxsize=1)
def given_names() -> FrozenSet[str]:
    """Common given names (lower case), from the built-in pseudonym vocabulary (:mod:`textanon.render.pseudonyms`)."""
    data = vocabulary()
    return frozenset(n.lower() for key in ("given_female", "given_male") for n in data.get(key, []))


def place_context(text: str, doc_text: str = "", start: int = 0) -> bool:
    """Whether ``text`` (at ``start`` of ``doc_text``) may be read as a place: not a one-word given name, not in a
    title or person context (module docstring)."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", text)
    if len(words) == 1 and words[0].lower() in given_names():
        return False
    if not doc_text:
        return True
    last = words_before(doc_text, start, 2)
    person = bool(last) and (last[-1] in PERSON_CUES or last[-1] in NEXT_IS_PERSON or tuple(last) in BY_PERSON)
    return not (person or title_context(doc_text, start))


def generalize_place(text: str, doc_text: str = "", start: int = 0) -> List[Generalization]:
    """Generalizations of the place name ``text`` at ``start`` of ``doc_text`` (empty when the gazetteer does not
    know it, or the name may not be a place there: :func:`place_context`)."""
    if not place_context(text, doc_text, start):
        return []
    gaz = geonames()
    country = gaz.country(text)
    if country is not None:
        covered = gaz.members(continent=country.continent)
        return levels([f"a country in {CONTINENTS[country.continent][0]}", "a country"], "places", text, [covered])
    if gaz.us_state(text):
        states = gaz.us_states()
        return levels(
            ["a US state", "a place in North America"],
            "places",
            text,
            [states, states + gaz.members(continent="NA")],
        )
    cities = gaz.city(text)
    if not cities:
        return []
    if everyday_words(text) and cities[0].population < COMMON_WORDS_MIN_POPULATION:
        return []  # "West End" (London's theatres; a town in Canada), "Green Valley": a phrase more than a town
    if len(cities) > 1:
        return levels(["a city"], "places", text)
    city = cities[0]
    continent = CONTINENTS[city.country.continent][0]
    out = [f"a city in {city.state}"] if city.state else []
    members = [gaz.state_members(city.state)] if city.state else []
    out += [f"a city in {city.country.phrase}", f"a city in {continent}", "a city"]
    members += [gaz.members(city.country), gaz.members(continent=city.country.continent)]
    return levels(out, "places", text, members)
