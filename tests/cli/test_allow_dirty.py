"""A measuring lab command refuses a checkout whose code differs from its commit (the metrics must name the code
they measured), unless ``textanon lab --allow-dirty``; other commands are not concerned."""

import pytest
from cli_runner import invoke

from textanon_eval import provenance
from textanon_lab.cli import MEASURING


@pytest.fixture
def dirty(monkeypatch):
    monkeypatch.delenv("TEXTANON_ALLOW_DIRTY", raising=False)
    state = {"commit": "0123456789abcdef" * 2 + "01234567", "dirty": True, "changed_files": 3}
    monkeypatch.setattr(provenance, "code_state", lambda root=None: state)


def test_a_measuring_command_refuses_a_dirty_checkout(dirty, tmp_path):
    out = tmp_path / "p.json"
    result = invoke("lab", "peer-suite", "--presidio-tests", tmp_path / "nowhere", "--output", out)
    assert result.exit_code == 2
    assert "3 tracked files differ from commit 0123456789ab" in result.output and "--allow-dirty" in result.output
    assert not out.exists()


def test_allow_dirty_lets_it_run(dirty, tmp_path):
    out = tmp_path / "p.json"
    result = invoke("lab", "--allow-dirty", "peer-suite", "--presidio-tests", tmp_path / "nowhere", "--output", out)
    assert result.exit_code == 1  # it ran: the missing checkout is its own error
    assert "nowhere" in result.output


def test_other_commands_and_clean_checkouts_are_not_concerned(dirty, monkeypatch, tmp_path):
    assert "verify-asset" not in MEASURING and {"benchmark", "profiles", "peer-suite"} <= MEASURING
    assert invoke("lab", "verify-asset", "--help").exit_code == 0
    monkeypatch.setattr(provenance, "code_state", lambda root=None: {"commit": "x", "dirty": False})
    result = invoke("lab", "peer-suite", "--presidio-tests", tmp_path / "nowhere", "--output", tmp_path / "p.json")
    assert result.exit_code == 1


def test_help_is_never_refused(dirty, monkeypatch):
    monkeypatch.setattr("sys.argv", ["textanon", "lab", "peer-suite", "--help"])  # as the console script sees it
    result = invoke("lab", "peer-suite", "--help")
    assert result.exit_code == 0 and "--presidio-tests" in result.output
