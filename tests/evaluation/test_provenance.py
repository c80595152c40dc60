"""Every committed metrics file is written by a project command, with the machine recorded by the code."""

import json
import shlex

import pytest
import yaml
from core_fixtures import ROOT

from textanon_eval import provenance

MACHINE_KEYS = {"cpu", "cores", "gpu", "torch", "platform"}
#: metrics files that no project.yml command writes yet, with the reason (keep this list short)
EXCEPTIONS = {}
#: metrics files written before provenance was recorded, whose project command could not be re-run in the
#: session that added the check (too slow on 2 CPU cores, or needs a trained model that is not built by
#: `make`). Each is regenerated, and removed from here, by the command named in its reason.
PENDING_REGENERATION = {}


def _commands():
    """``[(command name, script lines, outputs)]`` of project.yml."""
    data = yaml.safe_load((ROOT / "project.yml").read_text(encoding="utf-8"))
    return [(c["name"], c.get("script", []), c.get("outputs", [])) for c in data["commands"]]


def _subcommand(line: str):
    """The command a line runs (``textanon [-q] [lab] COMMAND``: the research commands moved into the lab group,
    metrics written before that name them without it)."""
    from textanon_eval.run_log import subcommand

    return subcommand(shlex.split(line))  # the lab group's options (--allow-dirty, --why TEXT) skipped


def _writers(rel: str):
    """Subcommands of the project commands that name ``rel`` in their outputs or scripts."""
    found = []
    for _, script, outputs in _commands():
        if rel in outputs:
            found += [_subcommand(s) for s in script]
        found += [_subcommand(s) for s in script if rel in s]
    return {f for f in found if f}


METRICS = sorted(p.name for p in (ROOT / "metrics").glob("*.json"))


@pytest.mark.parametrize("name", METRICS)
def test_metrics_file_has_provenance_and_a_project_command(name):
    if name in EXCEPTIONS:
        pytest.skip(EXCEPTIONS[name])
    if name in PENDING_REGENERATION and "provenance" not in json.loads((ROOT / "metrics" / name).read_text("utf-8")):
        pytest.skip("pending regeneration: " + PENDING_REGENERATION[name])
    rel = f"metrics/{name}"
    writers = _writers(rel)
    assert writers, f"{rel} is not an output of any project.yml command: add the command or delete the file"
    data = json.loads((ROOT / rel).read_text(encoding="utf-8"))
    block = data.get("provenance") if isinstance(data, dict) else None
    assert block, f"{rel} has no provenance block: regenerate it with the project command ({', '.join(writers)})"
    assert MACHINE_KEYS <= set(block["machine"]), block["machine"]
    assert _subcommand(block["command"]) in writers, (block["command"], writers)


def test_exceptions_are_still_needed():
    for name in EXCEPTIONS:
        assert (ROOT / "metrics" / name).exists(), f"{name} is gone: drop it from EXCEPTIONS"
        assert not _writers(f"metrics/{name}"), f"{name} now has a project command: drop it from EXCEPTIONS"
    for name in PENDING_REGENERATION:
        path = ROOT / "metrics" / name
        assert path.exists(), f"{name} is gone: drop it from PENDING_REGENERATION"
        assert "provenance" not in json.loads(path.read_text("utf-8")), f"{name} was regenerated: drop it from PENDING"
        assert _writers(f"metrics/{name}"), f"{name}: no project command regenerates it"


def test_write_metrics_records_command_and_machine(tmp_path):
    argv = ["/x/site-packages/textanon/__main__.py", "lab", "benchmark", "data file.json", "--output", "m.json"]
    path = provenance.write_metrics(tmp_path / "sub" / "m.json", {"value": 1, "provenance": "forged"}, argv=argv)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["value"] == 1
    assert data["provenance"]["command"] == "python -m textanon lab benchmark 'data file.json' --output m.json"
    assert MACHINE_KEYS <= set(data["provenance"]["machine"])
    assert data["provenance"]["machine"]["cores"] >= 1
    import spacy
    import thinc

    # the library builds that decide a speed measure (docs/speed.md: spaCy's wheels)
    assert data["provenance"]["machine"]["spacy"] == spacy.__version__
    assert data["provenance"]["machine"]["thinc"] == thinc.__version__
    assert not list(tmp_path.glob("sub/.*.tmp"))
    with pytest.raises(TypeError):
        provenance.write_metrics(tmp_path / "x.json", [1, 2])


def test_code_state_records_the_commit_and_whether_code_changed(tmp_path):
    import subprocess

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    (tmp_path / "metrics").mkdir()
    (tmp_path / "components").mkdir()
    (tmp_path / "components" / "code.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# x\n", encoding="utf-8")
    (tmp_path / "metrics" / "m.json").write_text("{}\n", encoding="utf-8")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    clean = provenance.code_state(tmp_path)
    assert len(clean["commit"]) == 40 and clean["dirty"] is False
    (tmp_path / "metrics" / "m.json").write_text('{"a": 1}\n', encoding="utf-8")
    (tmp_path / "README.md").write_text("# y\n", encoding="utf-8")
    assert provenance.code_state(tmp_path)["dirty"] is False  # a measuring command's own output, the docs
    (tmp_path / "components" / "code.py").write_text("x = 2\n", encoding="utf-8")
    assert provenance.code_state(tmp_path) == {"commit": clean["commit"], "dirty": True, "changed_files": 1}
    assert provenance.code_state(tmp_path / "metrics")["commit"] is None  # not the checkout's root
    assert provenance.code_state(tmp_path.parent)["dirty"] is None  # no checkout
