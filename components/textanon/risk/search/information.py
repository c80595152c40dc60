"""Information content read from the index: how surprising a phrase is among the indexed documents."""

import math


def index_ic(document_frequency: int, n_docs: int) -> float:
    """IC in nats, ``-ln((df + 0.5) / (N + 1))``: add-one-half smoothing keeps it finite for an unseen phrase
    (df 0) and positive for a phrase in every document."""
    return -math.log((max(0, document_frequency) + 0.5) / (max(0, n_docs) + 1.0))


def bm25_idf(document_frequency: int, n_docs: int) -> float:
    """A word's BM25 weight at one occurrence in a document of average length: its idf,
    ``ln((N - df + 0.5) / (df + 0.5))``, floored at 1e-6 (as SQLite FTS5's ``bm25()``)."""
    df, n = max(0, document_frequency), max(0, n_docs)
    return max(1e-6, math.log((n - df + 0.5) / (df + 0.5)))
