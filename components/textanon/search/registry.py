"""Registry functions (spaCy's ``misc`` registry) that create index sources for ``textanon_search_risk``.

``textanon.LocalIndex.v1`` (``path``): an index folder built by ``python -m textanon index build``, with
whichever embedded backend built it (SQLite FTS5 or tantivy, read from its ``meta.json``).
"""

from spacy.util import registry

from .source import IndexSource, LocalIndex


@registry.misc("textanon.LocalIndex.v1")
def local_index(path: str) -> IndexSource:
    """The index folder at ``path`` (opened on first use; see :class:`textanon.search.source.LocalIndex`)."""
    return LocalIndex(path)
