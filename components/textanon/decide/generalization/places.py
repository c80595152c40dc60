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
suppresses it. Nor is a city generalized where the text puts it elsewhere (:func:`contradicted`: "Paris, Texas",
"Whitefield, Bengaluru"; :func:`contained_in_other`: "Toronto, Ontario"), nor a name that is a country and a US state
("Georgia"), nor any place where it modifies the noun after it ("a Chicago theatre company", "the Qatar national
team", "a California plate": "the country in Asia national team" is no English)."""

import re
from functools import lru_cache
from typing import FrozenSet, List

from textanon.decide.generalization.base import Generalization, levels, modifies_noun_after
from textanon.decide.generalization.context import title_context, words_before
from textanon.decide.generalization.geonames import CONTINENTS, geonames
from textanon.decide.generalization.persons import BY_PERSON, NEXT_IS_PERSON, PERSON_CUES, everyday_word
from textanon.render.pseudonyms import vocabulary

#: a city whose name is made of everyday words only ("West End", "Long Beach") is taken for that city only when it
#: has at least this many inhabitants: the words name districts, streets and venues far more often than a town
COMMON_WORDS_MIN_POPULATION = 100_000


#: nouns that say when, not what, after a place ("in Chicago today"): the place modifies none of them
_TIME_AFTER = re.compile(r"[ \t]+(?:today|tonight|yesterday|tomorrow|overnight|meanwhile)\b")


#: a plural's possessive after a place, which the place modifies ("the Mexico women's team", "a Texas children's
#: hospital")
_POSSESSIVE_PLURAL_AFTER = re.compile(r"[ \t]+(?:wo)?men['’]s\b|[ \t]+children['’]s\b|[ \t]+[a-z]+s['’](?!\w)")


def _modifies_noun_after(doc_text: str, end: int) -> bool:
    """Whether the place ending at ``end`` modifies the noun after it ("a Chicago theatre company", "the Qatar national
    team", "the Mexico women's team"), not a word that says when ("in Chicago today")."""
    if _TIME_AFTER.match(doc_text, end):
        return False
    return modifies_noun_after(doc_text, end) or _POSSESSIVE_PLURAL_AFTER.match(doc_text, end) is not None


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
    end = start + len(text)
    if doc_text and _modifies_noun_after(doc_text, end):
        return []  # "the Qatar national team", "a California plate": "the country in Asia national team" is no English
    country = gaz.country(text)
    if country is not None and gaz.us_state(text):
        return []  # "Georgia": the country or the US state ("Atlanta, Georgia"); neither level is true of both
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
    if doc_text and (contradicted(city, doc_text, end) or contained_in_other(city, doc_text, start)):
        return []  # "Whitefield, Bengaluru" (a town in England by the gazetteer), "Paris, Texas", "Toronto, Ontario"
    continent = CONTINENTS[city.country.continent][0]
    out = [f"a city in {city.state}"] if city.state else []
    members = [gaz.state_members(city.state)] if city.state else []
    out += [f"a city in {city.country.phrase}", f"a city in {continent}", "a city"]
    members += [gaz.members(city.country), gaz.members(continent=city.country.continent)]
    if doc_text and named_after(city, doc_text, end):
        return levels(["a city"], "places", text)  # "Skokie, Illinois": never "a city in Illinois, Illinois"
    return levels(out, "places", text, members)


#: the place a text names right after a city, after a comma ("Whitefield, Bengaluru", "Paris, Texas"): up to four
#: capitalized words
_PLACE_AFTER = re.compile(r",[ \t]*([A-Z][\w.'’-]*(?:[ \t]+[A-Z][\w.'’-]*){0,3})")
#: a city named after a comma says where the place before it is only when it is this large ("Ontario" is also a city
#: in California: "Toronto, Ontario" says nothing against Toronto)
CONTAINING_CITY_MIN_POPULATION = 1_000_000


def named_after(city, doc_text: str, end: int) -> bool:
    """Whether the text names ``city``'s own US state or country right after its name (ending at ``end``), after a
    comma ("Skokie, Illinois", "Lyon, France"): a level "a city in <that place>" would say it twice ("a city in
    Illinois, Illinois"), so the city is generalized to "a city", the place after it still saying where."""
    for _name, country, state in _places_after(doc_text, end):
        if country is not None or state is not None:
            return (country is not None and country.iso == city.country.iso) or (
                state is not None and city.country.iso == "US" and city.state == state
            )
    return False


def _places_after(doc_text: str, end: int):
    """``(name, country, US state)`` of each name after the comma right after ``end`` (:data:`_PLACE_AFTER`), longest
    first (a sentence's full stop left out: "..., Texas."; an abbreviation's kept: "U.S."); none when no comma
    follows."""
    m = _PLACE_AFTER.match(doc_text, end, min(len(doc_text), end + 80))
    if m is None:
        return
    gaz = geonames()
    words = m.group(1).split()
    for n in range(len(words), 0, -1):
        name = " ".join(words[:n])
        if name.endswith(".") and not re.search(r"\.\w", name):
            name = name[:-1]
        yield name, gaz.country(name), gaz.us_state(name)


def contradicted(city, doc_text: str, end: int) -> bool:
    """Whether the place the text names after ``city``'s name (ending at ``end``), after a comma, says that the
    gazetteer's city is not the one meant: a country or US state that is not the city's ("Paris, Texas"), or a large
    city (:data:`CONTAINING_CITY_MIN_POPULATION`) of another country ("Whitefield, Bengaluru": the gazetteer knows a
    Whitefield in England only). The longest name the gazetteer knows is read; an unknown one says nothing."""
    for name, country, state in _places_after(doc_text, end):
        if country is not None or state is not None:
            same_country = country is not None and country.iso == city.country.iso
            same_state = state is not None and city.country.iso == "US" and city.state in (None, state)
            return not (same_country or same_state)
        others = [c for c in geonames().cities_named(name) if c.population >= CONTAINING_CITY_MIN_POPULATION]
        if others:
            return all(c.country.iso != city.country.iso for c in others)
    return False


#: the place a text names right before a city's name and a comma ("Toronto, Ontario"): up to four capitalized words
_PLACE_BEFORE = re.compile(r"([A-Z][\w.'’-]*(?:[ \t]+[A-Z][\w.'’-]*){0,3}),[ \t]*\Z")


def contained_in_other(city, doc_text: str, start: int) -> bool:
    """Whether the name at ``start``, which the gazetteer reads as ``city``, stands where a text names the region
    around the place before it and is no city of that place's country: "Toronto, Ontario" (a province; the gazetteer
    knows a city Ontario in California). A large city (:data:`CONTAINING_CITY_MIN_POPULATION`) is taken as a city
    ("Whitefield, Bengaluru"); a place before it that the gazetteer does not know says nothing."""
    if city.population >= CONTAINING_CITY_MIN_POPULATION:
        return False
    m = _PLACE_BEFORE.search(doc_text, max(0, start - 80), start)
    if m is None:
        return False
    gaz = geonames()
    words = m.group(1).split()
    for n in range(len(words), 0, -1):
        before = gaz.city(" ".join(words[-n:]))
        if before:
            return all(c.country.iso != city.country.iso for c in before)
    return False
