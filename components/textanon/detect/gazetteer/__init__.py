"""Gazetteer of person attributes (DEM / MISC) for ``textanon_entity_recognizer``.

* :mod:`.wordnet_data` — offline WordNet 3.0 corpus for nltk from Debian's files;
* :mod:`.wordnet` — entries from WordNet hyponym trees (offline, the default);
* :mod:`.wikidata` — entries from Wikidata property values used on humans (online);
* :mod:`.stoplist` — generic / ambiguous terms kept out;
* :mod:`.builder` — ``build_gazetteer``, ``write_jsonl``, ``read_gazetteer``.
"""

from textanon.detect.gazetteer.builder import build_gazetteer, count_labels, dedupe, read_gazetteer, write_jsonl

__all__ = ["build_gazetteer", "count_labels", "dedupe", "read_gazetteer", "write_jsonl"]
