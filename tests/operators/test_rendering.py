"""The optimizer writes each masked entity with the operator of its label (decision apart from rendering)."""

import json

import pytest
import spacy
from core_fixtures import decision_pipeline

from textanon.render.mapping import Mapping, deanonymize_records, decrypt_records
from textanon.render.operators import OperatorError, decrypt_text
from textanon.render.output import doc_to_record

KEY = "correct horse battery staple"
TEXT = (
    "Mr Andrei Petrescu (application no. 48213/09) lives in Balti. Petrescu wrote to Ms Irina Rusu "
    "at irina.rusu@example.com on 3 May 2009."
)


def op(name, **arguments):
    return {"@misc": f"textanon.operators.{name}.v1", **arguments}


def run(operators=None, target="Andrei Petrescu", **optimizer):
    nlp = decision_pipeline(**({"operators": operators} if operators is not None else {}), **optimizer)
    doc = nlp.make_doc(TEXT)
    doc._.target = target
    return nlp(doc)


def test_without_operators_the_output_is_unchanged():
    plain, empty = run(), run(operators={})
    assert plain._.anonymized_text == empty._.anonymized_text
    assert plain._.masks == empty._.masks
    assert all(s._.operator is None for s in plain.spans["pii"])
    assert all("operator" not in s for s in doc_to_record(plain, "d")["spans"])


def test_an_operator_per_label_and_a_default():
    doc = run(
        {"PERSON": op("replace", new_value="<NAME>"), "CODE": op("mask", chars_to_mask=5), "default": op("redact")}
    )
    text = doc._.anonymized_text
    assert "Petrescu" not in text and "Irina" not in text and "Balti" not in text
    assert text.count("<NAME>") == 3  # both mentions of the protected person and Irina Rusu
    assert "no. *****/09" in text  # the application number, five characters masked
    record = doc_to_record(doc, "d")
    by_label = {s["label"]: s.get("operator") for s in record["spans"] if s["masked"]}
    assert by_label["PERSON"] == "replace" and by_label["CODE"] == "mask" and by_label["LOC"] == "redact"


def test_every_mention_of_one_entity_gets_the_same_hash(monkeypatch):
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    doc = run({"PERSON": op("hash", length=12)})
    by_entity = {}
    for start, end, rep in doc._.masks:
        span = next((s for s in doc.spans["pii"] if s.start_char == start), None)
        if span is not None and span.label_ == "PERSON":
            by_entity.setdefault(span._.entity_id, set()).add(rep)
    assert by_entity and all(len(reps) == 1 for reps in by_entity.values())
    assert len({next(iter(r)) for r in by_entity.values()}) == len(by_entity)  # two persons, two hashes


def test_keep_is_refused_for_the_protected_person_and_direct_identifiers():
    doc = run({"default": op("keep")}, mask_labels=[])  # names left to the risk: Irina Rusu may be kept
    text = doc._.anonymized_text
    assert "Petrescu" not in text and "48213/09" not in text and "irina.rusu@example.com" not in text
    assert "Balti" in text and "Irina Rusu" in text  # kept: neither protected nor a direct identifier
    default = run({"default": op("keep")})._.anonymized_text  # every person's name is masked (decision 13)
    assert "Balti" in default and "Irina Rusu" not in default and "Petrescu" not in default
    warnings = " ".join(doc._.anonymization_warnings)
    assert "keep refused for a protected name" in warnings and "keep refused for a direct identifier" in warnings
    assert "Petrescu" not in warnings  # no raw text in warnings


def test_encrypt_operator_round_trips_through_decrypt_and_the_mapping(monkeypatch):
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    doc = run({"default": op("encrypt")})
    record = doc_to_record(doc, "d")
    assert "[enc:" in record["anonymized_text"] and "Petrescu" not in record["anonymized_text"]
    assert decrypt_text(record["anonymized_text"], KEY) == TEXT
    assert next(decrypt_records([record], KEY)) == {"id": "d", "text": TEXT}
    assert "error" in next(decrypt_records([record], "another key, long enough"))
    mapping = Mapping()
    mapping.add(record, TEXT)
    assert next(deanonymize_records([record], mapping))["text"] == TEXT


def test_pseudonym_operator_for_persons_only():
    doc = run({"PERSON": op("pseudonym")})
    text = doc._.anonymized_text
    assert "Petrescu" not in text and "***" in text  # other labels: the replacement style
    assert text.startswith("Mr ")


def test_generalized_entities_are_written_by_an_explicit_operator():
    doc = run({"default": op("replace")}, replacement="generalize")
    assert "the person" not in doc._.anonymized_text  # the PERSON operator writes the protected name too
    assert "[PERSON]" in doc._.anonymized_text


def test_operators_in_a_saved_pipeline_record_no_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    nlp = decision_pipeline(operators={"LOC": op("hash"), "CODE": op("mask", chars_to_mask=3)})
    nlp.to_disk(tmp_path / "p")
    cfg = json.loads((tmp_path / "p" / "textanon_optimizer" / "cfg.json").read_text())
    assert cfg["operators"]["CODE"] == {"operator": "mask", "masking_char": "*", "chars_to_mask": 3, "from_end": False}
    assert KEY not in (tmp_path / "p" / "textanon_optimizer" / "cfg.json").read_text()
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("textanon_optimizer").operators == nlp.get_pipe("textanon_optimizer").operators


def test_operators_override_a_loaded_pipeline(tmp_path):
    decision_pipeline().to_disk(tmp_path / "p")
    overrides = {"components.textanon_optimizer.operators": {"LOC": op("replace", new_value="somewhere")}}
    nlp = spacy.load(tmp_path / "p", config=overrides)
    doc = nlp(TEXT)
    assert "somewhere" in doc._.anonymized_text


def test_a_bad_operator_in_the_config_fails_at_load():
    with pytest.raises(OperatorError):
        decision_pipeline(operators={"LOC": op("mask", masking_char="--")})


def test_a_partial_mask_never_shows_the_protected_name_but_may_show_part_of_a_code():
    doc = run({"PERSON": op("mask", chars_to_mask=3), "CODE": op("mask", chars_to_mask=5)})
    text = doc._.anonymized_text
    assert "rescu" not in text and "Petrescu" not in text  # the protected name: replaced by its label
    assert "***Irina Rusu" in text  # another person: masked as asked (its first three characters)
    assert "no. *****/09" in text  # a code: the user's choice, as Presidio's ************1111
    assert any("operator mask refused for a protected name" in w for w in doc._.anonymization_warnings)
