"""A word-level interpolated Kneser–Ney trigram language model, small and fast enough for the benchmark.

Used by :mod:`textanon_eval.readability` to score how fluent an anonymized text reads. Words are the
lower-cased ``\\w+`` matches of a text with every digit replaced by ``0`` (so that years are one kind of word);
each sentence (split after ``.``, ``!`` or ``?``) is padded with two ``<s>`` and one ``</s>``. Words seen fewer
than ``min_count`` times in training become ``<unk>``.

The estimate is the interpolated Kneser–Ney of Chen & Goodman (1999) with one absolute discount ``D`` per order:
the highest order uses counts, the lower orders continuation counts (the number of distinct words seen before),
and the unigram level is interpolated with the uniform distribution over the vocabulary, so every word of the
vocabulary has a non-zero probability. ``nltk.lm`` computes the same estimate, but lazily and hundreds of times
slower; the counts here are collected once.
"""

import math
import re
from collections import Counter
from typing import Dict, Iterable, List, Tuple

WORD = re.compile(r"\w+")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
DIGIT = re.compile(r"\d")
BOS, EOS, UNK = "<s>", "</s>", "<unk>"


def sentences(text: str) -> List[List[str]]:
    """The words of ``text`` per sentence: lower case, digits as ``0``, no punctuation."""
    out = []
    for sentence in SENTENCE_END.split(text):
        words = [DIGIT.sub("0", w.lower()) for w in WORD.findall(sentence)]
        if words:
            out.append(words)
    return out


class KneserNeyTrigram:
    """Interpolated Kneser–Ney trigram model trained on ``texts`` (see the module docstring)."""

    def __init__(self, texts: Iterable[str], discount: float = 0.75, min_count: int = 2):
        if not 0 < discount < 1:
            raise ValueError("the discount must lie in (0, 1)")
        self.discount = discount
        sents = [s for text in texts for s in sentences(text)]
        counts = Counter(w for s in sents for w in s)
        self.vocab = {w for w, c in counts.items() if c >= min_count} | {EOS, UNK}
        tri: Counter = Counter()
        for s in sents:
            padded = [BOS, BOS] + [w if w in self.vocab else UNK for w in s] + [EOS]
            tri.update(zip(padded, padded[1:], padded[2:]))
        if not tri:
            raise ValueError("no words to train the language model on")
        self.tri = tri
        self.ctx2: Counter = Counter()  # c(u v .)
        self.types2: Counter = Counter()  # N1+(u v .)
        cont2: Counter = Counter()  # N1+(. v w): distinct u before (v, w)
        for (u, v, w), c in tri.items():
            self.ctx2[(u, v)] += c
            self.types2[(u, v)] += 1
            cont2[(v, w)] += 1
        self.cont2 = cont2
        self.ctx1: Counter = Counter()  # N1+(. v .)
        self.types1: Counter = Counter()  # N1+(v .) over continuation bigrams
        cont1: Counter = Counter()  # N1+(. w): distinct v before w
        for (v, w), c in cont2.items():
            self.ctx1[v] += c
            self.types1[v] += 1
            cont1[w] += 1
        self.cont1 = cont1
        self.total1 = sum(cont1.values())
        self.types0 = len(cont1)
        self._cache: Dict[Tuple[str, str, str], float] = {}

    def unigram(self, w: str) -> float:
        """P(w): continuation count, interpolated with the uniform distribution over the vocabulary."""
        d = self.discount
        return max(self.cont1.get(w, 0) - d, 0) / self.total1 + d * self.types0 / self.total1 / len(self.vocab)

    def bigram(self, v: str, w: str) -> float:
        """P(w | v) from continuation counts, interpolated with :meth:`unigram`."""
        total = self.ctx1.get(v, 0)
        if not total:
            return self.unigram(w)
        d = self.discount
        return (max(self.cont2.get((v, w), 0) - d, 0) + d * self.types1[v] * self.unigram(w)) / total

    def prob(self, u: str, v: str, w: str) -> float:
        """P(w | u v) of the interpolated Kneser–Ney model (words outside the vocabulary as ``<unk>``)."""
        u, v, w = (x if x in self.vocab or x == BOS else UNK for x in (u, v, w))
        key = (u, v, w)
        p = self._cache.get(key)
        if p is None:
            total = self.ctx2.get((u, v), 0)
            if not total:
                p = self.bigram(v, w)
            else:
                d = self.discount
                p = (max(self.tri.get(key, 0) - d, 0) + d * self.types2[(u, v)] * self.bigram(v, w)) / total
            self._cache[key] = p
        return p

    def log_probs(self, text: str) -> List[float]:
        """Natural log-probability of every word of ``text`` and of each sentence end."""
        out = []
        for s in sentences(text):
            padded = [BOS, BOS] + s + [EOS]
            out += [math.log(self.prob(u, v, w)) for u, v, w in zip(padded, padded[1:], padded[2:])]
        return out

    def perplexity(self, text: str) -> float:
        """exp of the mean negative log-probability per word (sentence ends included); ``nan`` for no words."""
        logs = self.log_probs(text)
        return math.exp(-sum(logs) / len(logs)) if logs else float("nan")


def vocabulary_probabilities(model: KneserNeyTrigram, u: str = BOS, v: str = BOS) -> float:
    """Sum of P(w | u v) over the vocabulary: 1 up to rounding (a check of the estimate)."""
    return sum(model.prob(u, v, w) for w in model.vocab)
