"""Causal-LM backend: log p(token | left context) with sliding windows, one pass per window."""

from collections import OrderedDict
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .base import CharSpan, LanguageModel, spans_to_tokens
from .engine import ScoringEngine, TorchEngine
from .loading import load_causal_lm


class CausalLM(LanguageModel):
    """Scores every token of a text once; spans read the log-probs of their tokens.

    window: model input length in tokens; context: tokens of left context kept when
    the window slides (each scored token sees at least ``context`` tokens, except at
    the start of the document). Memory is bounded by ``batch_size * window``.
    """

    def __init__(
        self,
        name_or_path: str,
        gguf_file: Optional[str] = None,
        window: int = 512,
        context: int = 128,
        batch_size: int = 4,
        device: str = "cpu",
        cache_docs: int = 8,
    ):
        if context >= window - 1:
            raise ValueError("context must be smaller than window - 1")
        self.name = f"causal:{name_or_path}" + (f"/{gguf_file}" if gguf_file else "")
        self.name_or_path, self.gguf_file = name_or_path, gguf_file
        self.window, self.context, self.batch_size, self.device = window, context, batch_size, device
        self._doc_cache: "OrderedDict[int, Tuple[list, np.ndarray]]" = OrderedDict()
        self._cache_docs = cache_docs
        self._scoring_engine: Optional[ScoringEngine] = None

    def _load(self):
        return load_causal_lm(self.name_or_path, self.gguf_file, self.device)

    def span_token_logprobs(self, text: str, spans: Sequence[CharSpan], passes=None) -> List[np.ndarray]:
        """Log p(token | left context) of each span's tokens, from one scoring of the whole text (``passes`` unused)."""
        offsets, logprobs = self.text_logprobs(text)
        return [logprobs[idx] for idx in map(np.asarray, spans_to_tokens(offsets, spans))]

    def text_logprobs(self, text: str) -> Tuple[list, np.ndarray]:
        """Token character offsets and log p(token | left context) for every token of ``text``."""
        key = hash(text)
        if key in self._doc_cache:
            self._doc_cache.move_to_end(key)
            return self._doc_cache[key]
        tokenizer, model = self._load()
        enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        ids, offsets = enc["input_ids"], [tuple(o) for o in enc["offset_mapping"]]
        logprobs = self._score_ids(ids, tokenizer, model)
        self._doc_cache[key] = (offsets, logprobs)
        while len(self._doc_cache) > self._cache_docs:
            self._doc_cache.popitem(last=False)
        return offsets, logprobs

    def _windows(self, n: int):
        """(input_start, score_start, score_end) token ranges; inputs start with BOS at doc start."""
        step = self.window - 1 - self.context
        for score_start in range(0, n, step):
            score_end = min(score_start + step, n)
            yield max(0, score_start - self.context), score_start, score_end

    def _engine(self, tokenizer, model) -> ScoringEngine:
        """The forward-pass engine of this backend (the fp32 torch reference)."""
        if self._scoring_engine is None:
            pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
            self._scoring_engine = TorchEngine(model, pad, self.device)
        return self._scoring_engine

    def _score_ids(self, ids: List[int], tokenizer, model) -> np.ndarray:
        out = np.zeros(len(ids), dtype=np.float32)
        if not ids:
            return out
        bos = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        engine = self._engine(tokenizer, model)
        windows = list(self._windows(len(ids)))
        for b in range(0, len(windows), self.batch_size):
            batch = windows[b : b + self.batch_size]
            rows = [([bos] if s == 0 else []) + ids[s:e] for s, _, e in batch]
            positions = []
            for s, ss, se in batch:
                offset = 1 if s == 0 else 0  # position of token ids[s] in the row
                first = max(ss - s + offset, 1)  # row position of the first scored token (needs left context)
                positions.append(range(first, se - s + offset))
            for (_, _, se), pos, lps in zip(batch, positions, engine.row_logprobs(rows, positions)):
                out[se - len(pos) : se] = lps
        return out
