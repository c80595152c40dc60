"""The benchmark's settings made of the command's options: the optional row benches, the fluency corpus, the row
groups (no model runs)."""

import pytest
from cli_runner import invoke, one_line

from textanon_lab.benchmarks.benchmark_settings import (
    BenchmarkRows,
    ScoreSettings,
    existing_corpus,
    optional_benches,
)
from textanon_lab.benchmarks.harness import BenchmarkError, benchmark
from textanon_lab.benchmarks.search_rows import DEFAULT_SWEEP


def test_the_optional_benches_are_built_only_when_asked_for():
    assert optional_benches(None, [], True, True, []) == (None, None)
    search, general = optional_benches("pipe", ["bk25=idx/a", "full=idx/b"], False, True, ["x=gen@idx/a"])
    assert search.pipeline == "pipe" and search.indexes == {"bk25": "idx/a", "full": "idx/b"}
    assert search.sweep == () and search.ablation is True
    assert general.configs == {"x": ("gen", "idx/a")}
    sweep, _ = optional_benches("pipe", ["bk25=idx/a"], True, False, [])
    assert sweep.sweep == DEFAULT_SWEEP and sweep.ablation is False
    with pytest.raises(ValueError, match="--search-pipeline"):  # an index without a pipeline
        optional_benches(None, ["bk25=idx/a"], True, True, [])
    with pytest.raises(ValueError, match="LABEL=PIPELINE"):
        optional_benches(None, [], True, True, ["no-equals-sign"])


def test_a_missing_fluency_corpus_is_dropped_with_a_warning(tmp_path):
    warnings = []
    assert existing_corpus(tmp_path / "none.json", warnings.append) is None
    assert warnings == [f"--fluency-corpus {tmp_path / 'none.json'} not found: no fluency column"]
    present = tmp_path / "bodies.json"
    present.write_text("[]")
    assert existing_corpus(present, warnings.append) == present and existing_corpus(None, warnings.append) is None
    assert len(warnings) == 1


def test_score_settings_default_to_the_harness_measurements():
    settings = ScoreSettings()
    assert settings.trir_seeds == (42,) and not settings.skip_trir and settings.tpi_lm and settings.readability
    with pytest.raises(AttributeError):
        settings.tpi_lm = False  # frozen


def test_unknown_row_groups_are_refused_before_anything_runs(tmp_path):
    with pytest.raises(BenchmarkError, match="unknown row groups"):
        benchmark(tmp_path / "unread.json", BenchmarkRows((-1.0,), groups=["baselines", "nope"]))


def test_the_command_refuses_a_bad_generalize_spec(tmp_path):
    data = tmp_path / "data.json"
    data.write_text("[]")
    out = tmp_path / "b.json"
    args = ["--fluency-corpus", tmp_path / "none.json", "--generalize", "oops", "--output", out]
    result = invoke("lab", "--allow-dirty", "benchmark", data, *args)
    text = one_line(result.output)
    assert result.exit_code == 1 and "--generalize expects LABEL=PIPELINE[@INDEX]" in text and not out.exists()
    assert "not found: no fluency column" in text
