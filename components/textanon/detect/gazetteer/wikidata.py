"""Online gazetteer entries from Wikidata: values of human-related properties (needs internet).

For each property in :data:`PROPERTIES` the builder asks the public SPARQL endpoint, page by page,
for the values used on at least ``min_count`` humans (``wdt:P31 wd:Q5``), most used first, with
their English label and English aliases. Every label and alias becomes a row
``{"term", "label", "source": "wikidata", "property_or_synset": "P106:Q39631", "weight": n}``
where ``weight`` is the number of humans with that value (the builder keeps the heavier row when
two properties give the same term).

The HTTP call is one function (:func:`fetch_sparql`); tests pass a ``fetch`` that replays a
recorded response, so this module never touches the network unless a user runs it.
"""

import json
import urllib.parse
import urllib.request
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence

from textanon.detect.gazetteer.stoplist import stop_reason

ENDPOINT = "https://query.wikidata.org/sparql"
USER_AGENT = "textanon-gazetteer/0.1 (https://github.com/; spaCy anonymization project)"
PAGE_SIZE = 500

#: property -> (TAB label, what the values are)
PROPERTIES: Dict[str, tuple] = {
    "P106": ("DEM", "occupation"),
    "P39": ("DEM", "position held"),
    "P410": ("DEM", "military rank"),
    "P140": ("DEM", "religion"),
    "P172": ("DEM", "ethnic group"),
    "P1142": ("DEM", "political ideology"),
    "P102": ("DEM", "member of political party"),
    "P103": ("DEM", "native language"),
    "P27": ("DEM", "country of citizenship (demonym via label)"),
    "P512": ("DEM", "academic degree"),
    "P812": ("DEM", "academic major / field"),
    "P101": ("DEM", "field of work"),
    "P509": ("MISC", "cause of death"),
    "P1399": ("MISC", "convicted of"),
    "P1050": ("MISC", "medical condition"),
    "P166": ("MISC", "award received"),
    "P641": ("MISC", "sport"),
    "P1303": ("MISC", "instrument"),
    "P1344": ("MISC", "participant in (events)"),
    "P793": ("MISC", "significant event"),
}

QUERY = """SELECT ?value ?n ?label (GROUP_CONCAT(DISTINCT ?alias; separator="|") AS ?aliases) WHERE {{
  {{ SELECT ?value (COUNT(DISTINCT ?person) AS ?n) WHERE {{
       ?person wdt:P31 wd:Q5 ; wdt:{prop} ?value .
     }} GROUP BY ?value HAVING (COUNT(DISTINCT ?person) >= {min_count})
     ORDER BY DESC(?n) ?value LIMIT {limit} OFFSET {offset} }}
  ?value rdfs:label ?label . FILTER(LANG(?label) = "en")
  OPTIONAL {{ ?value skos:altLabel ?alias . FILTER(LANG(?alias) = "en") }}
}} GROUP BY ?value ?n ?label ORDER BY DESC(?n) ?value"""


def build_query(prop: str, min_count: int, limit: int, offset: int) -> str:
    """The SPARQL query for one page of values of ``prop``."""
    if not prop.startswith("P") or not prop[1:].isdigit():
        raise ValueError(f"not a Wikidata property id: {prop!r}")
    return QUERY.format(prop=prop, min_count=int(min_count), limit=int(limit), offset=int(offset))


def fetch_sparql(query: str, timeout: float = 120.0) -> dict:
    """Run ``query`` on the public endpoint and return the decoded JSON response."""
    url = ENDPOINT + "?" + urllib.parse.urlencode({"query": query, "format": "json"})
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept": "application/sparql-results+json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read().decode("utf8"))


def parse_bindings(response: dict) -> List[dict]:
    """``[{"qid", "n", "label", "aliases"}]`` from a SPARQL JSON response."""
    rows = []
    for b in response.get("results", {}).get("bindings", []):
        value = b.get("value", {}).get("value", "")
        label = b.get("label", {}).get("value")
        if not value or not label:
            continue
        aliases = [a for a in b.get("aliases", {}).get("value", "").split("|") if a]
        rows.append(
            {
                "qid": value.rsplit("/", 1)[-1],
                "n": int(float(b.get("n", {}).get("value", 0))),
                "label": label,
                "aliases": aliases,
            }
        )
    return rows


def iter_property_values(
    prop: str,
    *,
    min_count: int,
    limit: Optional[int] = None,
    page_size: int = PAGE_SIZE,
    fetch: Callable[[str], dict] = fetch_sparql,
) -> Iterator[dict]:
    """All values of ``prop`` (paged until a short page or ``limit`` values)."""
    offset, seen = 0, 0
    while True:
        size = page_size if limit is None else min(page_size, limit - seen)
        if size <= 0:
            return
        rows = parse_bindings(fetch(build_query(prop, min_count, size, offset)))
        yield from rows
        seen += len(rows)
        offset += size
        if len(rows) < size:
            return


def wikidata_entries(
    properties: Optional[Sequence[str]] = None,
    *,
    min_count: int = 20,
    limit: Optional[int] = None,
    fetch: Optional[Callable[[str], dict]] = None,
    progress: Optional[Callable[[Iterable], Iterable]] = None,
    stats: Optional[Dict[str, int]] = None,
) -> List[dict]:
    """Gazetteer rows for ``properties`` (default all of :data:`PROPERTIES`), not yet deduplicated."""
    props = list(properties or PROPERTIES)
    unknown = [p for p in props if p not in PROPERTIES]
    if unknown:
        raise ValueError(f"no TAB label defined for Wikidata properties {unknown}; known: {sorted(PROPERTIES)}")
    stats = stats if stats is not None else {}
    fetch = fetch or fetch_sparql
    out: List[dict] = []
    for prop in progress(props) if progress else props:
        label = PROPERTIES[prop][0]
        for value in iter_property_values(prop, min_count=min_count, limit=limit, fetch=fetch):
            for term in [value["label"], *value["aliases"]]:
                term = " ".join(term.split())
                reason = stop_reason(term)
                if reason is not None:
                    stats[reason] = stats.get(reason, 0) + 1
                    continue
                out.append(
                    {
                        "term": term,
                        "label": label,
                        "source": "wikidata",
                        "property_or_synset": f"{prop}:{value['qid']}",
                        "weight": value["n"],
                    }
                )
    return out


__all__ = ["PROPERTIES", "build_query", "fetch_sparql", "parse_bindings", "iter_property_values", "wikidata_entries"]
