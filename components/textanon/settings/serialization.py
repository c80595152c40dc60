"""Serialization of the components whose state is their settings (linker, risk scorer, optimizer, recognizer).

Their settings live in the pipeline config: ``to_disk`` writes them to ``cfg.json`` as a record, and ``from_disk``
reads nothing back (the config already built the component). The recognizer also saves its gazetteer.
"""

from pathlib import Path
from typing import Iterable, Tuple, Union

import srsly
from spacy.util import ensure_path


class SettingsRecord:
    """Mixin: ``_cfg()`` is the dict of the attributes named in ``SETTINGS`` (in that order), ``to_disk`` writes it to
    ``cfg.json``, ``from_disk`` returns the component unchanged."""

    SETTINGS: Tuple[str, ...] = ()

    def _cfg(self) -> dict:
        return {name: getattr(self, name) for name in self.SETTINGS}

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        """Write the settings to ``path / "cfg.json"``."""
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "cfg.json", self._cfg())

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "SettingsRecord":
        """Settings live in the pipeline config; ``cfg.json`` is only a record of them."""
        return self
