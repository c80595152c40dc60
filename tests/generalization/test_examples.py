"""The hand-checked generalization examples (tests/fixtures/generalization_examples.json): every replacement the
generalizers propose is one a person checked to be a true, less specific description of the original."""

import json
from pathlib import Path

import pytest
from wordnet_data import needs_wordnet

from textanon.decide.generalization import propose

EXAMPLES = json.loads((Path(__file__).parents[1] / "fixtures/generalization_examples.json").read_text())["examples"]


@needs_wordnet
@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{e['label']}:{e['text']}" for e in EXAMPLES])
def test_every_proposed_replacement_is_a_hand_checked_true_generalization(example):
    context, text = example["context"], example["text"]
    tokens = [tuple(t) for t in example.get("tokens", [])]
    found = propose(example["label"], text, context, context.index(text), max_levels=4, common_noun=True, tokens=tokens)
    texts = [g.text for g in found]
    assert texts == example["expected"]
    assert not set(texts) & set(example.get("never", []))
    assert [g.level for g in found] == list(range(1, len(found) + 1))
