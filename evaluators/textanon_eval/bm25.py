"""A small Okapi BM25 retriever: the annotation-free re-identification attacker of threshold tuning.

Documents and queries are lower-cased ``\\w+`` words minus English stop words (spaCy's list). Scores
follow Robertson et al.: ``idf(w) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avg_len))`` with
``idf(w) = ln(1 + (N - df + 0.5) / (df + 0.5))``.
"""

import re
from collections import Counter
from typing import Dict, List, Sequence

import numpy as np
from spacy.lang.en.stop_words import STOP_WORDS

WORD = re.compile(r"\w+")


def words(text: str) -> List[str]:
    """Lower-case ``\\w+`` words of ``text`` without English stop words."""
    return [w for w in WORD.findall(text.lower()) if w not in STOP_WORDS]


class BM25:
    """BM25 index over ``documents``; :meth:`scores` ranks them for a query."""

    def __init__(self, documents: Sequence[str], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tfs: List[Counter] = [Counter(words(d)) for d in documents]
        self.lengths = np.array([sum(tf.values()) for tf in self.tfs], dtype=np.float64)
        self.avg = float(self.lengths.mean()) if len(self.tfs) else 0.0
        df: Counter = Counter(w for tf in self.tfs for w in tf)
        n = len(self.tfs)
        self.idf: Dict[str, float] = {w: float(np.log(1 + (n - c + 0.5) / (c + 0.5))) for w, c in df.items()}

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query`` (each distinct query word counted once)."""
        out = np.zeros(len(self.tfs))
        norm = self.k1 * (1 - self.b + self.b * self.lengths / (self.avg or 1.0))
        for w in set(words(query)):
            idf = self.idf.get(w)
            if idf is None:
                continue
            tf = np.array([t.get(w, 0) for t in self.tfs], dtype=np.float64)
            out += idf * tf * (self.k1 + 1) / (tf + norm)
        return out

    def top1(self, query: str) -> int:
        """Index of the best document; -1 when no query word is indexed (the attacker cannot guess)."""
        s = self.scores(query)
        return int(np.argmax(s)) if s.max(initial=0.0) > 0 else -1
