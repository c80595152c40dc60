"""bench-speed / bench-long: the table from the isolated runs (stand-ins), and the long document."""

import json

from core_fixtures import FIXTURES

from textanon_lab.benchmarks import speed

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
    monkeypatch.setattr(speed, "run_isolated_sets", fake_runs(calls))
    startup = {"m": {"load_s": 1.5, "first_record_s": 2.5, "cli_s": 4.0, "repeats": 3}}
    monkeypatch.setattr(speed, "measure_startup", lambda python, models: startup)
    results, table = speed.bench_speed(tmp_path / "speed.json", model="m", wikiactors=WIKI, echr=TAB, repeats=2)
    labels = list(results["configurations"])
    assert len(labels) == 7 and labels[-1].startswith("Presidio")  # no index given: no search row
    assert [c[0] for c in calls[:7]] == ["textanon_timed"] * 6 + ["presidio"]
    assert calls[1][1]["profile"] == "fast" and calls[1][1]["n_process"] == 2
    assert calls[2][1] == {"model": "m", "profile": "fast", "replacement": "suppression"}
    assert calls[3][1]["profile"] == "lm" and calls[4][1]["profile"] == "strict"
    assert calls[7][0] == "textanon_timed" and calls[12][0] == "presidio"  # the order rotates
    one = results["configurations"][labels[0]]["echr_dev_27"]
    assert one["ratio_to_presidio"] == 0.5 and one["seconds_per_component"]["ner"] == 0.5
    assert one["docs_per_s"] == results["corpora"]["echr_dev_27"]["docs"] / 2.0
    assert results["configurations"][labels[1]]["echr_dev_27"]["ratio_to_presidio"] == 0.25
    assert "| 0.5× |" in table and json.loads((tmp_path / "speed.json").read_text())["provenance"]
    assert (tmp_path / "speed.md").read_text() == table
    assert results["startup"]["pipelines"] == startup and "| m | 1.5 | 2.5 | 4.0 |" in table


def test_the_default_suppressing_is_timed_in_one_process_beside_the_default():
    configs = speed.configurations("m")
    labels = list(configs)
    assert labels.index(speed.FAST_SUPPRESSION) == 2  # after the default in 1 and 2 processes
    system, settings = configs[speed.FAST_SUPPRESSION]
    assert system == "textanon_timed" and settings == {"model": "m", "profile": "fast", "replacement": "suppression"}
    fast = [s for _, s in configs.values() if s.get("profile") == "fast" and "replacement" not in s]
    assert [s["n_process"] for s in fast] == [1, 2]


def test_long_document_has_the_length_asked_and_other_names_in_each_copy():
    text = speed.long_document(TAB, 2000)
    assert len(text) == 2000
    first = json.loads(TAB.read_text())[0]["text"]
    assert text.startswith(first)
    assert text.count("John Smith") == first.count("John Smith")  # only the first copy keeps the names


def fake_long_runner(calls, slow=()):
    """run_long_isolated stand-in: seconds and peak RSS grow linearly with the length; a (profile, length) in
    ``slow`` times out."""

    def run(model, profile, index, text, time_limit):
        calls.append((model, profile, index, len(text), time_limit))
        if (profile, len(text)) in slow:
            return {"timeout": True, "seconds_until_stopped": time_limit}
        n = len(text)
        return {
            "seconds": n / 1000,
            "cpu_seconds": n / 1000,
            "load_seconds": 1.0,
            "peak_rss_mb": 300 + n / 100,
            "seconds_per_component": {"ner": n / 2000, "textanon_optimizer": n / 2000},
            "masked_spans": n // 100,
        }

    return run


def test_bench_long_runs_every_profile_and_length_and_records_a_timeout(tmp_path):
    calls = []
    out = tmp_path / "long.json"
    runner = fake_long_runner(calls, slow={("strict", 3000)})
    results = speed.bench_long(
        "m",
        TAB,
        out,
        chars=[3000, 1500],
        profiles=["fast", "strict", "search"],
        index="idx",
        time_limit=5,
        runner=runner,
    )
    assert [(c[1], c[3]) for c in calls] == [(p, n) for p in ("fast", "strict", "search") for n in (1500, 3000)]
    assert {c[2] for c in calls if c[1] == "search"} == {"idx"} and {c[2] for c in calls if c[1] != "search"} == {None}
    assert {c[4] for c in calls} == {5}
    assert results["chars"] == [1500, 3000] and results["runs"]["fast"]["3000"]["peak_rss_mb"] == 330
    assert results["runs"]["strict"]["3000"]["timeout"] and results["runs"]["strict"]["1500"]["seconds"] == 1.5
    assert results["runs"]["fast"]["1500"]["tokens"] > 0
    saved = json.loads(out.read_text())
    assert saved["provenance"] and saved["runs"]["search"]["1500"]["masked_spans"] == 15
    table = out.with_suffix(".md").read_text()
    assert "| strict | 3,000 |" in table and "timeout (> 5 s)" in table and "| fast | 1,500 |" in table
    assert "- fast, 3,000 characters: ner 1.5, textanon_optimizer 1.5" in table
    assert out.with_suffix(".png").read_bytes().startswith(b"\x89PNG")


