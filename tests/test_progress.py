"""Progress bars of corpus commands: an ETA when the number of records is known, off with --quiet."""

import json

import pytest
from cli_runner import run_textanon
from input_files import write_jsonl

from textanon.io.progress import bar, count_records, is_quiet, set_quiet


@pytest.fixture(autouse=True)
def _restore_quiet():
    yield
    set_quiet(False)


def test_count_records_of_each_input_format(tmp_path):
    (tmp_path / "a.jsonl").write_text('{"text": "x"}\n\n{"text": "y"}\n{"broken\n', encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps({"d1": "x", "d2": "y"}), encoding="utf-8")
    (tmp_path / "c.txt").write_text("one document", encoding="utf-8")
    (tmp_path / "d.json").write_text("{not json", encoding="utf-8")
    assert count_records(tmp_path / "a.jsonl") == 3  # every non-blank line is a record (or an error record)
    assert count_records(tmp_path / "b.json") == 2
    assert count_records(tmp_path / "c.txt") == 1
    assert count_records(tmp_path / "d.json") is None and count_records(tmp_path / "missing.jsonl") is None


def test_bar_shows_an_eta_and_is_silent_when_quiet(capsys):
    assert list(bar(range(3), total=3, desc="work")) == [0, 1, 2]
    err = capsys.readouterr().err
    assert "work: 100%" in err and "3/3" in err and "<" in err  # elapsed<remaining
    set_quiet()
    assert is_quiet() and list(bar(range(3), total=3, desc="work")) == [0, 1, 2]
    assert capsys.readouterr().err == ""


def test_quiet_option_before_any_command(tmp_path):
    out = write_jsonl(tmp_path / "out.jsonl", [{"id": f"d{i}", "error": "x"} for i in range(3)])
    loud = run_textanon("report", out, "-o", tmp_path / "r1", offline=False)
    quiet = run_textanon("--quiet", "report", out, "-o", tmp_path / "r2", offline=False)
    assert loud.returncode == quiet.returncode == 0
    assert "report: 100%" in loud.stderr and "3/3" in loud.stderr
    assert "report:" not in quiet.stderr and (tmp_path / "r2" / "index.html").exists()
