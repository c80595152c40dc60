"""Building a public-knowledge index from documents (``python -m textanon index build``).

Inputs (:func:`read_documents`):

* a WikiActors-format ``.json`` list: each record's ``public_knowledge`` is a document about ``name``;
* a ``.jsonl`` file: ``{"id", "text", "name"?}`` per line (``target`` is read as ``name`` too);
* a folder of ``.txt`` files: one document each, id = file name, no person.

Records without text are skipped and counted. The folder gets the backend's files and ``meta.json``
(backend, schema version, tokenizer, documents, persons, build time).
"""

import json
import time
from pathlib import Path
from typing import Iterator, Optional, Tuple, Union

from tqdm import tqdm

from .backends import DEFAULT_BACKEND, writer_class
from .base import META_FILE, write_meta

Document = Tuple[str, Optional[str], Optional[str]]  # (id, text, person); text None = skipped


def read_documents(path: Union[str, Path]) -> Iterator[Document]:
    """Yield ``(id, text, person)`` for every document of ``path`` (see the module docstring)."""
    path = Path(path)
    if path.is_dir():
        for file in sorted(path.glob("*.txt")):
            yield file.stem, file.read_text(encoding="utf-8-sig"), None
        return
    if path.suffix.lower() == ".jsonl":
        with path.open(encoding="utf-8-sig") as f:
            for n, line in enumerate(f, start=1):
                if line.strip():
                    obj = json.loads(line)
                    person = obj.get("name", obj.get("target"))
                    yield (
                        str(obj.get("id") if obj.get("id") is not None else f"line{n}"),
                        _text(obj.get("text")),
                        person,
                    )
        return
    data = json.loads(path.read_text(encoding="utf-8-sig"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of records with 'name' and 'public_knowledge'")
    for i, rec in enumerate(data):
        if not isinstance(rec, dict):
            yield f"doc{i}", None, None
            continue
        text = rec.get("public_knowledge", rec.get("text"))
        person = rec.get("name", rec.get("target"))
        yield str(rec.get("id", person if person else f"doc{i}")), _text(text), person


def _text(value) -> Optional[str]:
    return value if isinstance(value, str) and value.strip() else None


def build_index(
    input_path: Union[str, Path], output: Union[str, Path], backend: str = DEFAULT_BACKEND, progress: bool = True
) -> dict:
    """Index every document of ``input_path`` into the folder ``output``; returns the written meta."""
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    (output / META_FILE).unlink(missing_ok=True)  # a half-built index must not look valid
    t0 = time.perf_counter()
    writer = writer_class(backend)(output)
    n_docs, skipped, persons = 0, 0, set()
    for doc_id, text, person in tqdm(read_documents(input_path), desc="index", unit="doc", disable=not progress):
        if text is None:
            skipped += 1
            continue
        writer.add(n_docs, doc_id, text, person)
        n_docs += 1
        if person:
            persons.add(person)
    writer.close()
    from ..about import __version__

    meta = {
        "backend": backend,
        "documents": n_docs,
        "persons": len(persons),
        "skipped_records": skipped,
        "source": Path(input_path).name,
        "build_seconds": round(time.perf_counter() - t0, 3),
        "built_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "textanon_version": __version__,
    }
    write_meta(output, meta)
    return meta


def folder_bytes(path: Union[str, Path]) -> int:
    """Bytes on disk of every file under ``path``."""
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