def test_a_long_run_past_its_time_limit_is_stopped_and_recorded_as_a_timeout():
    result = speed.run_long_isolated("en_textanon", "fast", None, "Mr Ion Rusu lives in Balti.", 0.01)
    assert result["timeout"] is True and result["seconds_until_stopped"] < 60


def test_bench_long_cli_passes_profiles_lengths_and_limit(monkeypatch, tmp_path):
    from cli_runner import invoke

    seen = {}

    def fake(model, echr, output, **kwargs):
        seen.update(kwargs, model=model)
        return {"model": model, "time_limit_s": kwargs["time_limit"], "runs": {}}

    monkeypatch.setattr("textanon_lab.cli.bench.bench_long", fake)
    out = tmp_path / "long.json"
    args = ["lab", "bench-long", "--echr", str(TAB), "--output", str(out), "--model", "m"]
    result = invoke(*args, "--profiles", "fast,strict", "--chars", "3000,6000", "--time-limit", "30")
    assert result.exit_code == 0, result.output
    assert seen["profiles"] == ["fast", "strict"] and seen["chars"] == [3000, 6000] and seen["time_limit"] == 30
    assert invoke(*args, "--profiles", "fast,quick").exit_code != 0  # an unknown profile
    assert invoke(*args, "--profiles", "search").exit_code != 0  # the search profile without --index


def test_with_an_index_the_search_profile_is_timed_with_and_without_generalization_and_its_models_alone(tmp_path):
    index = tmp_path / "idx"
    index.mkdir()
    configs = speed.configurations("m", str(index))
    search = {label: settings for label, (system, settings) in configs.items() if settings.get("profile") == "search"}
    assert len(search) == 3 and all(s["index"] == str(index) for s in search.values())
    assert [s.get("replacement") for s in search.values()] == [None, "suppression", None]
    assert [s.get("models_only", False) for s in search.values()] == [False, False, True]
    assert search[speed.MODELS_ONLY]["models_only"] and list(configs)[-1].startswith("Presidio")
    assert "search profile (index)" not in speed.configurations("m", str(tmp_path / "missing"))


def test_models_alone_run_every_component_before_the_recognizer_and_nothing_after():
    from textanon_lab.benchmarks.systems import textanon_timed

    run = textanon_timed("en_textanon", profile="fast", models_only=True)
    text = "Mr Ion Rusu, born in 1960, lives in Balti."
    result = run([("a", text, "Ion Rusu")])
    ran = list(result["seconds_per_component"])
    assert "ner" in ran and "textanon_ner" in ran
    assert not any(name in ran for name in ("textanon_entity_recognizer", "textanon_search_risk", "textanon_optimizer"))
    assert result["masks"]["a"] and all(0 <= s < e <= len(text) for s, e in result["masks"]["a"])


def test_every_timed_process_starts_with_one_blas_thread_and_the_parent_keeps_its_own(monkeypatch):
    """OpenBLAS (textanon's matrix products) would take every core, Presidio's BLIS takes one: the timed child gets
    BLAS_THREADS through its environment, read when it loads the library; the parent's variables come back."""
    from textanon_lab.benchmarks import systems

    seen = {}

    class FakeProcess:
        def __init__(self, target, args):
            self.queue = args[-1]

        def start(self):
            seen.update(
                {
                    var: systems.os.environ.get(var)
                    for var in ("OPENBLAS_NUM_THREADS", "BLIS_NUM_THREADS", "MKL_NUM_THREADS")
                }
            )
            self.queue.put([{"masks": {}, "seconds": 1.0}])

        def join(self):
            pass

    class FakeContext:
        Process = FakeProcess

        @staticmethod
        def Queue():
            import queue

            return queue.Queue()

    monkeypatch.setattr(systems.mp, "get_context", lambda method: FakeContext)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "7")
    monkeypatch.delenv("BLIS_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")  # torch's: the lm profile's language model keeps its threads
    assert systems.run_isolated("presidio", [])["seconds"] == 1.0
    one = str(systems.BLAS_THREADS)
    assert seen == {"OPENBLAS_NUM_THREADS": one, "BLIS_NUM_THREADS": one, "MKL_NUM_THREADS": "3"}
    assert systems.BLAS_THREADS == 1
    assert systems.os.environ["OPENBLAS_NUM_THREADS"] == "7" and "BLIS_NUM_THREADS" not in systems.os.environ
    assert systems.os.environ["MKL_NUM_THREADS"] == "3"
