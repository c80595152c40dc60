"""The shipped entity model (assets/models/ner_court): its checksum in project.yml, what the build verifies, the
export that writes it, and that the default pipeline and the installed wheel are built around it."""

import json
import shutil

import pytest
import spacy
from cli_runner import invoke
from core_fixtures import ROOT
from spacy.util import load_config

from textanon_lab.training.artifact import (
    PROBE_TEXTS,
    ArtifactError,
    asset_entry,
    checksum,
    export_model,
    verify_asset,
    write_checksum,
)

DEST = "assets/models/ner_court"
PROJECT = ROOT / "project.yml"

PROJECT_YML = """title: "t"
assets:
  - dest: "assets/a.json"
    url: "https://example.org/a.json"
    description: "another asset"
  - dest: "assets/models/m"
    checksum: "0"
    description: "a model"
  - dest: "assets/b.json"
    checksum: "1234"
    description: "a third"
commands: []
"""


@pytest.fixture
def project(tmp_path):
    """A project folder with a copy of the shipped model under assets/models/m and its checksum in project.yml."""
    shutil.copytree(ROOT / DEST, tmp_path / "assets" / "models" / "m")
    (tmp_path / "project.yml").write_text(PROJECT_YML, encoding="utf8")
    write_checksum(tmp_path / "project.yml", "assets/models/m", checksum(tmp_path / "assets" / "models" / "m"))
    return tmp_path


def test_the_committed_model_has_the_checksum_of_project_yml():
    assert verify_asset(PROJECT, DEST) == asset_entry(PROJECT, DEST)["checksum"]
    size = sum(f.stat().st_size for f in (ROOT / DEST).rglob("*") if f.is_file())
    assert size < 5_000_000


def test_the_committed_model_holds_no_training_text():
    strings = json.loads((ROOT / DEST / "vocab" / "strings.json").read_text(encoding="utf8"))
    labels = {"CODE", "DATETIME", "DEM", "LOC", "MISC", "ORG", "PERSON", "QUANTITY"}
    assert labels <= set(strings)
    assert all(s.split("-", 1)[-1] in labels | {"", "O"} for s in strings), strings


def test_write_checksum_changes_only_its_entry(project):
    yml = project / "project.yml"
    text = yml.read_text(encoding="utf8")
    write_checksum(yml, "assets/models/m", "abcdef")
    new = yml.read_text(encoding="utf8")
    assert asset_entry(yml, "assets/models/m")["checksum"] == "abcdef"
    assert asset_entry(yml, "assets/b.json")["checksum"] == "1234"
    assert new.replace('"abcdef"', "X").count("X") == 1 and len(new.splitlines()) == len(text.splitlines())
    with pytest.raises(ArtifactError, match="no checksum line"):
        write_checksum(yml, "assets/a.json", "abcdef")
    with pytest.raises(ArtifactError, match="no assets entry"):
        write_checksum(yml, "assets/none", "abcdef")


def test_verify_fails_on_a_changed_or_missing_model(project):
    yml = project / "project.yml"
    assert verify_asset(yml, "assets/models/m")
    meta = project / "assets" / "models" / "m" / "meta.json"
    meta.write_text(meta.read_text(encoding="utf8") + " ", encoding="utf8")
    with pytest.raises(ArtifactError, match="checksum .* is not the"):
        verify_asset(yml, "assets/models/m")
    result = invoke("lab", "verify-asset", "assets/models/m", "--project", yml)
    assert result.exit_code == 1 and "checksum" in result.output
    shutil.rmtree(project / "assets" / "models" / "m")
    with pytest.raises(ArtifactError, match="missing"):
        verify_asset(yml, "assets/models/m")
    with pytest.raises(ArtifactError, match="has no checksum"):
        verify_asset(yml, "assets/a.json")


def test_export_keeps_the_predictions_and_writes_the_checksum(project, tmp_path):
    model = tmp_path / "trained"
    shutil.copytree(ROOT / DEST, model)
    strings = model / "vocab" / "strings.json"
    strings.write_text(json.dumps(json.loads(strings.read_text()) + ["Petrov", "Chisinau"]), encoding="utf8")
    dest = project / "assets" / "models" / "m"
    digest = export_model(model, dest, project / "project.yml", log=lambda _: None)
    assert "Petrov" not in (dest / "vocab" / "strings.json").read_text(encoding="utf8")
    assert asset_entry(project / "project.yml", "assets/models/m")["checksum"] == digest == checksum(dest)
    a, b = spacy.load(model), spacy.load(dest)
    for text in PROBE_TEXTS:
        assert [(e.text, e.label_) for e in a(text).ents] == [(e.text, e.label_) for e in b(text).ents]
    with pytest.raises(ArtifactError, match="no spaCy pipeline"):
        export_model(tmp_path, dest, log=lambda _: None)


def test_the_default_pipeline_is_built_around_the_shipped_model():
    cfg = load_config(ROOT / "configs" / "textanon.cfg", interpolate=False)
    assert cfg["paths"]["ner_model"] == DEST
    assert cfg["nlp"]["pipeline"][:2] == ["textanon_ner", "textanon_ents_to_spans"]
    recognizer = cfg["components"]["textanon_entity_recognizer"]
    assert recognizer["model_spans_key"] == "model" and recognizer["model_labels"] == ["DEM", "MISC"]
    from textanon_lab.training.crossval import SHIPPED_VARIANT, VARIANTS

    for key, value in VARIANTS[SHIPPED_VARIANT].items():  # the config is the variant cv-ner reports as shipped
        assert recognizer[key] == value, key
    rules = load_config(ROOT / "configs" / "textanon_rules.cfg", interpolate=False)
    assert "textanon_ner" not in rules["nlp"]["pipeline"]


def test_the_installed_wheel_runs_the_shipped_model():
    nlp = spacy.load("en_textanon")
    assert nlp.pipe_names[:2] == ["textanon_ner", "textanon_ents_to_spans"]
    shipped = spacy.load(ROOT / DEST)
    text = "The applicant is a Moldovan national and a member of the Orthodox church; she is a veterinary surgeon."
    doc = nlp(text)
    assert [(s.start_char, s.end_char, s.label_) for s in doc.spans["model"]] == [
        (e.start_char, e.end_char, e.label_) for e in shipped(text).ents
    ]


def test_a_missing_model_is_named(tmp_path, monkeypatch):
    from textanon.pipeline import assemble

    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="paths.ner_model"):
        assemble(ROOT / "configs" / "textanon.cfg", last_component="textanon_entity_recognizer")
