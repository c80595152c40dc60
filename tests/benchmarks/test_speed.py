"""bench-speed / bench-long: the table from the isolated runs (stand-ins), and the long document."""

import json

from core_fixtures import FIXTURES

from textanon.benchmarks import speed

TAB = FIXTURES / "tab_small.json"
WIKI = FIXTURES / "wikiactors_tiny.json"


def fake_runs(calls):
    """run_isolated_sets stand-in: Presidio takes 1 s per corpus, textanon 2 s (4 s with 2 processes)."""

    def run(system, doc_sets, **settings):
        calls.append((system, settings))
        seconds = 1.0 if system == "presidio" else 4.0 if settings.get("n_process") == 2 else 2.0
        timings = None if system == "presidio" else {"ner": 0.5, "textanon_lm_risk": seconds - 0.5}
        return [
            {
                "masks": {"masks": {}, "seconds_per_component": timings, "errors": 0} if timings else {},
                "seconds": seconds,
                "cpu_seconds": seconds,
                "load_s": 3.0,
                "peak_rss_mb": 500.0,
                "peak_rss_workers_mb": 0.0,
            }
            for _ in doc_sets
        ]

    return run


def test_configurations_are_interleaved_and_compared_with_presidio(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr("textanon.benchmarks.systems.run_isolated_sets", fake_runs(calls))
    startup = {"m": {"load_s": 1.5, "first_record_s": 2.5, "cli_s": 4.0, "repeats": 3}}
    monkeypatch.setattr("textanon.benchmarks.startup.measure_startup", lambda python, models: startup)
    results, table = speed.bench_speed(tmp_path / "speed.json", model="m", wikiactors=WIKI, echr=TAB, repeats=2)
    labels = list(results["configurations"])
    assert len(labels) == 5 and labels[-1].startswith("Presidio")  # no index given: no search row
    assert [c[0] for c in calls[:5]] == ["textanon_timed"] * 4 + ["presidio"]
    assert calls[1][1]["profile"] == "fast" and calls[2][1]["profile"] == "lm"
    assert calls[5][0] == "textanon_timed" and calls[9][0] == "textanon_timed"  # the order rotates
    one = results["configurations"][labels[0]]["echr_dev_27"]
    assert one["ratio_to_presidio"] == 0.5 and one["seconds_per_component"]["ner"] == 0.5
    assert one["docs_per_s"] == results["corpora"]["echr_dev_27"]["docs"] / 2.0
    assert results["configurations"][labels[1]]["echr_dev_27"]["ratio_to_presidio"] == 0.25
    assert "| 0.5× |" in table and json.loads((tmp_path / "speed.json").read_text())["provenance"]
    assert (tmp_path / "speed.md").read_text() == table
    assert results["startup"]["pipelines"] == startup and "| m | 1.5 | 2.5 | 4.0 |" in table


def test_long_document_has_the_length_asked_and_other_names_in_each_copy():
    text = speed.long_document(TAB, 2000)
    assert len(text) == 2000
    first = json.loads(TAB.read_text())[0]["text"]
    assert text.startswith(first)
    assert text.count("John Smith") == first.count("John Smith")  # only the first copy keeps the names
