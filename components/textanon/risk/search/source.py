"""Where the risk component gets its index: an index *source*, created by a registry function
(:mod:`textanon.risk.search.registry`), opened lazily on first use.

The component keeps the source, never the index: a pipeline saved with ``to_disk`` records the source's
settings (the index path) in its config, and a missing or broken index at run time is a per-document
fail-closed decision (every candidate is a risk, with a warning), not a crash at load time. A search
server can be added later as another source with the same :meth:`IndexSource.open`.
"""

import os
from pathlib import Path
from typing import Optional, Protocol, Union, runtime_checkable

from textanon.risk.search.backends import open_index
from textanon.risk.search.base import IndexUnavailable, SearchIndex


@runtime_checkable
class IndexSource(Protocol):
    """Opens the index the risk component asks (see the module docstring)."""

    def open(self) -> SearchIndex:
        """The index; raises :class:`~textanon.risk.search.base.IndexUnavailable` when it cannot be used."""

    def settings(self) -> dict:
        """What identifies the index (e.g. its path), for the component's ``cfg.json``: never the index."""


class LocalIndex:
    """An index folder on this machine, opened with the backend that built it (one handle per process)."""

    def __init__(self, path: Union[str, Path]):
        self.path = str(path)
        self._index: Optional[SearchIndex] = None
        self._pid: Optional[int] = None

    def open(self) -> SearchIndex:
        """The open index (one handle per process); :class:`IndexUnavailable` when it cannot be used."""
        if self._index is None or self._pid != os.getpid():  # a forked worker opens its own handle
            self._index, self._pid = None, None
            try:
                self._index = open_index(self.path)
            except IndexUnavailable:
                raise
            except Exception as err:  # noqa: BLE001 — any other failure to open is an unusable index
                raise IndexUnavailable(f"cannot open the search index at {self.path} ({type(err).__name__})") from None
            self._pid = os.getpid()
        return self._index

    def settings(self) -> dict:
        """The index path: what the component saves in its ``cfg.json``."""
        return {"path": self.path}

    def __getstate__(self) -> dict:  # pickled into worker processes without the open handle
        return {"path": self.path, "_index": None, "_pid": None}
