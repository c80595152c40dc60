"""The user's command line: user commands at the top, research under ``lab``, choices and paths checked before the
pipeline loads, usage errors on one line with exit code 2, operators, no colour off a terminal."""

import json

import pytest
import typer
from cli_runner import invoke, one_line
from core_fixtures import decision_pipeline

from textanon.cli import app
from textanon_lab.cli import lab

KEY = "correct horse battery staple"
USER_COMMANDS = {"anonymize", "demo", "report", "deanonymize", "mapping-key", "index"}
LAB_COMMANDS = {"benchmark", "bench-speed", "cv-ner", "export-ner", "verify-asset", "train-court", "reliability"}
TEXT = "Mr Ion Rusu (no. 12345/06) lives in Balti."


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    path = tmp_path_factory.mktemp("pipeline") / "p"
    decision_pipeline().to_disk(path)
    return path


@pytest.fixture
def one_doc(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"id": "a", "text": TEXT, "target": "Ion Rusu"}) + "\n")
    return path


def commands(typer_app):
    return set(typer.main.get_command(typer_app).commands)


def test_top_level_help_shows_user_commands_and_lab_the_research_ones():
    top = commands(app)
    assert USER_COMMANDS <= top and "lab" in top
    assert not (LAB_COMMANDS & top)
    assert LAB_COMMANDS <= commands(lab)
    result = invoke("--help")
    assert result.exit_code == 0 and "bench-speed" not in result.output and "anonymize" in result.output


def test_every_option_of_the_user_commands_has_help_that_renders():
    group = typer.main.get_command(app)
    for name in ("anonymize", "demo", "report", "deanonymize", "mapping-key"):
        for param in group.commands[name].params:
            assert getattr(param, "help", None), f"{name} {param.name} has no help"
    text = one_line(invoke("anonymize", "--help").output)
    assert "{doc_id: [[start, end, replacement], ...]}" in text  # brackets are not eaten by markup
    assert ":func:" not in text and ":class:" not in text
    assert "suppression|label|numbered|pseudonym|generalize" in text and "CODE=mask:chars_to_mask=12" in text


@pytest.mark.parametrize(
    "option", [["--replacement", "foo"], ["--engine", "spark"], ["--operator", "PERSON=shred"], ["--operator", "X"]]
)
def test_bad_choices_are_one_line_errors_before_loading(one_doc, tmp_path, option):
    result = invoke("anonymize", one_doc, "-o", tmp_path / "out.jsonl", "--model", tmp_path / "missing", *option)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Cannot load pipeline" not in result.output
    assert not (tmp_path / "out.jsonl").exists()


def test_a_keyed_operator_without_a_key_is_a_usage_error(one_doc, tmp_path, monkeypatch):
    monkeypatch.delenv("TEXTANON_MAPPING_KEY", raising=False)
    result = invoke("anonymize", one_doc, "-o", tmp_path / "o.jsonl", "--operator", "PERSON=encrypt")
    assert result.exit_code == 2 and "key" in result.output


def test_an_input_is_never_overwritten(one_doc, tmp_path):
    before = one_doc.read_bytes()
    link = tmp_path / "link.jsonl"
    link.symlink_to(one_doc)
    for output in (one_doc, link):
        result = invoke("anonymize", one_doc, "-o", output)
        assert result.exit_code == 2 and "would be overwritten" in result.output
    result = invoke("anonymize", one_doc, "-o", tmp_path / "o.jsonl", "--mapping-out", tmp_path / "o.jsonl")
    assert result.exit_code == 2
    assert one_doc.read_bytes() == before
    result = invoke("deanonymize", one_doc, "-o", one_doc, "--mapping", one_doc)
    assert result.exit_code == 2 and one_doc.read_bytes() == before


def test_operators_on_the_command_line_and_decryption(pipeline, one_doc, tmp_path, monkeypatch):
    monkeypatch.delenv("TEXTANON_MAPPING_KEY", raising=False)
    key = tmp_path / "key"
    key.write_text(KEY + "\n")
    out = tmp_path / "out.jsonl"
    options = ["--operator", "PERSON=encrypt", "--operator", "CODE=mask:chars_to_mask=3", "--key-file", key]
    result = invoke("-q", "anonymize", one_doc, "-o", out, "--model", pipeline, *options)
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    assert "Rusu" not in record["anonymized_text"] and "***45/06" in record["anonymized_text"]
    assert {s["operator"] for s in record["spans"] if s["masked"]} >= {"encrypt", "mask"}
    restored = tmp_path / "restored.jsonl"
    result = invoke("-q", "deanonymize", out, "-o", restored, "--key-file", key)
    assert result.exit_code == 0, result.output
    text = json.loads(restored.read_text())["text"]
    assert "Ion Rusu" in text and "***45/06" in text  # encrypted names come back; masked characters do not
    assert "\x1b[" not in result.output  # no colour codes when the output is not a terminal


def test_report_refuses_an_input_file_and_takes_an_input_folder(pipeline, tmp_path):
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT)
    result = invoke("report", folder / "a.txt", "-o", tmp_path / "r")
    assert result.exit_code == 2 and "not an output record" in result.output
    out = tmp_path / "out.jsonl"
    assert invoke("-q", "anonymize", folder, "-o", out, "--model", pipeline).exit_code == 0
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps({"id": "a", "text": TEXT}) + "\n")
    result = invoke("report", plain, "-o", tmp_path / "r")
    assert result.exit_code == 2 and "no anonymized_text" in result.output
    result = invoke("-q", "report", out, "-o", tmp_path / "r", "--input", folder)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r" / "index.html").exists()


def test_replacement_generalize_adds_the_generalizer():
    from textanon.pipes.generalizer import use_generalizer

    nlp = decision_pipeline()
    use_generalizer(nlp)
    names = nlp.pipe_names
    assert names.index("textanon_generalizer") == names.index("textanon_optimizer") - 1
    use_generalizer(nlp)
    assert nlp.pipe_names.count("textanon_generalizer") == 1


def test_seed_lists_are_parsed_once_for_every_command(tmp_path):
    """--seeds / --trir-seeds: comma-separated integers, the same usage error (exit 2) everywhere."""
    from textanon.cli.common import parse_seeds

    assert parse_seeds("42, 1,2", "--seeds") == [42, 1, 2]
    assert parse_seeds(None, "--trir-seeds", required=False) == []
    for bad, required in (("42,x", True), ("", True), (",", True)):
        with pytest.raises(typer.Exit) as exc:
            parse_seeds(bad, "--seeds", required=required)
        assert exc.value.exit_code == 2
    # benchmark-echr reads its --trir-seeds the same way: a bad list is a usage error before anything runs
    result = invoke(
        "lab", "--allow-dirty", "benchmark-echr", tmp_path, "--trir-seeds", "42,x", "--output", tmp_path / "o.json"
    )
    assert result.exit_code == 2 and "--trir-seeds expects comma-separated integers" in result.output
