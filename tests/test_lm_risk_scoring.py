"""textanon_lm_risk scores only what needs a score, and the docs of nlp.pipe together."""

import numpy as np
import pytest
import spacy
from core_fixtures import entity_spans, masked_ids, spans_at
from fake_models import FakeCausalLM
from spacy.util import registry

import textanon  # noqa: F401
from textanon.pipes.lm_risk import LMRiskScorer
from textanon.risk.language_models.base import LanguageModel

RECORDING_LM = "test.RecordingLM.v1"


class RecordingLM(LanguageModel):
    """Each character of a span costs 1 nat; remembers the span texts it was asked for."""

    name = "test:recording"

    def __init__(self):
        self.asked = []

    def span_token_logprobs(self, text, spans, passes=None):
        self.asked += [text[s:e] for s, e in spans]
        return [np.full(e - s, -1.0) for s, e in spans]


@registry.misc(RECORDING_LM)
def _recording_lm():
    return RecordingLM()


TEXT = "Mr Ion Rusu, application no. 12345/06, lives in Balti with Mr Vlad Ursu."
MENTIONS = [
    ("Ion Rusu", "PERSON", "P1"),
    ("12345/06", "CODE", "C1"),
    ("Balti", "LOC", "L1"),
    ("Vlad Ursu", "PERSON", "P2"),
]


def pipeline(optimizer=True, mask_labels=None, **risk):
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_lm_risk", config={"model": {"@misc": RECORDING_LM}, "threshold": -100.0, **risk})
    if optimizer:
        nlp.add_pipe("textanon_optimizer", config={} if mask_labels is None else {"mask_labels": mask_labels})
    return nlp


def run(nlp, target="Ion Rusu"):
    doc = nlp.make_doc(TEXT)
    doc.spans["pii"] = entity_spans(doc, MENTIONS)
    for span in doc.spans["pii"]:
        span._.source = "ner"
    doc._.target = target
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def test_entities_the_optimizer_always_masks_are_not_scored_and_stay_risky():
    nlp = pipeline()
    doc = run(nlp)
    assert nlp.get_pipe("textanon_lm_risk").model.asked == ["Balti"]  # every person's name is masked (decision 13)
    ics = {s._.entity_id: s._.ic for s in doc.spans["pii"]}
    assert ics["P1"] is None and ics["C1"] is None and ics["P2"] is None  # the names and the code: unscored
    assert ics["L1"] == pytest.approx(5.0)
    assert ["P1"] in doc._.risky_combinations and ["C1"] in doc._.risky_combinations  # unscored = a risk
    assert masked_ids(doc) == {"P1", "C1", "P2"}
    nlp = pipeline(mask_labels=[])  # names left to the risk: the other person's is scored
    doc = run(nlp)
    assert nlp.get_pipe("textanon_lm_risk").model.asked == ["Balti", "Vlad Ursu"]
    ics = {s._.entity_id: s._.ic for s in doc.spans["pii"]}
    assert ics["L1"] == pytest.approx(5.0) and ics["P2"] == pytest.approx(9.0)
    assert masked_ids(doc) == {"P1", "C1"}
    assert not any("no information content" in w for w in doc._.anonymization_warnings or [])


def test_every_entity_is_scored_without_the_optimizer_or_with_skip_forced_off():
    for nlp in (pipeline(optimizer=False), pipeline(skip_forced=False)):
        doc = run(nlp)
        assert nlp.get_pipe("textanon_lm_risk").model.asked == [sub for sub, _, _ in MENTIONS]
        assert all(s._.ic is not None for s in doc.spans["pii"])


def test_without_a_target_every_full_person_name_is_left_unscored():
    nlp = pipeline()
    run(nlp, target=None)
    assert nlp.get_pipe("textanon_lm_risk").model.asked == ["Balti"]


def test_a_failing_forced_entity_lookup_scores_everything():
    nlp = pipeline()
    risk = nlp.get_pipe("textanon_lm_risk")
    risk.forced_entities = lambda doc: 1 / 0
    run(nlp)
    assert risk.model.asked == [sub for sub, _, _ in MENTIONS]


def docs_with_entities(texts):
    nlp = spacy.blank("en")
    docs = []
    for text in texts:
        doc = nlp.make_doc(text)
        words = text.split()
        doc.spans["pii"] = spans_at(doc, [(w, "MISC") for w in words[1::3]])
        for i, span in enumerate(doc.spans["pii"]):
            span._.entity_id = f"E{i}"
        docs.append(doc)
    return docs


TEXTS = [" ".join(f"w{(7 * k + i) % 50}" for i in range(n)) for k, n in ((1, 9), (2, 40), (3, 4), (4, 25), (5, 0))]


def test_pipe_scores_the_docs_together_with_the_values_of_one_call_per_doc():
    alone = LMRiskScorer(FakeCausalLM(window=10, context=3, batch_size=4), threshold=-3.0)
    expected = [alone(doc) for doc in docs_with_entities(TEXTS)]
    together = LMRiskScorer(FakeCausalLM(window=10, context=3, batch_size=4), threshold=-3.0)
    got = list(together.pipe(docs_with_entities(TEXTS), batch_size=8))
    for a, b in zip(got, expected):
        assert [s._.ic for s in a.spans["pii"]] == [s._.ic for s in b.spans["pii"]]
        assert a._.risky_combinations == b._.risky_combinations
    assert len(together.model._scoring_engine.calls) < len(alone.model._scoring_engine.calls)


class FailsOnBoom(FakeCausalLM):
    def span_token_logprobs_many(self, requests):
        if any("boom" in text for text, _ in requests):
            raise RuntimeError("model crashed")
        return super().span_token_logprobs_many(requests)


def test_a_doc_the_model_fails_on_fails_closed_alone_in_a_batch():
    texts = ["a b c d e f", "a boom c d e f", "x y z u v w"]
    docs = list(LMRiskScorer(FailsOnBoom(window=10, context=3), threshold=-100.0).pipe(docs_with_entities(texts)))
    assert [all(s._.ic is None for s in d.spans["pii"]) for d in docs] == [False, True, False]
    assert sorted(docs[1]._.risky_combinations) == [["E0"], ["E1"]]
    assert any("language model failed (RuntimeError)" in w for w in docs[1]._.anonymization_warnings)
    assert not docs[0]._.anonymization_warnings and not docs[2]._.anonymization_warnings
