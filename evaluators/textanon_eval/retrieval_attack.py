"""Retrieval attacks: judges of re-identification that search the public knowledge with the anonymized text.

An attacker holds the public documents of a pool of people (e.g. the full Wikipedia bodies of the 50
evaluated actors) and ranks the people for an anonymized text; the text is **re-identified** when its own
person ranks first (top-1). Two attackers, neither of which the anonymizer uses:

* :class:`LexicalAttack`: Okapi BM25 over the bodies (:class:`textanon_eval.bm25.BM25`: lower-case
  ``\\w+`` words minus English stop words, k1 1.5, b 0.75); a text with no indexed word is never
  re-identified (the attacker cannot guess).
* :class:`DenseAttack`: sentence embeddings (all-MiniLM-L6-v2, :mod:`textanon_eval.embeddings`) of
  body *chunks* (consecutive sentences up to ``chunk_words`` words; the model reads at most 256 word
  pieces); the text is cut into chunks the same way, and a person's score is the highest cosine between
  any chunk of the text and any chunk of their body (of the variants tried on the published manual
  anonymization — the whole text truncated, the mean of its chunks, the mean of per-chunk maxima — the
  one that re-identifies it most often, with 100-word chunks: 24 %, 22 % for the whole text). The body embeddings are
  cached on disk (``cache_dir``, one ``.npy`` per body set, keyed by the model and the chunks).

:func:`reidentification` gives the share of texts re-identified (and which ones).
"""

import hashlib
import re
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Protocol, Sequence, Union

import numpy as np

from textanon_eval.bm25 import BM25
from textanon_eval.embeddings import Encoder

SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


class RetrievalAttack(Protocol):
    """Ranks ``names`` (the pool of people) for texts."""

    names: List[str]

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), len(names))`` scores, higher = more likely that person."""


class LexicalAttack:
    """BM25 over the bodies of the pool (see the module docstring)."""

    kind = "bm25"

    def __init__(self, bodies: Mapping[str, str]):
        self.names = list(bodies)
        self.bm25 = BM25([bodies[n] or "" for n in self.names])

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """BM25 score of each text (as the query) against each person's body, ``(len(texts), len(names))``."""
        if not texts:
            return np.zeros((0, len(self.names)))
        return np.stack([self.bm25.scores(t) for t in texts])


def chunks(text: str, max_words: int = 100) -> List[str]:
    """Consecutive sentences of ``text`` packed into chunks of at most ``max_words`` words (a longer
    sentence is cut into pieces of ``max_words`` words)."""
    out: List[str] = []
    current: List[str] = []
    for sentence in SENTENCE_END.split(text or ""):
        words = sentence.split()
        while len(words) > max_words:  # an over-long "sentence" (a list, a table row)
            if current:
                out.append(" ".join(current))
                current = []
            out.append(" ".join(words[:max_words]))
            words = words[max_words:]
        if current and len(current) + len(words) > max_words:
            out.append(" ".join(current))
            current = []
        current += words
    if current:
        out.append(" ".join(current))
    return out


class DenseAttack:
    """Max cosine of MiniLM embeddings between the text and each person's body chunks (module docstring)."""

    kind = "dense"

    def __init__(
        self,
        bodies: Mapping[str, str],
        encoder=None,
        chunk_words: int = 100,
        cache_dir: Optional[Union[str, Path]] = None,
        progress: bool = False,
    ):
        self.names = list(bodies)
        self.encoder = encoder or Encoder()
        self.chunk_words = chunk_words
        pieces, owners = [], []
        for i, name in enumerate(self.names):
            for chunk in chunks(bodies[name], chunk_words):
                pieces.append(chunk)
                owners.append(i)
        self.owners = np.array(owners, dtype=np.int64)
        self.n_chunks = len(pieces)
        self.embeddings = self._body_embeddings(pieces, cache_dir, progress)

    def _body_embeddings(self, pieces: List[str], cache_dir, progress: bool) -> np.ndarray:
        if not pieces:
            return np.zeros((0, 384), dtype=np.float32)
        if cache_dir is None:
            return self.encoder.encode(pieces, progress=progress)
        key = hashlib.sha256("\x00".join([self.encoder.name, str(self.chunk_words), *pieces]).encode("utf8"))
        path = Path(cache_dir) / f"dense_bodies_{key.hexdigest()[:24]}.npy"
        if path.exists():
            cached = np.load(path)
            if cached.shape[0] == len(pieces):
                return cached
        vectors = self.encoder.encode(pieces, progress=progress)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npy")
        np.save(tmp, vectors)
        tmp.replace(path)
        return vectors

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        """Per text and person: the highest cosine between a chunk of the text and a chunk of the body."""
        out = np.zeros((len(texts), len(self.names)))
        per = [chunks(t, self.chunk_words) for t in texts]
        flat = [c for cs in per for c in cs]
        if not flat or not self.n_chunks:
            return out
        sims = self.encoder.encode(flat) @ self.embeddings.T  # (text chunks, body chunks)
        owned = [self.owners == i for i in range(len(self.names))]
        at = 0
        for t, cs in enumerate(per):
            if cs:
                best = sims[at : at + len(cs)].max(axis=0)
                out[t] = [best[own].max() if own.any() else 0.0 for own in owned]
                at += len(cs)
        return out


def top1(attack: RetrievalAttack, texts: Sequence[str]) -> List[Optional[str]]:
    """The attacker's first-ranked person for each text; None when every score is 0 or less (no evidence)."""
    scores = attack.scores(list(texts))
    out: List[Optional[str]] = []
    for row in scores:
        best = int(np.argmax(row)) if len(row) else -1
        out.append(attack.names[best] if best >= 0 and row[best] > 0 else None)
    return out


def reidentification(attack: RetrievalAttack, texts: Mapping[str, str]) -> Dict[str, object]:
    """``{"rate": % re-identified (top-1 is the text's own person), "reidentified": [names], "documents"}`` for
    ``texts`` ({person: anonymized text}; every person must be in the attacker's pool)."""
    unknown = [n for n in texts if n not in set(attack.names)]
    if unknown:
        raise ValueError(f"{len(unknown)} texts are about people outside the attacker's pool")
    names = list(texts)
    guesses = top1(attack, [texts[n] for n in names])
    hits = [n for n, g in zip(names, guesses) if g == n]
    return {
        "rate": round(100.0 * len(hits) / len(names), 2) if names else None,
        "reidentified": hits,
        "documents": len(names),
    }
