"""Property: no surface text of a masked entity survives in doc._.anonymized_text."""

import re

import spacy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import textanon  # noqa: F401
from textanon.decide.units import doc_units
from textanon.detect.target import is_common_word

WORDS = [
    "Balti",
    "Rusu",
    "Ion",
    "surgeon",
    "1961",
    "Moldova",
    "teacher",
    "court",
    "Petrescu",
    "EUR",
    "lawyer",
    "the",
    "and",
    "in",
    "met",
    "on",
    "was",
    "a",
    "of",
    "x",
]
LABELS = ["PERSON", "LOC", "DEM", "DATETIME", "ORG", "QUANTITY", "MISC", "CODE"]

NLP = spacy.blank("en")
LINKER = NLP.add_pipe("textanon_entity_linker")
OPTIMIZER = NLP.add_pipe("textanon_optimizer", config={"replacement": "label"})
#: the same decision written word by word (whole units off): what the decision masks, before units extend it
WORD_BY_WORD = NLP.add_pipe(
    "textanon_optimizer", name="word_by_word", config={"replacement": "label", "whole_units": False}
)


@st.composite
def annotated_docs(draw):
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=40))
    seps = draw(st.lists(st.sampled_from([" ", "  ", ", ", ". ", "\n"]), min_size=len(words), max_size=len(words)))
    text = "".join(w + s for w, s in zip(words, seps))
    doc = NLP.make_doc(text)
    spans, i = [], 0
    while i < len(doc):
        if draw(st.booleans()) and not doc[i].is_punct and not doc[i].is_space:
            length = draw(st.integers(1, 3))
            end = min(i + length, len(doc))
            if any(t.is_space or t.is_punct for t in doc[i:end]):
                end = i + 1
            spans.append(spacy.tokens.Span(doc, i, end, label=draw(st.sampled_from(LABELS))))
            i = end
        else:
            i += 1
    doc.spans["pii"] = spans
    return doc, draw(st.randoms())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(annotated_docs())
def test_masked_surfaces_never_survive(data):
    doc, rnd = data
    doc = LINKER(doc)
    ids = sorted({s._.entity_id for s in doc.spans["pii"]})
    for span in doc.spans["pii"]:
        span._.ic = rnd.uniform(0.1, 20)
    doc._.risky_combinations = (
        [sorted(rnd.sample(ids, k=min(len(ids), rnd.randint(1, 2)))) for _ in range(rnd.randint(0, 4))] if ids else []
    )
    words = WORD_BY_WORD(doc.copy())
    doc = OPTIMIZER(doc)
    # whole units mask more, never less: every character the word-by-word masks cover stays covered
    for start, end, _ in words._.masks:
        assert covered(doc._.masks, start, end), (start, end, doc._.masks)
    # no unit is masked in part: a placeholder that touches one covers all of it
    for start, end, _ in doc_units(doc, "pii"):
        if any(s < end and start < e for s, e, _ in doc._.masks):
            assert covered(doc._.masks, start, end), (doc.text[start:end], doc._.anonymized_text)
    # the decision's masked mentions (a unit masked whole may also cover a kept entity's mention in place: its
    # other mentions stay, as the decision kept it)
    decided = [s for s in words.spans["pii"] if s._.masked]
    for out in (words._.anonymized_text, doc._.anonymized_text):
        masked = {s._.entity_id for s in decided}
        for combo in doc._.risky_combinations:
            assert masked.intersection(combo), "a risky combination stayed fully unmasked"
        for span in decided:
            if len(span.text.strip()) >= 2:  # 1-character forms are not propagated
                # an ordinary single word ("in", "May") survives only in its other letter cases ("In" masks not "in")
                flags = 0 if " " not in span.text.strip() and is_common_word(span.text) else re.I
                text = span.text.strip()
                for form in {text, text[:1].upper() + text[1:], span.text.upper()}:
                    surface = r"\s+".join(re.escape(w) for w in form.split())
                    assert not re.search(rf"(?<!\w){surface}(?!\w)", out, flags=flags), (span.text, out)


def covered(masks, start, end):
    return all(any(s <= i < e for s, e, _ in masks) for i in range(start, end))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(annotated_docs(), st.sampled_from([None, "Ion Rusu", "Petrescu"]), st.booleans())
def test_masked_flag_agrees_with_the_applied_masks(data, target, llm):
    """span._.masked is True exactly for the spans that doc._.masks cover entirely (issue 13)."""
    doc, rnd = data
    doc = LINKER(doc)
    ids = sorted({s._.entity_id for s in doc.spans["pii"]})
    for span in doc.spans["pii"]:
        span._.ic = rnd.choice([rnd.uniform(0.1, 20), None])
    doc._.risky_combinations = (
        [sorted(rnd.sample(ids, k=min(len(ids), rnd.randint(1, 2)))) for _ in range(rnd.randint(0, 4))] if ids else []
    )
    doc._.target = target
    if llm and len(doc) > 1:
        start = rnd.randrange(len(doc) - 1)
        doc.spans["llm_pii"] = [spacy.tokens.Span(doc, start, start + rnd.randint(1, 2), label="PII")]
    doc = OPTIMIZER(doc)
    masks = doc._.masks
    for key in ("pii", "llm_pii"):
        for span in doc.spans.get(key, []):
            assert span._.masked == covered(masks, span.start_char, span.end_char), (key, span.text, masks)
