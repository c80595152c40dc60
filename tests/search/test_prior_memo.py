"""The word-frequency prior's own memo counts exactly what ``memo_count`` over its ``count`` does."""

import itertools

from textanon.risk.search import base
from textanon.risk.search.prior import FrequencyPrior

PHRASES = ["Drama  Desk Award", "drama desk award", "Oslo", "the", "Zyxqwv", "New York", "  Oslo ", "Bank of England"]


def _generic(prior):
    """``memo_count``'s generic path (as for an index without its own)."""
    cache = {}

    def count(phrases):
        key = tuple(sorted(" ".join(p.split()) for p in phrases))
        if key not in cache:
            cache[key] = prior.count(list(key))
        return cache[key]

    return count


def test_the_priors_memo_is_the_generic_memo():
    prior = FrequencyPrior(n_docs=100_000)
    fast, generic = base.memo_count(prior), _generic(prior)
    assert fast.__qualname__.startswith("FrequencyPrior.memo_count")
    for n in (1, 2, 3):
        for phrases in itertools.permutations(PHRASES, n):
            assert fast(list(phrases)) == generic(list(phrases)), phrases
    assert fast([]) == generic([]) == prior.n_docs
    assert fast(["Zyxqwv"]) < 5 <= fast(["the"])
