import numpy as np
import pytest

from textanon.risk.language_models import CausalLM, MaskedLM, default_language_model
from textanon.risk.language_models.base import spans_to_tokens

TEXT = (
    "The applicant, Mr Andrei Petrescu, was born in 1961 and lives in Balti. "
    "He worked as a veterinary surgeon until 2004."
)


def test_spans_to_tokens():
    offsets = [(0, 3), (3, 8), (8, 9), (9, 9), (9, 14)]
    assert spans_to_tokens(offsets, [(0, 3), (4, 9), (9, 14), (20, 25)]) == [[0], [1, 2], [4], []]


@pytest.mark.slow
def test_causal_lm_scores_spans_and_windows_agree():
    """Windowed scores are compared with full-context scores of the same model.

    * Tokens of the first window see exactly the same input (BOS + the same prefix; later rows of the batch
      are right-padded, which a causal model cannot see), so they must equal the full-context values up to
      float32 arithmetic: measured max difference 1e-5 nats; the tolerance 1e-3 nats (0.1 % in probability)
      is 100x that and far below the risk threshold grid (0.5 log10 = 1.15 nats).
    * Later tokens lose the left context beyond ``context`` tokens (and the BOS), so they may differ; with
      16 tokens of context the mean absolute difference must stay under 0.5 nats (measured 0.24), and more
      context must bring the values closer to the full-context ones than 4 tokens (measured 0.84).
    """
    lm = default_language_model()
    spans = [(TEXT.index("Petrescu"), TEXT.index("Petrescu") + 8), (TEXT.index("1961"), TEXT.index("1961") + 4)]
    full = lm.span_logprobs(TEXT, spans)
    assert all(v < 0 and np.isfinite(v) for v in full)
    offsets, full_tokens = lm.text_logprobs(TEXT)
    later_error = {}
    for window, context in ((12, 4), (24, 16)):
        small = CausalLM(lm.name_or_path, gguf_file=lm.gguf_file, window=window, context=context, batch_size=2)
        small_offsets, windowed = small.text_logprobs(TEXT)
        assert small_offsets == offsets and len(windowed) == len(full_tokens) and np.all(windowed < 0)
        step = window - 1 - context  # tokens scored by the first window
        assert len(full_tokens) > 2 * step  # the text really spans several windows
        np.testing.assert_allclose(windowed[:step], full_tokens[:step], atol=1e-3, rtol=0)
        later_error[context] = float(np.mean(np.abs(windowed[step:] - full_tokens[step:])))
        assert all(v < 0 and np.isfinite(v) for v in small.span_logprobs(TEXT, spans))
    assert later_error[16] < 0.5
    assert later_error[16] < later_error[4]


@pytest.mark.slow
def test_masked_lm_path_with_a_tiny_random_bert(tiny_bert):
    lm = MaskedLM(str(tiny_bert), window=24, batch_size=3)
    spans = [(4, 13), (TEXT.index("Balti"), TEXT.index("Balti") + 5), (TEXT.index("2004"), TEXT.index("2004") + 4)]
    per_span = lm.span_token_logprobs(TEXT, spans)
    together = lm.span_token_logprobs(TEXT, spans, passes=[[0, 1, 2]])
    assert [len(a) for a in per_span] == [len(a) for a in together]
    for arr in per_span + together:
        assert len(arr) >= 1 and np.all(arr < 0)
    mins, sums = lm.span_logprobs(TEXT, spans, reduce="min"), lm.span_logprobs(TEXT, spans, reduce="sum")
    assert all(s <= m + 1e-6 for m, s in zip(mins, sums))
