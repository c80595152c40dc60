"""The embedded backends by name, and opening an index folder with the backend that built it."""

import importlib
from pathlib import Path
from typing import Dict, Tuple, Union

from textanon.risk.search.base import IndexIncompatible, SearchIndex, read_meta

#: backend name -> (module, writer class, index class); imported lazily (tantivy is optional)
BACKENDS: Dict[str, Tuple[str, str, str]] = {
    "sqlite-fts5": ("sqlite_backend", "SQLiteWriter", "SQLiteIndex"),
    "tantivy": ("tantivy_backend", "TantivyWriter", "TantivyIndex"),
}
#: chosen by measurement (docs/search.md, metrics/search_index_backends.json)
DEFAULT_BACKEND = "sqlite-fts5"


def _classes(backend: str) -> Tuple[type, type]:
    if backend not in BACKENDS:
        raise ValueError(f"unknown search backend {backend!r}; choose one of {sorted(BACKENDS)}")
    module, writer, index = BACKENDS[backend]
    mod = importlib.import_module(f"{__package__}.{module}")
    return getattr(mod, writer), getattr(mod, index)


def writer_class(backend: str) -> type:
    """The class that writes a new index with ``backend``."""
    return _classes(backend)[0]


def open_index(path: Union[str, Path]) -> SearchIndex:
    """Open the index folder ``path`` with the backend recorded in its ``meta.json``.

    Raises :class:`~textanon.risk.search.base.IndexMissing` or :class:`~textanon.risk.search.base.IndexIncompatible`."""
    meta = read_meta(path)
    backend = meta.get("backend")
    if backend not in BACKENDS:
        raise IndexIncompatible(
            f"search index at {path} was built by an unknown backend {backend!r}; rebuild it with "
            "`python -m textanon index build`"
        )
    return _classes(backend)[1](Path(path))
