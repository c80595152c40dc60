"""The README's first code blocks run as written (the quick start and the profile calls)."""

import os
import re

import pytest
from core_fixtures import ROOT

pytestmark = pytest.mark.slow


def python_blocks():
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def test_the_quick_start_runs_as_written(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # it reads assets/samples/court_case.txt
    quick_start, profiles = python_blocks()[:2]
    namespace = {}
    exec(compile(quick_start, "README.md", "exec"), namespace)
    out = capsys.readouterr().out
    anonymized = namespace["doc"]._.anonymized_text
    assert anonymized in out and "Petrescu" not in anonymized and "48213/09" not in anonymized
    assert " PERSON " in out and "None" in out  # the spans' table, an always-masked span without IC included
    exec(compile(profiles, "README.md", "exec"), namespace)  # spacy.load with textanon.profile("lm")
    assert "textanon_lm_risk" in namespace["nlp"].pipe_names
    assert os.getcwd() == str(ROOT)
