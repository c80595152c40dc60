"""Deterministic stand-ins for the scoring models: a causal language model and a sentence encoder.

Importing this module registers :class:`LengthLM` as ``test.LengthLM.v1`` (:data:`LENGTH_LM`) in spaCy's
``misc`` registry, for the settings and command-line options that name a model.
"""

import re

import numpy as np
from spacy.util import registry

from textanon.risk.language_models import CausalLM, LanguageModel
from textanon.risk.language_models.engine import ScoringEngine

LENGTH_LM = "test.LengthLM.v1"


class LengthLM(LanguageModel):
    """Deterministic stand-in for a causal LM: each word of a span is a token with log p = -len(word)/2."""

    name = "test:length"

    def __init__(self):
        self.calls = 0

    def span_token_logprobs(self, text, spans, passes=None):
        self.calls += 1
        return [np.asarray([-len(w) / 2 for w in text[s:e].split()], dtype=np.float32) for s, e in spans]


@registry.misc(LENGTH_LM)
def _length_lm():
    return LengthLM()


class WordOverlapEncoder:
    """Stand-in encoder: similarity = Jaccard overlap of lower-cased words; vectors from word hashes."""

    name = "test:overlap"

    def similarity(self, a, b):
        out = []
        for x, y in zip(a, b):
            wx, wy = set(x.lower().split()), set(y.lower().split())
            out.append(len(wx & wy) / len(wx | wy) if wx and wy else 0.0)
        return out

    def encode(self, texts):
        vecs = np.zeros((len(texts), 64))
        for i, t in enumerate(texts):
            for w in t.lower().split():
                vecs[i, sum(map(ord, w)) % 64] += 1
        return vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)


class VocabularyEncoder:
    """Stand-in sentence encoder for the retrieval judges: L2-normalised word counts over the vocabulary of
    ``texts`` (full stops dropped), and a count of ``encode`` calls (to see what a disk cache saves)."""

    name = "test:vocabulary"

    def __init__(self, texts):
        self.vocab = sorted({w for t in texts for w in t.lower().replace(".", "").split()})
        self.calls = 0

    def encode(self, texts, progress=False):
        self.calls += 1
        out = np.zeros((len(texts), len(self.vocab)), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().replace(".", "").split():
                if w in self.vocab:
                    out[i, self.vocab.index(w)] += 1
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms > 0, norms, 1)


class WordTokenizer:
    """One token per whitespace-separated word; ids from the word's characters."""

    bos_token_id, eos_token_id, pad_token_id = 1, 2, 0

    def __call__(self, text, add_special_tokens=False, return_offsets_mapping=True):
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        ids = [3 + sum(map(ord, text[s:e])) % 97 for s, e in words]
        return {"input_ids": ids, "offset_mapping": words}


class PrefixEngine(ScoringEngine):
    """A causal stand-in: ln p(token at p) is a fixed function of the row's tokens up to p; records its calls."""

    name = "test-prefix"

    def __init__(self):
        self.calls = []

    def row_logprobs(self, rows, positions):
        self.calls.append([(list(r), list(p)) for r, p in zip(rows, positions)])
        return [
            np.asarray([-1.0 - (hash(tuple(r[: p + 1])) % 1000) / 100 for p in pos], dtype=np.float32)
            for r, pos in zip(rows, positions)
        ]


class FakeCausalLM(CausalLM):
    """:class:`CausalLM` (its windows, batching, cache) over :class:`WordTokenizer` and :class:`PrefixEngine`."""

    def __init__(self, **kwargs):
        super().__init__("fake", **kwargs)
        self._scoring_engine = PrefixEngine()

    def _load(self):
        return WordTokenizer(), None

    @property
    def rows(self):
        """Every row the engine was given, in order."""
        return [row for call in self._scoring_engine.calls for row, _ in call]
