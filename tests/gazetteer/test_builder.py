"""Gazetteer builder: Wikidata path on recorded SPARQL responses, WordNet path on the Debian files."""

import json
import os
from pathlib import Path

import pytest
from core_fixtures import FIXTURES

from textanon.detect.gazetteer import build_gazetteer, read_gazetteer, write_jsonl
from textanon.detect.gazetteer.stoplist import stop_reason
from textanon.detect.gazetteer.wikidata import build_query, iter_property_values


def recorded_fetch(calls):
    """Replay the fixture page for the property in the query; later pages are empty."""

    def fetch(query):
        calls.append(query)
        prop = "P106" if "wdt:P106" in query else "P509"
        if "OFFSET 0" not in query:
            return {"results": {"bindings": []}}
        return json.loads((FIXTURES / f"wikidata_sparql_{prop.lower()}.json").read_text())

    return fetch


def test_query_is_paged_and_rejects_bad_property():
    q = build_query("P106", min_count=20, limit=500, offset=1000)
    assert "wdt:P106" in q and "LIMIT 500" in q and "OFFSET 1000" in q and ">= 20" in q
    with pytest.raises(ValueError):
        build_query("106; DROP", 1, 1, 0)


def test_paging_stops_on_short_page():
    calls = []
    rows = list(iter_property_values("P106", min_count=5, page_size=3, fetch=recorded_fetch(calls)))
    assert [r["qid"] for r in rows] == ["Q33999", "Q39631", "Q215627"]
    assert len(calls) == 2  # full page of 3, then an empty one


def test_wikidata_entries_labels_aliases_provenance_and_stoplist():
    calls = []
    entries = build_gazetteer("wikidata", properties=["P106", "P509"], min_count=1, fetch=recorded_fetch(calls))
    by_term = {e["term"]: e for e in entries}
    assert by_term["actor"] == {
        "term": "actor",
        "label": "DEM",
        "source": "wikidata",
        "property_or_synset": "P106:Q33999",
    }
    assert by_term["medical doctor"]["label"] == "DEM"
    assert by_term["heart attack"]["label"] == "MISC"
    assert by_term["heart attack"]["property_or_synset"] == "P509:Q12152"
    # "physician" comes from both properties: the value used on more humans (P106) wins
    assert by_term["physician"]["property_or_synset"] == "P106:Q39631"
    assert "person" not in by_term  # stop list


def test_unknown_property_and_source_are_errors():
    with pytest.raises(ValueError):
        build_gazetteer("wikidata", properties=["P9999999"], fetch=lambda q: {})
    with pytest.raises(ValueError):
        build_gazetteer("dbpedia")


def test_stoplist_refuses_generic_terms_but_keeps_attributes():
    assert stop_reason("person") and stop_reason("Man") and stop_reason("the") and stop_reason("12")
    assert stop_reason("surgeon") is None and stop_reason("Buddhist") is None
    # "temp password", "temp file": the adjective far more often than the worker ("worker password" was written)
    assert stop_reason("temp") == "ambiguous" and stop_reason("temps") == "ambiguous"


def test_jsonl_roundtrip(tmp_path):
    rows = [{"term": "surgeon", "label": "DEM", "source": "wordnet", "property_or_synset": "surgeon.n.01"}]
    path = tmp_path / "g.jsonl"
    assert write_jsonl(rows, path) == 1
    assert read_gazetteer(path) == rows


NLTK_DATA = os.environ.get("NLTK_DATA")


@pytest.mark.skipif(
    not (NLTK_DATA and (Path(NLTK_DATA) / "corpora/wordnet/lexnames").exists()),
    reason="WordNet data not prepared (make gazetteer does it)",
)
def test_wordnet_gazetteer_has_both_categories_and_no_generic_terms():
    entries = build_gazetteer("wordnet", nltk_data=NLTK_DATA)
    by_term = {e["term"].lower(): e for e in entries}
    assert len(entries) > 5000
    for term in ("surgeon", "lieutenant", "buddhist", "french"):
        assert by_term[term]["label"] == "DEM", term
    for term in ("murder", "pneumonia", "revolver"):
        assert by_term[term]["label"] == "MISC", term
    for term in ("person", "man", "time", "applicant"):
        assert term not in by_term
    assert all(e["source"] == "wordnet" and e["property_or_synset"] for e in entries)
