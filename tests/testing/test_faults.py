"""The fault plugins of the reliability suite (textanon_lab.testing.faults): components, failing LM, scripted LLM."""

import pytest
import spacy

from textanon_lab.reliability.inputs import TRIGGER
from textanon_lab.testing import faults


def test_fault_components_fire_only_on_the_trigger(tmp_path, monkeypatch):
    monkeypatch.setenv(faults.MARKERS_ENV, str(tmp_path / "markers"))
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_fault_raise")
    nlp.add_pipe("textanon_fault_kill")  # in the main process: never kills, records that it was skipped
    assert nlp("a normal document").text == "a normal document"
    with pytest.raises(faults.InjectedFault):
        nlp(f"a document with the {TRIGGER}")
    nlp.remove_pipe("textanon_fault_raise")
    nlp(f"a document with the {TRIGGER}")
    assert faults.markers(tmp_path / "markers") == ["component_exception", "kill_skipped_main_process"]


def test_failing_lm_and_scripted_llm():
    with pytest.raises(faults.InjectedFault):
        faults.failing_lm().span_logprobs("text", [(0, 4)])
    model = faults.scripted_llm("obey_injection")
    assert list(model([["p1", "p2"], ["p3"]])) == [["output []", "output []"], ["output []"]]
    with pytest.raises(ValueError):
        faults.scripted_llm("nonsense")


def test_a_users_install_has_no_fault_plugin():
    """No entry point registers the fault plugins: a fresh process that imports textanon (as spacy.load does) cannot
    build one; only importing textanon_lab.testing.faults (the tests, python -m textanon_lab.testing) registers them."""
    import subprocess
    import sys

    check = (
        "import spacy, textanon\n"
        "from spacy.util import registry\n"
        "spacy.blank('en')  # a pipeline loads the spacy_factories entry points (spacy.load does the same)\n"
        "names = set(registry.factories.get_all())\n"
        "assert 'textanon_optimizer' in names, 'textanon factories missing'\n"
        "assert not {n for n in names if n.startswith('textanon_fault')}, 'fault factory registered'\n"
        "assert 'textanon.testing.FailingLM.v1' not in registry.misc.get_all(), 'failing LM registered'\n"
        "import textanon_lab.testing.faults\n"
        "assert 'textanon_fault_raise' in set(registry.factories.get_all())\n"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
