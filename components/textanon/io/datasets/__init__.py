"""Readers of every input format, one file per format, returning typed records.

* records to anonymize (``.jsonl`` / ``.json`` / ``.txt``): :mod:`.records`, ``read_records`` -> ``Record`` /
  ``RecordError``;
* WikiActors (TRIR benchmark, and its ``_BK25`` variants): :mod:`.wikiactors`, ``read_wikiactors`` -> ``WikiActor``;
* TAB / echr-dev (annotated court cases): :mod:`.tab`, ``load_tab`` -> ``GoldDocument`` / ``Mention``;
* spaCy DocBin (``convert``, training corpora): :mod:`.docbin`, ``read_docbin`` / ``write_docbin`` / ``convert``.

Errors are :class:`~.base.DatasetError` (a ``ValueError``) naming the file and the record (``#index`` or id),
never quoting a record's text. :mod:`.tokenize` and :mod:`.extensions` serve the Doc converters (exact
offsets; gold span attributes).
"""

from textanon.io.datasets.base import DatasetError

__all__ = ["DatasetError"]
