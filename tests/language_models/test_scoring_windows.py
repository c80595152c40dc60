"""CausalLM scores only what is asked for: windows without a requested token get no forward pass, rows stop at
their last requested token, and windows of several texts share engine calls, with the values of full scoring."""

import re

import numpy as np
from fake_models import FakeCausalLM, WordTokenizer

WORDS = [f"w{i}" for i in range(60)]
TEXT = " ".join(WORDS)


def span_of(text, word):
    start = re.search(rf"\b{word}\b", text).start()
    return start, start + len(word)


def test_only_windows_holding_a_requested_token_are_scored_up_to_that_token():
    lm = FakeCausalLM(window=10, context=3, batch_size=2)  # windows score 6 tokens each: 10 windows
    _, full = FakeCausalLM(window=10, context=3, batch_size=2).text_logprobs(TEXT)
    assert len(list(lm._windows(len(WORDS)))) == 10
    got = lm.span_token_logprobs(TEXT, [span_of(TEXT, "w20"), span_of(TEXT, "w22")])
    assert [a.tolist() for a in got] == [[full[20]], [full[22]]]
    # one window (score range 18..23, input from 15) and its row stops at w22: nothing after it is fed
    assert lm.rows == [[lm._entry(TEXT, WordTokenizer()).ids[i] for i in range(15, 23)]]
    assert [len(pos) for call in lm._scoring_engine.calls for _, pos in call] == [2]  # log-softmax at 2 positions


def test_no_span_no_forward_pass_and_cached_tokens_are_not_scored_again():
    lm = FakeCausalLM(window=10, context=3)
    assert lm.span_token_logprobs(TEXT, []) == []
    assert lm.rows == []
    first = lm.span_token_logprobs(TEXT, [span_of(TEXT, "w5")])
    again = lm.span_token_logprobs(TEXT, [span_of(TEXT, "w5")])
    assert first[0].tolist() == again[0].tolist() and len(lm.rows) == 1


def test_partial_scoring_equals_full_scoring():
    spans = [span_of(TEXT, w) for w in ("w0", "w1", "w7", "w33", "w59")] + [(0, len(TEXT))]
    lm, ref = FakeCausalLM(window=12, context=4, batch_size=3), FakeCausalLM(window=12, context=4, batch_size=3)
    offsets, full = ref.text_logprobs(TEXT)
    got = lm.span_token_logprobs(TEXT, spans)
    assert [a.tolist() for a in got[:5]] == [[full[i]] for i in (0, 1, 7, 33, 59)]
    np.testing.assert_array_equal(got[5], full)
    assert lm.rows[0][0] == WordTokenizer.bos_token_id  # the first window starts with BOS


def test_windows_of_several_texts_share_engine_calls_with_the_same_values():
    texts = [" ".join(WORDS[k : k + n]) for k, n in ((0, 7), (5, 30), (11, 3), (2, 18))]
    requests = [(t, [span_of(t, w) for w in t.split()[1::2]]) for t in texts]
    alone = FakeCausalLM(window=10, context=3, batch_size=4)
    expected = [alone.span_token_logprobs(t, spans) for t, spans in requests]
    together = FakeCausalLM(window=10, context=3, batch_size=4)
    got = together.span_token_logprobs_many(requests)
    assert [[a.tolist() for a in per] for per in got] == [[a.tolist() for a in per] for per in expected]
    calls = together._scoring_engine.calls
    assert len(calls) < len(alone._scoring_engine.calls)  # rows of different texts in one call
    for call in calls:  # sorted by length, within the budget of batch_size * window padded tokens
        lengths = [len(row) for row, _ in call]
        assert len(lengths) * max(lengths) <= 4 * 10
    lengths = [len(row) for call in calls for row, _ in call]
    assert lengths == sorted(lengths)
