"""Information content read from the index: how surprising a phrase is among the indexed documents."""

import math


def index_ic(document_frequency: int, n_docs: int) -> float:
    """IC in nats, ``-ln((df + 0.5) / (N + 1))``: add-one-half smoothing keeps it finite for an unseen phrase
    (df 0) and positive for a phrase in every document."""
    return -math.log((max(0, document_frequency) + 0.5) / (max(0, n_docs) + 1.0))
