"""The fault plugins of the reliability suite (textanon.testing.faults): components, failing LM, scripted LLM."""

import pytest
import spacy

from textanon.reliability.inputs import TRIGGER
from textanon.testing import faults


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
