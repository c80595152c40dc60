"""The log of evaluation runs: a metrics file written into the checkout's metrics/ adds a line (date, commit, data,
rows, why) to metrics/runs.jsonl and its table runs.md; other outputs leave it alone; earlier runs are back-filled
from the git history."""

import json
import os
import subprocess

import pytest
from cli_runner import invoke

from textanon_eval import provenance, run_log

COMMIT = "0123456789abcdef" * 2 + "01234567"
EVAL = "../shared/data/wikiactors/WikiActors_50_eval.json"
ARGV = ["/x/textanon/__main__.py", "lab", "benchmark", EVAL, "--output", "metrics/m.json"]


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A stand-in checkout (project.yml, metrics/) as the library's root, at a clean commit; no why set."""
    (tmp_path / "project.yml").write_text("title: x\n", encoding="utf-8")
    (tmp_path / "metrics").mkdir()
    monkeypatch.setattr(run_log, "ROOT", tmp_path)
    monkeypatch.setattr(run_log, "_why", None)
    monkeypatch.delenv(run_log.WHY_ENV, raising=False)
    monkeypatch.setattr(provenance, "code_state", lambda root=None: {"commit": COMMIT, "dirty": False})
    return tmp_path


def test_a_metrics_write_logs_the_run_with_its_commit_data_rows_and_why(checkout, monkeypatch):
    run_log.set_why("check the new judge rule")
    rows = {"rows": [{"system": "fast"}, {"system": "Presidio"}]}
    provenance.write_metrics(checkout / "metrics" / "m.json", rows, argv=ARGV)
    provenance.write_metrics(checkout / "metrics" / "m2.json", {"rows": [{"system": "lm"}]}, argv=ARGV)
    [line] = run_log.read(checkout / "metrics" / "runs.jsonl")  # one process: one run, two outputs
    assert line["commit"] == COMMIT and line["dirty"] is False and line["why"] == "check the new judge rule"
    assert line["outputs"] == ["metrics/m.json", "metrics/m2.json"] and line["rows"] == ["Presidio", "fast", "lm"]
    assert line["data"] == [{"path": EVAL, "split": "evaluation"}] and line["evaluation_data"] is True
    assert line["command"].startswith("python -m textanon lab benchmark") and line["date"].endswith("Z")
    table = (checkout / "metrics" / "runs.md").read_text(encoding="utf-8")
    assert "check the new judge rule" in table and "**eval** WikiActors_50_eval.json" in table
    assert COMMIT[:10] in table and "| benchmark |" in table

    monkeypatch.setattr(run_log, "RUN_ID", "another-process")
    monkeypatch.setattr(run_log, "_why", None)
    monkeypatch.setenv(run_log.WHY_ENV, "  from the\nenvironment ")
    provenance.write_metrics(checkout / "metrics" / "s.json", {"speed": 1}, argv=ARGV)
    lines = run_log.read(checkout / "metrics" / "runs.jsonl")
    assert len(lines) == 2 and lines[1]["why"] == "from the environment" and lines[1]["rows"] is None
    monkeypatch.delenv(run_log.WHY_ENV)
    assert run_log.why() is None


def test_outputs_outside_metrics_and_tests_leave_the_log_alone(checkout, tmp_path):
    provenance.write_metrics(tmp_path / "elsewhere" / "m.json", {"x": 1}, argv=ARGV)
    assert not (checkout / "metrics" / "runs.jsonl").exists()
    # the library's own checkout: never written while a test runs, whatever the output
    real = run_log._real_root()
    assert run_log.logged_output(real / "metrics" / "benchmark_wikiactors.json", root=real) is None
    assert run_log.logged_output(checkout / "metrics" / "x.json") == "metrics/x.json"
    assert run_log.logged_output(checkout / "metrics" / "x.json", root=tmp_path / "elsewhere") is None


