import math

import numpy as np
import pytest
import spacy
from core_fixtures import spans_at

import textanon  # noqa: F401
from textanon.pipes.lm_risk import LMRiskScorer
from textanon.risk.language_models.base import LanguageModel


class FixedLM(LanguageModel):
    """A deterministic scorer: each character of a span costs ``per_char`` nats."""

    name = "fixed"

    def __init__(self, per_char=1.0, fail=False):
        self.per_char, self.fail = per_char, fail

    def span_token_logprobs(self, text, spans, passes=None):
        if self.fail:
            raise RuntimeError("model crashed")
        return [np.full(e - s, -self.per_char) for s, e in spans]


def doc_with_entities(text, mentions):
    """A Doc whose pii spans are ``mentions`` = [(substring, entity id)] in text order, labelled MISC."""
    doc = spacy.blank("en").make_doc(text)
    doc.spans["pii"] = spans_at(doc, [(sub, "MISC") for sub, _ in mentions])
    for span, (_, eid) in zip(doc.spans["pii"], mentions):
        span._.entity_id = eid
    return doc


def test_ic_in_nats_and_combinations():
    doc = doc_with_entities("ab abcd abcdefghij", [("ab", "E1"), ("abcd", "E2"), ("abcdefghij", "E3")])
    # log10 p: E1 -0.87, E2 -1.74, E3 -4.34 ; threshold -2.5 -> E3 alone, E1+E2 = -2.6 pair
    scorer = LMRiskScorer(FixedLM(1.0), threshold=-2.5, max_combination_size=2)
    doc = scorer(doc)
    assert [round(s._.ic, 3) for s in doc.spans["pii"]] == [2.0, 4.0, 10.0]
    assert sorted(doc._.risky_combinations) == [["E1", "E2"], ["E3"]]


def test_entity_uses_its_most_informative_mention():
    doc = doc_with_entities("ab xyzxyzxyz", [("ab", "E1"), ("xyzxyzxyz", "E1")])
    doc = LMRiskScorer(FixedLM(1.0), threshold=-3.5)(doc)
    assert doc._.risky_combinations == [["E1"]]  # 9 nats = -3.9 log10


def test_model_failure_fails_closed():
    doc = doc_with_entities("ab cd", [("ab", "E1"), ("cd", "E2")])
    doc = LMRiskScorer(FixedLM(fail=True), threshold=-100)(doc)
    assert sorted(doc._.risky_combinations) == [["E1"], ["E2"]]
    assert any("language model failed" in w for w in doc._.anonymization_warnings)
    assert all("ab" not in w for w in doc._.anonymization_warnings)


def test_empty_doc():
    doc = doc_with_entities("", [])
    assert LMRiskScorer(FixedLM())(doc)._.risky_combinations == []


class GapLM(LanguageModel):
    """Scores spans like FixedLM, but gives the spans listed in ``gaps`` no token, or NaN."""

    name = "gap"

    def __init__(self, gaps):
        self.gaps = gaps

    def span_token_logprobs(self, text, spans, passes=None):
        out = []
        for s, e in spans:
            kind = self.gaps.get(text[s:e])
            out.append(
                np.array([]) if kind == "empty" else np.array([math.nan]) if kind == "nan" else np.full(e - s, -0.1)
            )
        return out


@pytest.mark.parametrize("kind", ["empty", "nan"])
def test_unscored_spans_are_risky(kind):
    doc = doc_with_entities("ab cd ef", [("ab", "E1"), ("cd", "E2"), ("ef", "E3")])
    doc = LMRiskScorer(GapLM({"cd": kind}), threshold=-3.5)(doc)
    assert doc.spans["pii"][1]._.ic is None
    assert doc._.risky_combinations == [["E2"]]  # the scored ones (0.2 nats each) are safe
    assert any("1 of 3 entities have no information content" in w for w in doc._.anonymization_warnings)


def test_re_deciding_after_a_model_failure_still_finds_every_entity_risky():
    doc = doc_with_entities("ab cd", [("ab", "E1"), ("cd", "E2")])
    scorer = LMRiskScorer(FixedLM(fail=True), threshold=-3.5)
    doc = scorer(doc)
    for threshold in (-3.5, -50.0):  # what the threshold sweeps do (benchmarks/threshold.py)
        scorer.threshold = threshold
        doc._.anonymization_warnings = None
        scorer.set_combinations(doc)
        assert sorted(doc._.risky_combinations) == [["E1"], ["E2"]]
        assert any("no information content" in w for w in doc._.anonymization_warnings)


def test_target_occurrences_added_by_the_optimizer_are_not_counted_as_unscored():
    doc = doc_with_entities("ab cd", [("ab", "E1"), ("cd", "PERSON_target")])
    doc.spans["pii"][1]._.source = "target"
    scorer = LMRiskScorer(FixedLM(1.0), threshold=-3.5)
    doc.spans["pii"][0]._.ic = 2.0
    scorer.set_combinations(doc)
    assert doc._.risky_combinations == [] and not doc._.anonymization_warnings
