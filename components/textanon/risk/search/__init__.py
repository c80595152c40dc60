"""A search index of public knowledge, for the search risk (``textanon_search_risk``; docs/search.md).

* :mod:`.base` — the protocol the risk component asks (counts, BM25 ranking, per-word scores, a person's
  documents), schema version and tokenizer, clear errors for a missing or incompatible index;
* :mod:`.sqlite_backend`, :mod:`.tantivy_backend` — the embedded backends; :mod:`.backends` opens a folder
  with the one that built it; :mod:`.builder` builds one; :mod:`.bench` measures them;
* :mod:`.source`, :mod:`.registry` — index sources for the component (``textanon.LocalIndex.v1``);
* :mod:`.terms`, :mod:`.information`, :mod:`.candidates`, :mod:`.population`, :mod:`.targeted` — words,
  information content, candidate quasi-identifiers, population risk and targeted risk;
* :mod:`.attach` — pointing a loaded pipeline at an index (``anonymize --index``).
"""
