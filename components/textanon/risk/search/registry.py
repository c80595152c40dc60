"""Registry functions (spaCy's ``misc`` registry) that create index sources for ``textanon_search_risk``.

``textanon.LocalIndex.v1`` (``path``): an index folder built by ``python -m textanon index build``, with
whichever embedded backend built it (SQLite FTS5 or tantivy, read from its ``meta.json``).
``textanon.FrequencyPrior.v1``: no index, document counts estimated from word frequencies
(:mod:`textanon.risk.search.prior`): the default profile's risk.
"""

from spacy.util import registry

from textanon.risk.search.prior import PriorSource
from textanon.risk.search.source import IndexSource, LocalIndex


@registry.misc("textanon.LocalIndex.v1")
def local_index(path: str) -> IndexSource:
    """The index folder at ``path`` (opened on first use; see :class:`textanon.risk.search.source.LocalIndex`)."""
    return LocalIndex(path)


@registry.misc("textanon.FrequencyPrior.v1")
def frequency_prior(
    n_docs: int = 20_000, doc_tokens: int = 1000, phrase_penalty: float = 0.1, unseen_frequency: float = 1e-9
) -> IndexSource:
    """Counts estimated from wordfreq (see :mod:`textanon.risk.search.prior`): no index needed."""
    return PriorSource(
        n_docs=n_docs, doc_tokens=doc_tokens, phrase_penalty=phrase_penalty, unseen_frequency=unseen_frequency
    )
