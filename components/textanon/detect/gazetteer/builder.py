"""Build, write and read the DEM/MISC gazetteer (JSONL, one entry per line).

Output rows: ``{"term", "label", "source", "property_or_synset"}`` — ``term`` is the display form
(WordNet lemma / Wikidata label as written), ``label`` is ``DEM`` or ``MISC``, ``source`` is
``wordnet`` or ``wikidata`` and ``property_or_synset`` the provenance (WordNet synset name such as
``surgeon.n.01``, or Wikidata property and item such as ``P106:Q774306``).

Deduplication: entries are keyed by the normalised term (lower case, single spaces). When a key
comes more than once, the entry with the larger ``weight`` wins — the WordNet sense frequency
(SemCor tag count) of the lemma in its synset, or the number of humans using the Wikidata value
— so "gun" is the weapon (MISC), not the gunman; on equal weight DEM wins over MISC (describing a
person is what DEM is for), and otherwise the first entry (table order / usage order) is kept.
The recogniser matches case-insensitively, so one display form per key is enough.
"""

import json
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Union

from textanon.detect.gazetteer.stoplist import normalize
from textanon.detect.gazetteer.wikidata import wikidata_entries
from textanon.detect.gazetteer.wordnet import wordnet_entries

SOURCES = ("wordnet", "wikidata")
OUTPUT_FIELDS = ("term", "label", "source", "property_or_synset")
LABELS = ("DEM", "MISC")


def _rank(entry: dict) -> tuple:
    return (entry.get("weight", 0) or 0, entry["label"] == "DEM")


def dedupe(entries: Iterable[dict]) -> List[dict]:
    """One entry per normalised term (rule in the module docstring), in first-seen order,
    with only the :data:`OUTPUT_FIELDS`."""
    best: Dict[str, dict] = {}
    for entry in entries:
        key = normalize(entry["term"])
        if not key:
            continue
        current = best.get(key)
        if current is None or _rank(entry) > _rank(current):
            best[key] = entry  # an existing key keeps its first-seen position
    return [{field: entry[field] for field in OUTPUT_FIELDS} for entry in best.values()]


def build_gazetteer(
    source: str = "wordnet",
    *,
    nltk_data: Optional[Union[str, Path]] = None,
    min_count: int = 20,
    limit: Optional[int] = None,
    properties: Optional[Sequence[str]] = None,
    fetch: Optional[Callable[[str], dict]] = None,
    progress: Optional[Callable[[Iterable], Iterable]] = None,
    stats: Optional[Dict[str, int]] = None,
) -> List[dict]:
    """Build the gazetteer entries from ``source``.

    * ``"wordnet"`` (offline): ``nltk_data`` is an NLTK data folder prepared by
      ``python -m textanon.detect.gazetteer.wordnet_data`` (default: ``NLTK_DATA`` / nltk's roots);
    * ``"wikidata"`` (online): ``min_count`` humans per value, at most ``limit`` values per
      property, ``properties`` (default: all of :data:`textanon.detect.gazetteer.wikidata.PROPERTIES`),
      ``fetch`` replaces the HTTP call (tests).

    ``limit`` also caps the WordNet output (first entries in table order), for quick tries.
    ``stats`` (a dict) collects counts of refused candidates by reason.
    """
    if source == "wordnet":
        entries = dedupe(wordnet_entries(nltk_data, progress=progress, stats=stats))
        return entries[:limit] if limit else entries
    if source == "wikidata":
        rows = wikidata_entries(
            properties=properties, min_count=min_count, limit=limit, fetch=fetch, progress=progress, stats=stats
        )
        return dedupe(rows)
    raise ValueError(f"unknown gazetteer source {source!r}; expected one of {', '.join(SOURCES)}")


def count_labels(entries: Iterable[dict]) -> Dict[str, int]:
    """Number of entries per label."""
    counts: Dict[str, int] = {}
    for entry in entries:
        counts[entry["label"]] = counts.get(entry["label"], 0) + 1
    return counts


def write_jsonl(entries: Iterable[dict], path: Union[str, Path]) -> int:
    """Write ``entries`` as UTF-8 JSONL (parents created); return the number of lines."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf8") as fh:
        for entry in entries:
            fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
            n += 1
    tmp.replace(path)
    return n


def read_gazetteer(path: Union[str, Path]) -> List[dict]:
    """Read a gazetteer JSONL file (blank lines skipped); each row needs ``term`` and ``label``."""
    entries = []
    with Path(path).open(encoding="utf8") as fh:
        for i, line in enumerate(fh, start=1):
            line = line.strip()
            if not line:
                continue
            entry = json.loads(line)
            if "term" not in entry or "label" not in entry:
                raise ValueError(f"{path}:{i}: gazetteer row lacks 'term' or 'label'")
            entries.append(entry)
    return entries
