"""The masking cost shared by the optimizer, the generalizer's choice and the search risk (textanon.costs)."""

import math
from types import SimpleNamespace

from textanon.costs import DEFAULT_IC, IC_SCALE, mask_cost, scored_ic
from textanon.pipes.optimizer import MaskingOptimizer


def _mention(ic):
    return SimpleNamespace(_=SimpleNamespace(ic=ic))


def test_scored_ic_refuses_what_is_not_a_score():
    assert scored_ic(2.5) == 2.5 and scored_ic("3") == 3.0
    assert scored_ic(None) is None and scored_ic(math.nan) is None and scored_ic(math.inf) is None
    assert scored_ic("x") is None


def test_mask_cost_in_milli_nats_fails_closed():
    assert mask_cost([_mention(1.5), _mention(2.0)]) == 3500
    assert mask_cost([_mention(None)]) == DEFAULT_IC * IC_SCALE  # unscored: the default, never free
    assert mask_cost([_mention(1.0), _mention(math.nan)]) == (1.0 + DEFAULT_IC) * IC_SCALE
    assert mask_cost([]) == DEFAULT_IC * IC_SCALE
    assert mask_cost([_mention(-4.0)]) == DEFAULT_IC * IC_SCALE  # a negative IC counts 0: the total falls back
    assert mask_cost([_mention(1e-9)]) == 1  # never 0


def test_the_optimizer_costs_are_the_shared_ones():
    mentions = [_mention(0.25), _mention(None)]
    assert MaskingOptimizer._cost(mentions) == mask_cost(mentions)
