"""run.job: an anonymization job — the pipeline set up from its settings, the records run with the chosen engine,
the output, the masks and the side outputs written; every problem found before any document is read."""

import json

import pytest
from core_fixtures import SMALL_GAZETTEER, decision_pipeline  # registers test_every_entity_risky

from textanon.render.deanonymize import deanonymize_file
from textanon.render.mapping import Mapping
from textanon.run.job import (
    RAY,
    AnonymizeSettings,
    JobError,
    PipelineSettings,
    anonymize_file,
    configure_pipeline,
    load_pipeline,
    open_output,
    open_side_outputs,
    pipeline_overrides,
    prepare_pipeline,
    run_overrides,
)

TEXT_A = "The applicant, Mr Ion Rusu (no. 12345/06), a lawyer, was diagnosed with tuberculosis in 2004."
TEXT_B = "Ms Ana Popa, a surgeon, lives in Chisinau."


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A tiny rules-only pipeline on disk (every detected entity risky: everything detected is masked)."""
    path = tmp_path_factory.mktemp("job") / "model"
    decision_pipeline(gazetteer=SMALL_GAZETTEER).to_disk(path)
    return str(path)


def _input(tmp_path):
    rows = [
        json.dumps({"id": "a", "text": TEXT_A, "target": "Ion Rusu"}),
        '{"id": "broken", "text": ',
        json.dumps({"id": "b", "text": TEXT_B}),
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_job_writes_records_in_input_order_with_masks_and_side_outputs(tmp_path, model):
    out, masks, mapping_out = tmp_path / "out.jsonl", tmp_path / "masks.json", tmp_path / "mapping.json"
    settings = AnonymizeSettings(PipelineSettings(model, replacement="label"), target="Ana Popa", batch_size=1)
    sides = open_side_outputs("Ana Popa", tmp_path / "report", mapping_out, encrypted=False)
    errors = []
    result = anonymize_file(settings, _input(tmp_path), out, masks, sides, on_error=errors.append)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == ["a", "line2", "b"]
    assert (result.n_ok, result.n_errors) == (2, 1)
    assert errors == [records[1]] and "error" in records[1]
    a, b = records[0], records[2]
    assert "lawyer" not in a["anonymized_text"] and "12345/06" not in a["anonymized_text"]
    assert "[DEM]" in a["anonymized_text"] and "surgeon" not in b["anonymized_text"]
    assert a["run"] == b["run"]  # the mapping's run identifier, in every output record
    assert set(json.loads(masks.read_text(encoding="utf-8"))) == {"a", "b"}
    assert set(result.written) == {"report", "mapping"}
    assert (tmp_path / "report" / "index.html").exists()
    restored = tmp_path / "restored.jsonl"
    with restored.open("w", encoding="utf-8") as f:
        n_ok, refused = deanonymize_file(out, f, Mapping.read(mapping_out, None, unencrypted=True))
    texts = [json.loads(line) for line in restored.read_text(encoding="utf-8").splitlines()]
    assert (n_ok, refused) == (2, [])
    assert [t.get("text") for t in texts] == [TEXT_A, None, TEXT_B]


def test_without_side_outputs_the_records_are_written_alone(tmp_path, model):
    out = tmp_path / "out.jsonl"
    result = anonymize_file(AnonymizeSettings(PipelineSettings(model)), _input(tmp_path), out)
    assert (result.n_ok, result.n_errors, result.written) == (2, 1, {})
    assert "run" not in json.loads(out.read_text(encoding="utf-8").splitlines()[0])


def test_pipeline_settings_configure_the_loaded_pipeline(tmp_path, model):
    allow, deny = tmp_path / "allow.txt", tmp_path / "deny.txt"
    allow.write_text("lawyer\n", encoding="utf-8")
    deny.write_text("Project Nightingale\n", encoding="utf-8")
    notes = []
    nlp, returned = prepare_pipeline(PipelineSettings(model, allow_list=allow, deny_list=deny), notes.append)
    assert returned == notes == []  # no index: nothing to tell
    doc = nlp.make_doc(TEXT_A + " He joined Project Nightingale.")
    doc._.target = "Ion Rusu"
    text = nlp(doc)._.anonymized_text
    assert "a lawyer" in text and "Nightingale" not in text and "tuberculosis" not in text
    assert nlp.get_pipe("textanon_optimizer").replacement == "suppression"
    labelled = prepare_pipeline(PipelineSettings(model, replacement="label", pseudonym_seed=7))[0]
    assert labelled.get_pipe("textanon_optimizer").replacement == "label"


def test_configure_errors_say_what_cannot_be_used(tmp_path, model):
    bad = tmp_path / "bad.txt"
    bad.write_text("re:(\n", encoding="utf-8")
    with pytest.raises(JobError, match="^Cannot use the allow/deny lists: .*invalid regular expression") as err:
        configure_pipeline(load_pipeline(model), allow_list=bad)
    assert not err.value.usage
    no_optimizer = load_pipeline(model)
    no_optimizer.remove_pipe("textanon_optimizer")
    with pytest.raises(JobError, match="^Cannot generalize: the pipeline has no textanon_optimizer"):
        configure_pipeline(no_optimizer, generalize=True)
    with pytest.raises(JobError, match="^Cannot use the search index: "):
        configure_pipeline(load_pipeline(model), index=tmp_path / "no-index")


def test_overrides_and_load_errors(tmp_path, model):
    assert pipeline_overrides("label", pseudonym_seed=3, pseudonym_key=None, operators=None) == {
        "components.textanon_optimizer.pseudonym_seed": 3,
        "components.textanon_optimizer.replacement": "label",
    }
    assert run_overrides(model, None, tmp_path, None) == ({}, tmp_path)  # no profiles: the index is attached
    with pytest.raises(JobError, match="--profile: the pipeline .* has no profiles") as err:
        run_overrides(model, "lm", None)
    assert err.value.usage
    with pytest.raises(JobError, match="^Cannot load pipeline '.*missing'.$") as err:
        load_pipeline(str(tmp_path / "missing"))
    assert not err.value.usage and "make package" in err.value.hint


def test_outputs_that_cannot_be_written(tmp_path):
    with pytest.raises(JobError, match="is a directory"):
        open_output(tmp_path)
    with pytest.raises(JobError, match="Output folder .* does not exist"):
        open_output(tmp_path / "no" / "out.jsonl")
    with pytest.raises(JobError, match="^Cannot write the side outputs: --mapping-in needs --mapping-out"):
        open_side_outputs(mapping_in=tmp_path / "m.json")
    (tmp_path / "file").write_text("")
    with pytest.raises(JobError, match="^Cannot create the report folder .*file/report: "):
        open_side_outputs(report_dir=tmp_path / "file" / "report")
    open_side_outputs(report_dir=tmp_path / "report")
    assert (tmp_path / "report").stat().st_mode & 0o777 == 0o700


def test_ray_refusals_come_before_any_output_is_opened(tmp_path, model):
    out = tmp_path / "out.jsonl"
    sides = open_side_outputs(mapping_out=tmp_path / "mapping.json", encrypted=False)
    ray = AnonymizeSettings(PipelineSettings(model), engine=RAY)
    with pytest.raises(JobError, match="--mapping-out/--mapping-in need --engine local") as err:
        anonymize_file(ray, _input(tmp_path), out, sides=sides)
    assert err.value.usage and not out.exists()
    generalize = AnonymizeSettings(PipelineSettings(model, replacement="generalize"), engine=RAY)
    with pytest.raises(JobError, match="--replacement generalize needs --engine local"):
        anonymize_file(generalize, _input(tmp_path), out)
    assert not out.exists()


def test_a_missing_pipeline_fails_after_the_output_is_opened(tmp_path):
    """As the command: the output is opened (created) first, then the pipeline is loaded."""
    out = tmp_path / "out.jsonl"
    with pytest.raises(JobError, match="Cannot load pipeline"):
        anonymize_file(AnonymizeSettings(PipelineSettings(str(tmp_path / "missing"))), _input(tmp_path), out)
    assert out.read_text() == ""


def test_an_input_is_never_an_output(tmp_path, model):
    """Called from Python, without the command's path check: an output (or the masks file) that is the input,
    also through a link, is refused before anything is opened, and the input is left as it was."""
    source = _input(tmp_path)
    before = source.read_bytes()
    link = tmp_path / "link.jsonl"
    link.symlink_to(source)
    settings = AnonymizeSettings(PipelineSettings(model))
    for output, masks in ((source, None), (link, None), (tmp_path / "out.jsonl", source)):
        with pytest.raises(JobError, match="would be overwritten") as err:
            anonymize_file(settings, source, output, masks)
        assert err.value.usage and source.read_bytes() == before
    assert not (tmp_path / "out.jsonl").exists()
