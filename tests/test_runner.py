"""runner.anonymize_records: one output or error record per input record, in input order, whatever fails."""

import os
import signal

import pytest
import spacy
from core_fixtures import SMALL_GAZETTEER, decision_pipeline
from fake_models import LENGTH_LM
from ray_pipelines import build
from spacy.language import Language

import textanon  # noqa: F401  (extensions)
from textanon.io.datasets.records import Record, RecordError
from textanon.render.output import doc_to_record
from textanon.run.runner import anonymize_records, pipe_records

PARENT = os.getpid()


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


def _records(texts):
    return [Record(id=f"r{i}", text=t, source="in.jsonl", line=i + 1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("n_process", [1, 2])
def test_component_exception_gives_an_error_record_in_place(n_process):
    texts = ["one", "two BOOM", "three", "four", "five BOOM", "six"]
    items = _records(texts)
    items.insert(3, RecordError(id="bad", error="malformed JSON on line 9", source="in.jsonl", line=9))
    out = list(anonymize_records(build("test_ray_boom", "test_mask_all"), items, n_process=n_process, batch_size=2))
    assert [r["id"] for r in out] == ["r0", "r1", "r2", "bad", "r3", "r4", "r5"]
    errors = {r["id"]: r for r in out if "error" in r}
    assert set(errors) == {"r1", "bad", "r4"}
    assert "test_ray_boom" in errors["r1"]["error"] and "RuntimeError" in errors["r1"]["error"]
    assert errors["r1"]["line"] == 2 and "line 2" in errors["r1"]["error"]
    assert "secret" not in errors["r1"]["error"] and "BOOM" not in errors["r1"]["error"]
    assert all(r["anonymized_text"] == "***" for r in out if "error" not in r)


def test_killed_worker_loses_no_record():
    texts = ["a", "b", "c KILL", "d", "e", "f", "g", "h"]
    out = list(anonymize_records(build("test_killer", "test_mask_all"), _records(texts), n_process=2, batch_size=2))
    assert [r["id"] for r in out] == [f"r{i}" for i in range(8)]
    assert [r["id"] for r in out if "error" in r] == ["r2"]
    assert "worker process died" in out[2]["error"] and "line 3" in out[2]["error"]


def test_document_over_spacy_max_length_is_processed_and_over_max_chars_is_an_error():
    nlp = build("test_mask_all")
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


def test_public_api_is_exported_from_textanon():
    from textanon.io.datasets import records
    from textanon.run import runner

    assert textanon.anonymize_records is runner.anonymize_records
    assert textanon.pipe_records is runner.pipe_records and textanon.redecide is runner.redecide
    assert textanon.read_records is records.read_records
    assert {"anonymize_records", "pipe_records", "read_records", "redecide"} <= set(textanon.__all__)


def test_pipe_records_yields_docs_and_error_records_in_input_order_with_timings():
    from textanon.run.runner import RecordFailed, pipe_docs, pipe_records

    nlp = build("test_ray_boom", "test_mask_all")
    items = _records(["one", "two BOOM", "three"])
    timings = {}
    out = list(pipe_records(nlp, items, target="Ion Rusu", batch_size=2, timings=timings))
    assert [item.id for item, _ in out] == ["r0", "r1", "r2"]
    assert out[0][1].text == "one" and out[0][1]._.target == "Ion Rusu" and out[0][1]._.anonymized_text == "***"
    assert isinstance(out[1][1], dict) and "test_ray_boom" in out[1][1]["error"] and "BOOM" not in out[1][1]["error"]
    assert set(timings) == {"tokenizer", "test_ray_boom", "test_mask_all"} and all(v >= 0 for v in timings.values())
    assert [d.text for d in pipe_docs(nlp, _records(["a", "b"]))] == ["a", "b"]
    with pytest.raises(RecordFailed, match="test_ray_boom") as failed:
        list(pipe_docs(nlp, items))
    assert "BOOM" not in str(failed.value)


def _risk_pipeline(threshold):
    """Recognizer (rules + small gazetteer) -> linker -> LM risk (test.LengthLM.v1) -> optimizer."""
    risk = ("textanon_lm_risk", {"model": {"@misc": LENGTH_LM}, "threshold": threshold})
    return decision_pipeline(gazetteer=SMALL_GAZETTEER, risk=risk)


RISK_TEXT = (
    "Mr Ion Rusu, a veterinary surgeon with tuberculosis, was convicted of embezzlement on 3 March 2006 "
    "and paid 4,500 euros. Ms Ana Popa, a primary-school teacher, testified in Chisinau in May 2007."
)


def test_redecide_gives_the_masks_of_a_fresh_run_at_that_threshold():
    from textanon.run.runner import pipe_docs, redecide

    record = Record(id="d", text=RISK_TEXT, target="Ion Rusu")
    nlp = _risk_pipeline(-2.0)
    scored = list(pipe_docs(nlp, [record]))
    seen = set()
    for t in (-1.0, -3.0, -6.0, -12.0, -2.0):
        fresh = next(pipe_docs(_risk_pipeline(t), [record]))
        again = redecide(nlp, scored, t)[0]
        assert again._.masks == fresh._.masks and again._.anonymized_text == fresh._.anonymized_text
        assert again._.risky_combinations == fresh._.risky_combinations
        assert [s._.masked for s in again.spans["pii"]] == [s._.masked for s in fresh.spans["pii"]]
        seen.add(again._.anonymized_text)
    assert len(seen) >= 3  # the thresholds do decide differently: the comparison can fail
    assert nlp.get_pipe("textanon_lm_risk").threshold == -2.0  # the component's own setting is unchanged


def test_redecide_keeps_the_warnings_of_earlier_stages_and_does_not_pile_up_its_own():
    """A sweep must not erase what the pipeline recorded before the decision (a language-model failure,
    the recognizer's warnings), nor repeat its own warnings once per threshold."""
    import textanon_lab.testing.faults  # noqa: F401  (registers textanon.testing.FailingLM.v1)
    from textanon.extensions import add_warning
    from textanon.run.runner import pipe_docs, redecide

    @Language.component("test_warns_early")
    def warns_early(doc):
        add_warning(doc, "an earlier stage's warning")
        return doc

    risk = ("textanon_lm_risk", {"model": {"@misc": "textanon.testing.FailingLM.v1"}})
    nlp = decision_pipeline(("test_warns_early", {}), gazetteer=SMALL_GAZETTEER, risk=risk)
    doc = next(pipe_docs(nlp, [Record(id="d", text=RISK_TEXT, target="Ion Rusu")]))
    first = list(doc._.anonymization_warnings)
    assert "an earlier stage's warning" in first and any("language model failed" in w for w in first)
    for t in (-1.0, -5.0, -2.0):
        redecide(nlp, [doc], t)
    after = doc._.anonymization_warnings
    assert "an earlier stage's warning" in after and any("language model failed" in w for w in after)
    assert sorted(after) == sorted(first)  # the decision's own warnings once, not once per threshold


class _BatchSizes:
    """A component that records how many documents each batch gave its ``pipe``."""

    def __init__(self):
        self.sizes = []

    def __call__(self, doc):
        return doc

    def pipe(self, docs, batch_size=None):
        docs = list(docs)
        self.sizes.append(len(docs))
        yield from docs


@Language.factory("test_batch_sizes")
def _batch_sizes(nlp, name):
    return _BatchSizes()


def test_the_batch_size_is_the_pipelines_unless_the_caller_gives_one():
    nlp = build("test_mask_all")
    sizes = nlp.add_pipe("test_batch_sizes").sizes
    nlp.batch_size = 3
    assert len(list(anonymize_records(nlp, _records([f"t{i}" for i in range(7)])))) == 7
    assert sizes == [3, 3, 1]
    sizes.clear()
    list(anonymize_records(nlp, _records([f"t{i}" for i in range(7)]), batch_size=5))
    assert sizes == [5, 2]
    sizes.clear()
    list(pipe_records(nlp, _records([f"t{i}" for i in range(4)])))
    assert sizes == [3, 1]
