"""Places: a city becomes "a city in <US state / country>" -> "a city in <country>" -> "a city in <continent>" ->
"a city"; a US state "a US state" -> "a place in North America"; a country "a country in <continent>" -> "a
country". A city name shared by cities of comparable size in different places ("Birmingham") gets "a city" only,
which is true of every one of them. Data: :mod:`.gazetteer` (GeoNames, offline)."""

from typing import List

from .base import Generalization, levels
from .gazetteer import CONTINENTS, geonames


def generalize_place(text: str) -> List[Generalization]:
    """Generalizations of the place name ``text`` (empty when the gazetteer does not know it)."""
    gaz = geonames()
    country = gaz.country(text)
    if country is not None:
        covered = gaz.members(continent=country.continent)
        return levels([f"a country in {CONTINENTS[country.continent][0]}", "a country"], "places", text, [covered])
    if gaz.us_state(text):
        return levels(["a US state", "a place in North America"], "places", text)
    cities = gaz.city(text)
    if not cities:
        return []
    if len(cities) > 1:
        return levels(["a city"], "places", text)
    city = cities[0]
    continent = CONTINENTS[city.country.continent][0]
    out = [f"a city in {city.state}"] if city.state else []
    members = [[city.state]] if city.state else []
    out += [f"a city in {city.country.phrase}", f"a city in {continent}", "a city"]
    members += [gaz.members(city.country), gaz.members(continent=city.country.continent)]
    return levels(out, "places", text, members)
