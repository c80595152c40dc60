"""Building a public-knowledge index from documents (``python -m textanon index build``).

Inputs (:func:`read_documents`):

* a WikiActors-format ``.json`` list: each record's ``public_knowledge`` is a document about ``name``;
* a ``.jsonl`` file: ``{"id", "text", "name"?}`` per line (``target`` is read as ``name`` too), or a
  ``{id: text}`` / TAB-style ``.json`` (:func:`textanon.io.datasets.records.read_records`);
* a folder of ``.txt`` files: one document each, id = file name, no person.

Records without text are skipped and counted. The folder gets the backend's files and ``meta.json``
(backend, schema version, tokenizer, documents, persons, build time).
"""

import time
from pathlib import Path
from typing import Collection, Iterator, Optional, Set, Tuple, Union

from tqdm import tqdm

from textanon.about import __version__
from textanon.io.datasets.base import read_json
from textanon.io.datasets.records import Record, read_records
from textanon.io.datasets.wikiactors import BACKGROUND, read_wikiactors
from textanon.risk.search.backends import DEFAULT_BACKEND, writer_class
from textanon.risk.search.base import META_FILE, write_meta

Document = Tuple[str, Optional[str], Optional[str]]  # (id, text, person); text None = skipped


def read_documents(path: Union[str, Path]) -> Iterator[Document]:
    """Yield ``(id, text, person)`` for every document of ``path`` (see the module docstring), read through
    :mod:`textanon.io.datasets`; a record that cannot be read or has no text gives ``text`` None (skipped)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.txt"))
    elif path.suffix.lower() == ".json":
        data = read_json(path, "index input")
        if isinstance(data, list) and any(isinstance(r, dict) and BACKGROUND in r for r in data):
            for rec in read_wikiactors(data, name=str(path)):
                yield (rec.name or f"doc{rec.index}"), _text(rec.background), rec.name
            return
        files = [path]
    else:
        files = [path]
    for file in files:
        for item in read_records(file):
            if isinstance(item, Record):
                yield item.id, _text(item.text), item.target
            else:
                yield item.id, None, None


def _text(value) -> Optional[str]:
    return value if isinstance(value, str) and value.strip() else None


def build_index(
    input_path: Union[str, Path],
    output: Union[str, Path],
    backend: str = DEFAULT_BACKEND,
    progress: bool = True,
    exclude_persons: Collection[str] = (),
) -> dict:
    """Index every document of ``input_path`` into the folder ``output``; returns the written meta.
    ``exclude_persons``: documents about these people are left out (counted in ``excluded_documents``)."""
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    (output / META_FILE).unlink(missing_ok=True)  # a half-built index must not look valid
    t0 = time.perf_counter()
    writer = writer_class(backend)(output)
    n_docs, skipped, excluded, persons = 0, 0, 0, set()
    leave_out = set(exclude_persons)
    for doc_id, text, person in tqdm(read_documents(input_path), desc="index", unit="doc", disable=not progress):
        if text is None:
            skipped += 1
            continue
        if person and person in leave_out:
            excluded += 1
            continue
        writer.add(n_docs, doc_id, text, person)
        n_docs += 1
        if person:
            persons.add(person)
    writer.close()

    meta = {
        "backend": backend,
        "documents": n_docs,
        "persons": len(persons),
        "skipped_records": skipped,
        "excluded_documents": excluded,
        "source": Path(input_path).name,
        "build_seconds": round(time.perf_counter() - t0, 3),
        "built_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "textanon_version": __version__,
    }
    write_meta(output, meta)
    return meta


def persons_in(path: Union[str, Path]) -> Set[str]:
    """The people of a WikiActors-format file (e.g. the evaluated records, to leave out of an index)."""
    return {r.name for r in read_wikiactors(path) if r.name}


def folder_bytes(path: Union[str, Path]) -> int:
    """Bytes on disk of every file under ``path``."""
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
