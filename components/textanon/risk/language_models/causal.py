"""Causal-LM backend: log p(token | left context) with sliding windows, scoring only the tokens asked for."""

import os
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence, Tuple

import numpy as np

from textanon.risk.language_models.base import CharSpan, LanguageModel, SpanRequest, spans_to_tokens
from textanon.risk.language_models.engine import REFERENCE, ScoringEngine, create_engine, keep_forever
from textanon.risk.language_models.loading import load_causal_lm
from textanon.risk.language_models.threads import adapt_threads_to_process


@dataclass
class _Scored:
    """A tokenized text and the log-probs of its tokens scored so far (NaN: not scored yet)."""

    ids: List[int]
    offsets: List[Tuple[int, int]]
    logprobs: np.ndarray


def _tokenize(text: str, tokenizer) -> _Scored:
    """``text`` tokenized without special tokens, nothing scored yet."""
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    ids, offsets = list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]
    return _Scored(ids, offsets, np.full(len(ids), np.nan, dtype=np.float32))


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

    engine: the forward-pass engine (:data:`~.engine.ENGINES`: ``torch-fp32`` reference, ``torch-int8``,
    ``ctranslate2-int8``, ``ctranslate2-fp32``); if it cannot be created the torch fp32 reference runs instead
    (``engine_fallback`` says why; a warning is logged).
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
        engine: str = REFERENCE,
    ):
        if context >= window - 1:
            raise ValueError("context must be smaller than window - 1")
        self.name = f"causal:{name_or_path}" + (f"/{gguf_file}" if gguf_file else "")
        self.name_or_path, self.gguf_file = name_or_path, gguf_file
        self.window, self.context, self.batch_size, self.device = window, context, batch_size, device
        self._doc_cache: "OrderedDict[str, _Scored]" = OrderedDict()
        self._cache_docs = cache_docs
        self.engine = engine
        self._scoring_engine: Optional[ScoringEngine] = None
        self._engine_pid: Optional[int] = None
        #: why the requested engine could not be created (the reference runs instead); None when it was
        self.engine_fallback: Optional[str] = None

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
        entry = _tokenize(text, tokenizer)
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
        """The forward-pass engine of this backend (``self.engine``, or the torch fp32 reference when it cannot be
        created); created again in a forked process when the engine is not fork-safe."""
        engine = self._scoring_engine
        if engine is None or (not engine.fork_safe and self._engine_pid != os.getpid()):
            import torch

            if engine is not None:  # inherited from the parent process: never used nor destroyed here
                keep_forever(engine)

            pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
            self._scoring_engine, self.engine_fallback = create_engine(
                self.engine,
                tokenizer,
                model,
                pad,
                self.device,
                name_or_path=self.name_or_path,
                gguf_file=self.gguf_file,
                threads=torch.get_num_threads(),
            )
            self._engine_pid = os.getpid()
        return self._scoring_engine

    def use_engine(self, engine: Optional[ScoringEngine]) -> None:
        """Score with ``engine`` from now on (``None``: the configured one, created again); cached scores dropped."""
        self._scoring_engine, self._engine_pid, self.engine_fallback = engine, os.getpid(), None
        self._doc_cache.clear()

    @property
    def engine_name(self) -> str:
        """The engine that scores (``self.engine``, or the reference after a fallback; before the first call: the
        requested one)."""
        return self._scoring_engine.name if self._scoring_engine is not None else self.engine

    def _score(self, entries: Sequence[_Scored], wanted: Sequence[np.ndarray], tokenizer, model) -> None:
        """Fill in the log-probs of the ``wanted`` tokens of each entry: the rows of all entries sorted by length
        and cut into engine calls of at most ``batch_size * window`` tokens (padding included)."""
        calls = list(self._calls(entries, wanted, tokenizer))
        if not calls:
            return
        adapt_threads_to_process()
        engine = self._engine(tokenizer, model)
        for batch, rows, positions in calls:
            for job, lps in zip(batch, engine.row_logprobs(rows, positions)):
                job.entry.logprobs[job.tokens] = lps

    def _calls(
        self, entries: Sequence[_Scored], wanted: Sequence[np.ndarray], tokenizer
    ) -> Iterator[Tuple[List[_Job], List[List[int]], List[np.ndarray]]]:
        """``(jobs, rows, positions)`` of each engine call that scores the ``wanted`` tokens not scored yet."""
        jobs = sorted((job for e, w in zip(entries, wanted) for job in self._jobs(e, w)), key=len)
        bos = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
        for batch in self._batches(jobs):
            rows, positions = [], []
            for job in batch:
                offset = 1 if job.start == 0 else 0  # row position of token ids[start]
                rows.append(([bos] if job.start == 0 else []) + job.entry.ids[job.start : job.end])
                positions.append(job.tokens - job.start + offset)
            yield batch, rows, positions

    def engine_calls(self, requests: Sequence[SpanRequest]) -> List[Tuple[List[List[int]], List[np.ndarray]]]:
        """The ``(rows, positions)`` engine calls that :meth:`span_token_logprobs_many` makes for ``requests`` of
        texts not scored yet (for benchmarks: the same windows and batches, nothing scored or cached)."""
        tokenizer, _ = self._load()
        entries, wanted = [], []
        for text, spans in requests:
            entry = _tokenize(text, tokenizer)
            toks = [t for per_span in spans_to_tokens(entry.offsets, spans) for t in per_span]
            entries.append(entry)
            wanted.append(np.unique(np.asarray(toks, dtype=np.int64)))
        return [(rows, positions) for _, rows, positions in self._calls(entries, wanted, tokenizer)]

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
