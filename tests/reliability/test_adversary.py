"""The adversarial cases of the reliability suite (issue 27): hidden text forms, unusual identifier formats and names
outside prose are counted when they survive, and the shipped pipeline masks them all."""

import json

import pytest
import spacy

from textanon_lab.reliability import checks
from textanon_lab.reliability.adversary import ADVERSARY_CASES
from textanon_lab.reliability.files import SCENARIOS, run_scenario
from textanon_lab.reliability.pipelines import base_pipeline_path
from textanon_lab.reliability.suite import Case, cases, run_case


@pytest.mark.parametrize("name", sorted(ADVERSARY_CASES))
def test_every_adversary_case_holds_its_pii_in_its_records(tmp_path, name):
    data = ADVERSARY_CASES[name](tmp_path, 0)
    lines = [line for line in data.path.read_bytes().splitlines() if line.strip()]
    assert len(data.expected) == len(lines) > 0
    sources = {e.id: e for e in data.expected}
    for line in lines:
        record = json.loads(line)
        for p in sources[record["id"]].pii:
            assert checks.contains(record["text"], p["text"]), (record["id"], p["kind"])


def test_hidden_characters_do_not_hide_a_surviving_name():
    assert checks.contains("then Petre\u00adscu signed", "Petrescu")
    assert checks.contains("mail j.doe\u200b@example.org now", "j.doe@example.org")
    assert checks.contains("the name Petr\x00escu", "Petrescu")
    assert not checks.contains("the name [PERSON]", "Petrescu")


def test_the_suite_runs_the_adversary_cases():
    assert {c.name for c in cases() if c.group == "adversary"} == set(ADVERSARY_CASES)


def test_a_pass_through_pipeline_leaks_every_hidden_form(tmp_path):
    base = tmp_path / "passthrough"
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_fault_passthrough")
    nlp.to_disk(base)
    result = run_case(Case("text_forms", "adversary", ADVERSARY_CASES["text_forms"]), base, tmp_path / "w", 0)
    assert result["surviving_protected_names"] == {"surname": 8}
    assert result["surviving_direct_identifiers"] == {"email": 1}
    assert not result["pass"]


@pytest.mark.parametrize("name", sorted(ADVERSARY_CASES))
def test_the_shipped_pipeline_masks_every_adversary_case(tmp_path, name):
    model = base_pipeline_path("en_textanon")
    result = run_case(Case(name, "adversary", ADVERSARY_CASES[name]), model, tmp_path / "w", 0)
    assert result["exit_code"] == 0
    assert result["surviving_protected_names"] == {}, name
    assert result["surviving_direct_identifiers"] == {}, name
    assert result["pass"], name


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_file_and_mapping_scenario_passes_on_the_shipped_pipeline(tmp_path, name):
    result = run_scenario(name, base_pipeline_path("en_textanon"), tmp_path)
    assert result["error"] is None and result["checks"], result
    assert result["pass"], result["checks"]