def test_data_named_on_the_command_line_is_evaluation_or_dev():
    def splits(command):
        return [(d["path"].rsplit("/", 1)[-1], d["split"]) for d in run_log.data_inputs(command)]

    bk = "../shared/data/wikiactors/WikiActors_500_random.json"
    select = f"python -m textanon lab select-threshold {bk} --exclude {EVAL} --output metrics/t.json"
    assert splits(select) == [("WikiActors_500_random.json", "dev")]  # the excluded file is not evaluated on
    bench = f"python -m textanon lab --why 'a b' benchmark {EVAL} --texts-out corpus/t.json --trir-from=x_dev.json"
    assert splits(bench) == [("WikiActors_50_eval.json", "evaluation"), ("x_dev.json", "dev")]
    assert run_log.subcommand(["python", "-m", "textanon", "lab", "--allow-dirty", "--why", "w", "cv-ner"]) == "cv-ner"
    echr = "../shared/data/echr-dev"
    assert splits(f"python -m textanon lab benchmark-echr {echr} --index corpus/index_echr") == [
        ("echr-dev", "evaluation")
    ]
    assert splits(f"python -m textanon lab cv-ner {echr}/echr_dev_entities.json") == [("echr_dev_entities.json", "dev")]
    assert splits("python -m textanon evaluate-trir x/anon.json --anonymized a=tab/echr_test.json") == [
        ("anon.json", "dev"),
        ("echr_test.json", "evaluation"),
    ]


def _git(root, *args, env=None):
    run = subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=env)
    return run.stdout.strip()


def test_backfill_from_the_git_history(tmp_path):
    repo = tmp_path / "repo"
    (repo / "metrics").mkdir(parents=True)
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.org")
    _git(repo, "config", "user.name", "t")
    metrics = repo / "metrics" / "m.json"
    metrics.write_text('{"value": 1}\n', encoding="utf-8")
    (repo / "metrics" / "notes.md").write_text("x\n", encoding="utf-8")
    _git(repo, "add", ".")
    dated = dict(os.environ, GIT_COMMITTER_DATE="2020-01-01T00:30:00+01:00")
    _git(repo, "commit", "-q", "-m", "first measurement\n\nbody text", env=dated)
    first = _git(repo, "rev-parse", "HEAD")
    block = {
        "command": f"python -m textanon lab benchmark {EVAL} --output metrics/m.json",
        "written_utc": "2026-01-02T03:04:05Z",
        "code": {"commit": first, "dirty": False},
    }
    metrics.write_text(json.dumps({"rows": [{"system": "a"}], "provenance": block}), encoding="utf-8")
    _git(repo, "commit", "-q", "-am", "rerun " + "x" * 300)
    (repo / "README.md").write_text("r\n", encoding="utf-8")
    _git(repo, "add", "README.md")
    _git(repo, "commit", "-q", "-m", "docs only")

    log = repo / "metrics" / "runs.jsonl"
    live = dict(run_log.backfill(repo)[1], backfilled=False, why="a live line")  # the run logged when it ran
    run_log.write(log, [live])
    lines = run_log.rebuild(repo, log)
    assert len(lines) == 2  # the live line of the second version is not duplicated
    old, new = sorted(lines, key=lambda x: x["date"])
    assert old["backfilled"] and old["commit"] is None and old["command"] is None and old["rows"] is None
    assert old["date"] == "2019-12-31T23:30:00Z"  # the commit's date, in UTC: the file records none
    assert old["why"] == "first measurement" and old["added_in"] == first and old["outputs"] == ["metrics/m.json"]
    assert new["why"] == "a live line" and new["commit"] == first and new["rows"] == ["a"]
    assert new["date"] == "2026-01-02T03:04:05Z" and new["evaluation_data"] is True
    assert run_log.rebuild(repo, log) == lines  # idempotent

    fresh = run_log.backfill(repo)
    assert len(fresh) == 2 and len(fresh[1]["why"]) == run_log.WHY_CHARS and fresh[1]["why"].startswith("rerun x")
    table = (repo / "metrics" / "runs.md").read_text(encoding="utf-8")
    assert "first measurement (backfilled)" in table and table.index("first measurement") < table.index("a live line")


def test_the_run_log_command(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "metrics").mkdir(parents=True)
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.org")
    _git(repo, "config", "user.name", "t")
    (repo / "metrics" / "m.json").write_text("{}\n", encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "one")
    monkeypatch.setattr(run_log, "_why", None)
    out = repo / "metrics" / "runs.jsonl"
    result = invoke("lab", "--why", "back-fill", "run-log", "--from-git", "--repo", repo, "--output", out)
    assert result.exit_code == 0, result.output
    assert [x["why"] for x in run_log.read(out)] == ["one"] and run_log.why() == "back-fill"
    assert invoke("lab", "run-log", "--from-git", "--repo", tmp_path, "--output", out).exit_code == 1  # no git
