"""The benchmark's search-risk rows (indexes, ablation, sweep) and the retrieval judges' columns for every row
(no pipeline runs: the isolated systems are replaced by a recorder; a bag-of-words stand-in for MiniLM)."""

import pytest
from fake_models import VocabularyEncoder
from two_actors import TWO_ACTORS

from textanon_lab.benchmarks import harness, judges
from textanon_lab.benchmarks import search_rows as search

RECORDS = TWO_ACTORS


@pytest.fixture
def recorded(monkeypatch):
    """run_isolated replaced: records each call; the search system masks nothing, mask-all masks everything."""
    calls = []

    def fake(name, docs, **kwargs):
        calls.append((name, kwargs))
        if name == "textanon_search":
            runs = [{"masks": {d: [] for d, _, _ in docs}, "seconds": 1.0} for _ in kwargs["variants"]]
            return {"masks": {"runs": runs}, "seconds": 2.0, "load_s": 1.0, "peak_rss_mb": 10.0}
        return {"masks": {d: [[0, len(t)]] for d, t, _ in docs}, "seconds": 1.0, "load_s": 1.0, "peak_rss_mb": 5.0}

    for module in ("harness", "search_rows", "generalization"):  # each imports run_isolated by name
        monkeypatch.setattr(f"textanon_lab.benchmarks.{module}.run_isolated", fake)
    return calls


def test_search_rows_one_per_index_ablation_and_sweep_on_the_headline(recorded):
    bench = search.SearchBench("pipe", {"bk25": "idx/a", "full": "idx/b"}, sweep=[{"k": 2}, {"k_rank": 9}])
    systems = search.search_systems(RECORDS, bench)
    assert list(systems) == [
        search.TARGET_ONLY,
        search.MASK_ALL,
        "search ablation: + candidates (all masked)",
        "search ablation: + population risk",
        "search ablation: + targeted risk (index only)",
        "textanon search-risk (index bk25)",
        "textanon search-risk (index full)",
        "search sweep k=2",
        "search sweep k_rank=9",
    ]
    (first, second, mask_all) = recorded
    assert first[0] == "textanon_search" and first[1]["index"] == "idx/a" and first[1]["model"] == "pipe"
    assert first[1]["variants"] == [{}] + [s for _, s in search.ABLATION] + [{"k": 2}, {"k_rank": 9}]
    assert mask_all == ("textanon_mask_all", {"model": "pipe"})  # the search pipeline's recognizer
    assert second[1]["index"] == "idx/b" and second[1]["variants"] == [{}]  # other indexes: the headline settings
    assert systems[search.TARGET_ONLY]["masks"] == {"Ann Vell": [], "Bo Lind": []}
    cand = dict(search.ABLATION)["+ candidates (all masked)"]
    assert cand["k"] > 10**5 and cand["targeted_risk"] is False  # every proposed span is a population risk
    assert systems["search sweep k=2"]["search_settings"] == {"k": 2}
    assert systems["textanon search-risk (index full)"]["seconds"] == 1.0  # each variant timed apart


def test_search_rows_need_an_index():
    with pytest.raises(ValueError, match="at least one index"):
        search.search_systems(RECORDS, search.SearchBench("pipe", {}))


def test_judge_columns_for_every_row_published_included(tmp_path):
    systems = {
        "nothing masked": {"texts": {r.name: r.original for r in RECORDS}},
        "everything masked": {"texts": {r.name: "*** *** ***" for r in RECORDS}},
        "manual (published)": {"texts": {"Ann Vell": "SENSITIVE played a harbour pilot."}, "published": True},
    }
    rows = [{"system": name} for name in systems]
    info = judges.add_judge_columns(
        RECORDS, systems, rows, cache_dir=tmp_path, encoder=VocabularyEncoder(r.background for r in RECORDS)
    )
    by = {r["system"]: r for r in rows}
    assert by["nothing masked"]["bm25_reid"] == 100.0 and by["nothing masked"]["dense_reid"] == 100.0
    assert by["everything masked"]["bm25_reid"] == 0.0 and by["everything masked"]["dense_reid"] == 0.0
    assert by["manual (published)"]["bm25_reid"] == 100.0  # one text, its person ranked first
    assert info["pool"] == 2 and "bm25" in info["bm25_reid"].lower()


def test_markdown_shows_the_judges_the_ablation_and_the_sweep():
    bench = search.SearchBench("pipe", {"bk25": "a"}, sweep=[{"k": 2}])
    rows = [
        {"system": name, "trir": None, "tpi": 0.5, "bm25_reid": 40.0, "dense_reid": 20.0, "masked_share": 0.5}
        for name in [search.TARGET_ONLY, search.MASK_ALL, "textanon search-risk (index bk25)", "search sweep k=2"]
    ]
    result = {
        "rows": rows,
        "throughput_ratio_vs_presidio": {
            "default_pipeline": None,
            "fastest_variant": None,
            "fastest_variant_name": None,
        },
        "settings": {"search": bench.settings(), "judges": {"pool": 50}, "trir": "not run"},
    }
    text = harness.markdown(result)
    assert "BM25 judge %" in text.splitlines()[0] and "MiniLM judge %" in text.splitlines()[0]
    assert "Ablation on the headline index (bk25)" in text and "| target name only | 40.0 | 20.0 |" in text
    assert "| + the configured search risk (headline) | 40.0 |" in text
    assert "Sweep on the headline index" in text and "| k=2 | 40.0 |" in text
    assert "among the 50 evaluated people" in text


def test_search_bench_from_the_command_line_specs():
    bench = search.search_bench("pipe", ["bk25=corpus/a", "full=corpus/b"], sweep=False)
    assert bench.indexes == {"bk25": "corpus/a", "full": "corpus/b"} and bench.sweep == ()
    assert bench.settings()["headline_index"] == "bk25"
    for pipeline, specs in (("pipe", []), (None, ["bk25=a"]), ("pipe", ["bk25"])):
        with pytest.raises(ValueError, match="--search-pipeline and at least one --index"):
            search.search_bench(pipeline, specs)
