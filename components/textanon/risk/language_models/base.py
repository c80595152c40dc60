"""Language-model interface shared by the risk scorer and the utility evaluators.

Every backend returns natural-log probabilities (nats) of the sub-word tokens that
make up character spans of a text, so callers can reduce them with ``sum`` (span
log-probability, used for risk) or ``min`` (least likely token, used for TPI).
"""

import bisect
from abc import ABC, abstractmethod
from typing import List, Optional, Sequence, Tuple

import numpy as np

CharSpan = Tuple[int, int]
#: a text and the character spans to score in it
SpanRequest = Tuple[str, Sequence[CharSpan]]


class LanguageModel(ABC):
    """A scorer of character spans in context."""

    #: short identifier reported in metrics and settings
    name: str = "language-model"

    @abstractmethod
    def span_token_logprobs(
        self,
        text: str,
        spans: Sequence[CharSpan],
        passes: Optional[Sequence[Sequence[int]]] = None,
    ) -> List[np.ndarray]:
        """Log-probabilities (nats) of the sub-word tokens of each span.

        text: the whole document.
        spans: character offsets ``(start, end)``; may be empty.
        passes: for masked LMs, a partition of span indices: spans in one pass are
            masked together (N-term alternation); ``None`` masks each span alone.
            Causal LMs condition on the left context only and ignore it.
        Returns one array per span (empty array if the span covers no token).
        """

    def span_token_logprobs_many(self, requests: Sequence[SpanRequest]) -> List[List[np.ndarray]]:
        """:meth:`span_token_logprobs` (each span masked alone) of several ``(text, spans)`` requests, in order.

        Backends that can share forward passes between texts override this (:class:`~.causal.CausalLM` batches
        the windows of all the texts together); the results equal those of one call per text."""
        return [self.span_token_logprobs(text, spans) for text, spans in requests]

    def span_logprobs(self, text: str, spans: Sequence[CharSpan], reduce: str = "sum", passes=None) -> List[float]:
        """One log-probability per span: the ``sum`` or ``min`` of its token log-probs."""
        fn = {"sum": np.sum, "min": np.min}[reduce]
        out = []
        for arr in self.span_token_logprobs(text, spans, passes):
            out.append(float(fn(arr)) if len(arr) else 0.0)
        return out


def spans_to_tokens(offsets: Sequence[CharSpan], spans: Sequence[CharSpan]) -> List[List[int]]:
    """For each character span, the indices of the tokens that overlap it.

    ``offsets`` are the tokens' character ranges sorted by start; empty ranges
    (special tokens) never match. O((n_tokens + n_spans) log n_tokens).
    """
    starts = [o[0] for o in offsets]
    result = []
    for start, end in spans:
        i = max(bisect.bisect_right(starts, start) - 1, 0)
        found = []
        while i < len(offsets) and offsets[i][0] < end:
            s, e = offsets[i]
            if e > s and e > start and s < end:
                found.append(i)
            i += 1
        result.append(found)
    return result


def pad_batch(rows: Sequence[Sequence[int]], pad_id: int):
    """``(input_ids, attention_mask)``: long tensors of the token-id ``rows`` right-padded with ``pad_id`` to the
    longest row; the mask is 1 on the real tokens."""
    import torch

    width = max(map(len, rows))
    input_ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for r, row in enumerate(rows):
        input_ids[r, : len(row)] = torch.tensor(row)
        mask[r, : len(row)] = 1
    return input_ids, mask


class ScoringEngine(ABC):
    """Scores rows of token ids with a causal LM.

    ``row_logprobs(rows, positions)`` returns, for each row ``r``, the array of natural-log probabilities
    ``ln p(rows[r][p] | rows[r][:p])`` for every ``p`` in ``positions[r]`` (each ``p >= 1``), in that order.
    """

    #: short identifier reported in metrics (e.g. ``torch-fp32``)
    name: str = "engine"
    #: whether a forked process may keep using an engine its parent created (CTranslate2's thread pool cannot)
    fork_safe: bool = True

    @abstractmethod
    def row_logprobs(self, rows: Sequence[Sequence[int]], positions: Sequence[Sequence[int]]) -> List[np.ndarray]:
        """Log p(token | left context in its row) at the requested positions of each row."""
