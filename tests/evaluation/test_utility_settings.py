"""The settings object of the utility evaluators: report file names, missing extra files, unknown metrics."""

from pathlib import Path

import pytest

from textanon_eval.errors import EvaluationError
from textanon_eval.utility import UtilitySettings, evaluate_metric, report_outputs, run_report


def test_report_outputs_name_every_file_of_the_report(tmp_path):
    assert report_outputs(tmp_path, "toy", ["tpi", "nmi"]) == [
        ("--out-dir (tpi_toy.json)", tmp_path / "tpi_toy.json"),
        ("--out-dir (nmi_toy.json)", tmp_path / "nmi_toy.json"),
        ("--out-dir (.md)", tmp_path / "evaluate_toy.md"),
        ("--out-dir (.png)", tmp_path / "evaluate_toy.png"),
    ]


def test_run_report_warns_of_missing_extra_files_before_checking_metrics(tmp_path):
    warnings = []
    settings = UtilitySettings(extra=[tmp_path / "gone.json"])
    with pytest.raises(EvaluationError, match="'bleu'"):
        run_report(tmp_path / "c.json", tmp_path, "toy", settings, metrics=["bleu"], warn=warnings.append)
    assert warnings == [f"extra anonymizations {tmp_path / 'gone.json'} not found: skipped"]
    with pytest.raises(EvaluationError, match="no metric selected"):
        run_report(tmp_path / "c.json", tmp_path, "toy", UtilitySettings(), metrics=[], warn=warnings.append)
    assert not list(Path(tmp_path).glob("*.json"))


def test_settings_defaults_and_unknown_metric():
    st = UtilitySettings()
    assert (st.alternation, st.n, st.seeds, tuple(st.ks), st.split_tags) == ("n", 6, 10, tuple(range(2, 11)), True)
    with pytest.raises(EvaluationError, match="unknown metric 'bleu'"):
        evaluate_metric("bleu", "in.json", "out.json", st)
