"""A public-knowledge *prior* for the search risk when no index is at hand: document counts estimated from a
general-English word-frequency list (``wordfreq``, whose data ship offline in its wheel).

What the attacker would type into a web search engine is the same as with an index; only the counts are
estimated instead of looked up. A phrase's frequency is wordfreq's (for several words, its combined estimate
times ``phrase_penalty`` per extra word: a phrase is rarer than its rarest word); a word the list does not hold
gets ``unseen_frequency``. The share of documents that contain the phrase is ``1 - exp(-f * doc_tokens)`` (a
document of ``doc_tokens`` tokens), and a conjunction of phrases is counted under independence, among
``n_docs`` documents:

    count(p_1 ... p_m) = n_docs * prod_i (1 - exp(-f(p_i) * doc_tokens))

The population risk then asks the same question as with an index (a term or pair of terms found in fewer than
``k`` documents singles the person out) and candidates beyond the recognizer's entities are kept when rare.
The prior holds no documents: there is no targeted risk (no document about the person to rank), ``search``
finds nothing and ``documents_of`` is empty. Settings are chosen on development data (docs/profiles.md).
"""

import math
from functools import lru_cache
from typing import Callable, Dict, List, Sequence

from wordfreq import tokenize, word_frequency

from textanon.risk.search.base import Hit


class FrequencyPrior:
    """The :class:`~textanon.risk.search.base.SearchIndex` protocol over word frequencies (module docstring)."""

    def __init__(
        self,
        n_docs: int = 20_000,
        doc_tokens: int = 1000,
        phrase_penalty: float = 0.1,
        unseen_frequency: float = 1e-9,
        language: str = "en",
    ):
        if n_docs < 1 or doc_tokens < 1 or not 0 < phrase_penalty <= 1 or not 0 < unseen_frequency < 1:
            raise ValueError("n_docs, doc_tokens >= 1; 0 < phrase_penalty <= 1; 0 < unseen_frequency < 1")
        self._n_docs, self.doc_tokens = int(n_docs), int(doc_tokens)
        self.phrase_penalty, self.unseen_frequency, self.language = phrase_penalty, unseen_frequency, language
        self.share = lru_cache(maxsize=200_000)(self._share)
        # a group asked as a tuple is kept, as a phrase's share is (the generalizer asks for the same hyponym lists,
        # "a film" and its members, document after document)
        self._kept_group_share = lru_cache(maxsize=100_000)(self._group_share)

    @property
    def n_docs(self) -> int:
        return self._n_docs

    def frequency(self, phrase: str) -> float:
        """The phrase's frequency per token (wordfreq; see the module docstring)."""
        words = tokenize(phrase, self.language)
        if not words:
            return 1.0  # punctuation only: in every document, never informative
        f = word_frequency(" ".join(words), self.language)
        if f <= 0:  # a phrase wordfreq cannot combine: its rarest word (unseen words at unseen_frequency)
            f = min((word_frequency(w, self.language) or self.unseen_frequency) for w in words)
        return max(self.unseen_frequency, f) * self.phrase_penalty ** (len(words) - 1)

    def _share(self, phrase: str) -> float:
        return -math.expm1(-self.frequency(phrase) * self.doc_tokens)

    def count(self, phrases: Sequence[str]) -> int:
        """Estimated number of documents that contain every phrase."""
        share = 1.0
        for phrase in phrases:
            share *= self.share(" ".join(phrase.split()).lower())
        return int(self._n_docs * share)

    def memo_count(self) -> Callable[[Sequence[str]], int]:
        """:func:`textanon.risk.search.base.memo_count` of this prior, without its per-call cost: each phrase is
        normalized and its share computed once, a conjunction multiplies the shares in the same (sorted) order, so
        every count is the one ``memo_count(prior)`` gives (the population risk asks for every pair of entities)."""
        normal: Dict[str, str] = {}
        shares: Dict[str, float] = {}

        def key_of(phrase: str) -> str:
            key = normal.get(phrase)
            if key is None:
                key = normal[phrase] = " ".join(phrase.split())
            return key

        def share_of_key(key: str) -> float:
            value = shares.get(key)
            if value is None:
                value = shares[key] = self.share(key.lower())
            return value

        def share_of(phrase: str) -> float:
            return share_of_key(key_of(phrase))

        def count(phrases: Sequence[str]) -> int:
            share = 1.0
            for key in sorted(key_of(p) for p in phrases):
                share *= share_of_key(key)
            return int(self._n_docs * share)

        # the count of two phrases is n_docs * (share a * share b) (a product of two floats does not depend on
        # their order): the population risk computes every pair's at once (textanon.risk.search.population)
        count.independent = (self._n_docs, share_of)
        return count

    def group_share(self, group: Sequence[str]) -> float:
        """The share of documents that contain one phrase of ``group`` (the sum of the phrases' shares, in their order,
        at most 1); a tuple's is kept."""
        return self._kept_group_share(group) if type(group) is tuple else self._group_share(group)

    def _group_share(self, group: Sequence[str]) -> float:
        return min(1.0, sum(self.share(" ".join(p.split()).lower()) for p in group))

    def count_any(self, groups: Sequence[Sequence[str]]) -> int:
        """Estimated number of documents that contain one phrase of every group."""
        share = 1.0
        for group in groups:
            share *= self.group_share(group)
        return int(self._n_docs * share)

    def search(self, words: Sequence[str], limit: int) -> List[Hit]:
        """No documents: nothing ranks."""
        return []

    def term_scores(self, word: str, docs: Sequence[int]) -> Dict[int, float]:
        return {}

    def documents_of(self, person: str) -> List[int]:
        """No documents about anyone: the targeted risk does not run over a prior."""
        return []


class PriorSource:
    """The index source of :class:`FrequencyPrior` (``textanon.FrequencyPrior.v1``): nothing to open or lose."""

    def __init__(self, **settings):
        self._settings = dict(settings)
        self._prior = FrequencyPrior(**settings)

    def open(self) -> FrequencyPrior:
        return self._prior

    def settings(self) -> dict:
        return {"prior": "wordfreq", **self._settings}

    def __getstate__(self) -> dict:  # pickled into worker processes without the lru cache
        return {"_settings": self._settings}

    def __setstate__(self, state: dict) -> None:
        self.__init__(**state["_settings"])
