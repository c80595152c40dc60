"""runner.anonymize_records: one output or error record per input record, in input order, whatever fails."""

import os
import signal

import pytest
import spacy
from spacy.language import Language

import textanon  # noqa: F401  (extensions)
from textanon.datasets.records import Record, RecordError
from textanon.output import doc_to_record
from textanon.runner import anonymize_records

PARENT = os.getpid()


@Language.component("test_boom")
def _boom(doc):
    if "BOOM" in doc.text:
        raise RuntimeError("secret text must not appear: " + doc.text)
    return doc


@Language.component("test_killer")
def _killer(doc):
    if "KILL" in doc.text and os.getpid() != PARENT:  # only ever kills a worker, never the test process
        os.kill(os.getpid(), signal.SIGKILL)
    return doc


@Language.component("test_mask_all")
def _mask_all(doc):
    doc._.masks = [[0, len(doc.text), "***"]] if doc.text else []
    doc._.anonymized_text = "***" if doc.text else ""
    return doc


def _nlp(*components):
    nlp = spacy.blank("en")
    for name in components:
        nlp.add_pipe(name)
    return nlp


def _records(texts):
    return [Record(id=f"r{i}", text=t, source="in.jsonl", line=i + 1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("n_process", [1, 2])
def test_component_exception_gives_an_error_record_in_place(n_process):
    texts = ["one", "two BOOM", "three", "four", "five BOOM", "six"]
    items = _records(texts)
    items.insert(3, RecordError(id="bad", error="malformed JSON on line 9", source="in.jsonl", line=9))
    out = list(anonymize_records(_nlp("test_boom", "test_mask_all"), items, n_process=n_process, batch_size=2))
    assert [r["id"] for r in out] == ["r0", "r1", "r2", "bad", "r3", "r4", "r5"]
    errors = {r["id"]: r for r in out if "error" in r}
    assert set(errors) == {"r1", "bad", "r4"}
    assert "test_boom" in errors["r1"]["error"] and "RuntimeError" in errors["r1"]["error"]
    assert errors["r1"]["line"] == 2 and "line 2" in errors["r1"]["error"]
    assert "secret" not in errors["r1"]["error"] and "BOOM" not in errors["r1"]["error"]
    assert all(r["anonymized_text"] == "***" for r in out if "error" not in r)


def test_killed_worker_loses_no_record():
    texts = ["a", "b", "c KILL", "d", "e", "f", "g", "h"]
    out = list(anonymize_records(_nlp("test_killer", "test_mask_all"), _records(texts), n_process=2, batch_size=2))
    assert [r["id"] for r in out] == [f"r{i}" for i in range(8)]
    assert [r["id"] for r in out if "error" in r] == ["r2"]
    assert "worker process died" in out[2]["error"] and "line 3" in out[2]["error"]


def test_document_over_spacy_max_length_is_processed_and_over_max_chars_is_an_error():
    nlp = _nlp("test_mask_all")
    nlp.max_length = 100
    out = list(anonymize_records(nlp, _records(["short", "x" * 500, "y" * 2000]), max_chars=1000))
    assert [r["id"] for r in out] == ["r0", "r1", "r2"]
    assert out[1]["anonymized_text"] == "***" and out[1]["masks"] == [[0, 500, "***"]]
    assert "error" in out[2] and "r2" in out[2]["error"] and "line 3" in out[2]["error"]
    assert "2,000 characters" in out[2]["error"]


def test_masked_flag_agrees_with_the_masks_applied():
    nlp = spacy.blank("en")
    doc = nlp("Ion Rusu lives in Balti now")
    doc.spans["pii"] = [doc.char_span(0, 8, "PERSON"), doc.char_span(18, 23, "LOC"), doc.char_span(24, 27, "X")]
    for span in doc.spans["pii"]:
        span._.masked = True  # what a component claimed
    doc._.masks = [[0, 4, "*"], [4, 8, "*"], [18, 21, "*"]]  # Balti only partly masked, "now" not at all
    record = doc_to_record(doc, "d")
    assert [s["masked"] for s in record["spans"]] == [True, False, False]
