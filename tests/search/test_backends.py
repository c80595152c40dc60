"""The public-knowledge index: build, open, clear errors, hit counts and BM25 ranking, for each backend."""

import json

import pytest
from core_fixtures import FIXTURES
from input_files import write_jsonl

from textanon.risk.search.backends import BACKENDS, open_index
from textanon.risk.search.base import META_FILE, SCHEMA_VERSION, TOKENIZER, IndexIncompatible, IndexMissing
from textanon.risk.search.builder import build_index
from textanon.risk.search.terms import query_words

FIXTURE = FIXTURES / "search_public.json"


def _backends():
    out = []
    for name in BACKENDS:
        marks = []
        if name == "tantivy":
            try:
                import tantivy  # noqa: F401
            except ImportError:
                marks = [pytest.mark.skip(reason="tantivy is not installed")]
        out.append(pytest.param(name, marks=marks))
    return out


@pytest.fixture(params=_backends())
def index(request, tmp_path):
    build_index(FIXTURE, tmp_path / "idx", backend=request.param, progress=False)
    return open_index(tmp_path / "idx")


def test_meta_records_schema_and_tokenizer(index):
    assert index.n_docs == 8
    assert index.meta["schema_version"] == SCHEMA_VERSION and index.meta["tokenizer"] == TOKENIZER
    assert index.meta["documents"] == 8 and index.meta["persons"] == 8


def test_hit_counts_are_conjunctive_phrase_counts(index):
    assert index.count(["University of Oslo"]) == 3
    assert index.count(["Oslo University"]) == 0  # a phrase, not a bag of words
    assert index.count(["University of Oslo", "Bergen"]) == 2
    assert index.count(["University of Oslo", "Bergen", "nurse"]) == 1
    assert index.count(["Glass Harbour"]) == 2
    assert index.count(["renee"]) == index.count(["Renée"]) == 1  # diacritics folded, any case
    assert index.count(['"AND" OR *']) == 0  # operators are words, never syntax


def test_any_counts_are_ands_of_ors_of_phrases(index):
    """``count_any``: documents holding one phrase of every group (the generalization's members)."""
    assert index.count_any([["University of Oslo"]]) == index.count(["University of Oslo"])
    assert index.count_any([["University of Oslo", "Glass Harbour"]]) >= max(
        index.count(["University of Oslo"]), index.count(["Glass Harbour"])
    )
    assert index.count_any([["University of Oslo"], ["Bergen", "nurse"]]) >= index.count(
        ["University of Oslo", "Bergen"]
    )
    assert index.count_any([["University of Oslo"], ["Bergen"]]) == index.count(["University of Oslo", "Bergen"])
    assert index.count_any([]) == index.n_docs


def test_documents_of_a_person(index):
    assert len(index.documents_of("Milo Castraven")) == 1
    assert index.documents_of("milo  CASTRAVEN") == index.documents_of("Milo Castraven")
    assert index.documents_of("Nobody Here") == []


def test_bm25_ranks_the_person_first_and_scores_add_up(index):
    target = index.documents_of("Milo Castraven")[0]
    words = query_words("an Irish actor who grew up in Cork and played a lawyer for the BBC")
    hits = index.search(words, 5)
    assert hits[0][0] == target
    assert all(a[1] >= b[1] for a, b in zip(hits, hits[1:]))
    docs = [d for d, _ in hits]
    total = {d: 0.0 for d in docs}
    for w in words:
        for d, s in index.term_scores(w, docs).items():
            total[d] += s
    assert all(abs(total[d] - s) < 1e-3 * max(1.0, s) for d, s in hits)  # BM25 is a sum over query words


def test_missing_index_is_a_clear_error(tmp_path):
    with pytest.raises(IndexMissing, match="index build"):
        open_index(tmp_path / "nothing")


@pytest.mark.parametrize(
    "change", [{"schema_version": SCHEMA_VERSION + 1}, {"tokenizer": "whitespace"}, {"backend": "elasticsearch"}]
)
def test_incompatible_index_is_a_clear_error(tmp_path, change):
    build_index(FIXTURE, tmp_path / "idx", progress=False)
    meta = json.loads((tmp_path / "idx" / META_FILE).read_text())
    (tmp_path / "idx" / META_FILE).write_text(json.dumps(dict(meta, **change)))
    with pytest.raises(IndexIncompatible, match="rebuild"):
        open_index(tmp_path / "idx")


def test_unreadable_meta_is_incompatible(tmp_path):
    build_index(FIXTURE, tmp_path / "idx", progress=False)
    (tmp_path / "idx" / META_FILE).write_text("{not json")
    with pytest.raises(IndexIncompatible):
        open_index(tmp_path / "idx")


def test_jsonl_and_text_folder_inputs(tmp_path):
    rows = [
        {"id": "a", "text": "Ann Dowell wrote a novel about Cork.", "name": "Ann Dowell"},
        {"id": "b", "text": "A report on the harbour of Cork."},
        {"id": "c", "text": ""},
    ]
    meta = build_index(write_jsonl(tmp_path / "in.jsonl", rows), tmp_path / "idx", progress=False)
    assert (meta["documents"], meta["persons"], meta["skipped_records"]) == (2, 1, 1)
    index = open_index(tmp_path / "idx")
    assert index.count(["Cork"]) == 2 and len(index.documents_of("Ann Dowell")) == 1
    folder = tmp_path / "txt"
    folder.mkdir()
    (folder / "one.txt").write_text("The harbour of Cork.")
    (folder / "two.txt").write_text("A novel.")
    assert build_index(folder, tmp_path / "idx2", progress=False)["documents"] == 2
    assert open_index(tmp_path / "idx2").count(["harbour"]) == 1


def test_an_index_without_some_people(tmp_path):
    from textanon.risk.search.builder import persons_in

    (tmp_path / "evaluated.json").write_text(json.dumps([{"name": "Milo Castraven", "original_abstract": "x"}]))
    left_out = persons_in(tmp_path / "evaluated.json")
    assert left_out == {"Milo Castraven"}
    meta = build_index(FIXTURE, tmp_path / "idx", progress=False, exclude_persons=left_out)
    index = open_index(tmp_path / "idx")
    assert meta["excluded_documents"] == 1 and index.n_docs == 7 and meta["persons"] == 7
    assert index.documents_of("Milo Castraven") == [] and index.count(["Castraven"]) == 0
