"""Causal-LM backend: log p(token | left context) with sliding windows, scoring only the tokens asked for."""

from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence, Tuple

import numpy as np

from .base import CharSpan, LanguageModel, SpanRequest, spans_to_tokens
from .engine import ScoringEngine, TorchEngine
from .loading import load_causal_lm
from .threads import adapt_threads_to_process


@dataclass
class _Scored:
    """A tokenized text and the log-probs of its tokens scored so far (NaN: not scored yet)."""

    ids: List[int]
    offsets: List[Tuple[int, int]]
    logprobs: np.ndarray


@dataclass
class _Job:
    """One window row: tokens ``ids[start:end]`` (BOS first when ``start == 0``) of ``entry``; ``tokens`` are the
    document token indices whose log-probs the row gives."""

    entry: _Scored
    start: int
    end: int
    tokens: np.ndarray

    def __len__(self) -> int:
        return self.end - self.start + (1 if self.start == 0 else 0)


class CausalLM(LanguageModel):
    """Scores the tokens of the requested spans; each token once per text (cached), in the window that holds it.

    window: model input length in tokens; context: tokens of left context kept when the window slides (each
    scored token sees at least ``context`` tokens, except at the start of the document). The windows are
    fixed by the text alone, so a token's log-prob does not depend on which spans are asked for: a window
    that holds no requested token gets no forward pass, a row stops at its last requested token (a causal
    model does not see what follows), and the vocabulary log-softmax runs only at the requested tokens.
    Windows of several texts (:meth:`span_token_logprobs_many`) share engine calls, sorted by length.
    Memory is bounded by ``batch_size * window`` tokens per engine call.
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
        self._doc_cache: "OrderedDict[str, _Scored]" = OrderedDict()
        self._cache_docs = cache_docs
        self._scoring_engine: Optional[ScoringEngine] = None

    def _load(self):
        return load_causal_lm(self.name_or_path, self.gguf_file, self.device)

    def span_token_logprobs(self, text: str, spans: Sequence[CharSpan], passes=None) -> List[np.ndarray]:
        """Log p(token | left context) of each span's tokens (``passes`` unused: a causal LM sees no right context)."""
        return self.span_token_logprobs_many([(text, spans)])[0]

    def span_token_logprobs_many(self, requests: Sequence[SpanRequest]) -> List[List[np.ndarray]]:
        """:meth:`span_token_logprobs` of several ``(text, spans)`` requests, their windows batched together."""
        tokenizer, model = self._load()
        entries = [self._entry(text, tokenizer) for text, _ in requests]
        span_tokens = [spans_to_tokens(e.offsets, spans) for e, (_, spans) in zip(entries, requests)]
        wanted = [
            np.unique(np.fromiter((t for toks in per_span for t in toks), dtype=np.int64)) for per_span in span_tokens
        ]
        self._score(entries, wanted, tokenizer, model)
        return [
            [e.logprobs[np.asarray(toks, dtype=np.int64)] for toks in per_span]
            for e, per_span in zip(entries, span_tokens)
        ]

    def text_logprobs(self, text: str) -> Tuple[list, np.ndarray]:
        """Token character offsets and log p(token | left context) for every token of ``text``."""
        tokenizer, model = self._load()
        entry = self._entry(text, tokenizer)
        self._score([entry], [np.arange(len(entry.ids))], tokenizer, model)
        return entry.offsets, entry.logprobs.copy()

    def _entry(self, text: str, tokenizer) -> _Scored:
        """The cached tokenization and scores of ``text`` (the last ``cache_docs`` texts are kept)."""
        if text in self._doc_cache:
            self._doc_cache.move_to_end(text)
            return self._doc_cache[text]
        enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        ids, offsets = list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]
        entry = _Scored(ids, offsets, np.full(len(ids), np.nan, dtype=np.float32))
        self._doc_cache[text] = entry
        while len(self._doc_cache) > self._cache_docs:
            self._doc_cache.popitem(last=False)
        return entry

    def _windows(self, n: int):
        """(input_start, score_start, score_end) token ranges; inputs start with BOS at doc start."""
        step = self.window - 1 - self.context
        for score_start in range(0, n, step):
            score_end = min(score_start + step, n)
            yield max(0, score_start - self.context), score_start, score_end

    def _jobs(self, entry: _Scored, wanted: np.ndarray) -> Iterator[_Job]:
        """The rows that score the tokens of ``wanted`` (sorted indices) not scored yet: one per window holding
        one, ending at the last of them."""
        todo = wanted[np.isnan(entry.logprobs[wanted])] if len(wanted) else wanted
        if not len(todo):
            return
        for start, score_start, score_end in self._windows(len(entry.ids)):
            lo, hi = np.searchsorted(todo, [score_start, score_end])
            if lo == hi:
                if lo == len(todo):
                    return  # past the last wanted token
                continue
            tokens = todo[lo:hi]
            if start > 0 and tokens[0] == start:  # no left context in its row (context = 0): unscorable
                entry.logprobs[start] = 0.0
                tokens = tokens[1:]
                if not len(tokens):
                    continue
            yield _Job(entry, start, int(tokens[-1]) + 1, tokens)

    def _engine(self, tokenizer, model) -> ScoringEngine:
        """The forward-pass engine of this backend (the fp32 torch reference)."""
        if self._scoring_engine is None:
            pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
            self._scoring_engine = TorchEngine(model, pad, self.device)
        return self._scoring_engine

    def _score(self, entries: Sequence[_Scored], wanted: Sequence[np.ndarray], tokenizer, model) -> None:
        """Fill in the log-probs of the ``wanted`` tokens of each entry: the rows of all entries sorted by length
        and cut into engine calls of at most ``batch_size * window`` tokens (padding included)."""
        jobs = sorted((job for e, w in zip(entries, wanted) for job in self._jobs(e, w)), key=len)
        if not jobs:
            return
        adapt_threads_to_process()
        bos = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        engine = self._engine(tokenizer, model)
        for batch in self._batches(jobs):
            rows, positions = [], []
            for job in batch:
                offset = 1 if job.start == 0 else 0  # row position of token ids[start]
                rows.append(([bos] if job.start == 0 else []) + job.entry.ids[job.start : job.end])
                positions.append(job.tokens - job.start + offset)
            for job, lps in zip(batch, engine.row_logprobs(rows, positions)):
                job.entry.logprobs[job.tokens] = lps

    def _batches(self, jobs: Sequence[_Job]) -> Iterator[List[_Job]]:
        """Consecutive jobs (sorted by length) grouped under the budget of ``batch_size * window`` padded tokens."""
        budget = max(1, self.batch_size) * self.window
        batch: List[_Job] = []
        for job in jobs:
            if batch and (len(batch) + 1) * len(job) > budget:
                yield batch
                batch = []
            batch.append(job)
        if batch:
            yield batch
