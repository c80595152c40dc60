"""Input records (.txt, .jsonl, TAB-style .json, a folder of .txt files, Parquet): the one place where they are read.

:func:`read_records` loses none: bad ones become error records (the input of ``anonymize``);
:func:`jsonl_to_docs` is the strict converter of a JSONL file to Docs (``convert --format jsonl``).

* A UTF-8 byte-order mark at the start of a file is skipped (offsets refer to the text after it).
* ``"id": null`` (or no id) gives the default id: ``line<N>`` (JSONL), ``doc<I>`` (JSON), the file stem (TXT).
* A folder gives its ``*.txt``, ``*.html`` and ``*.htm`` files (not its subfolders) in sorted name order, one record
  per file.
* ``.html`` and ``.htm`` files are read as HTML (``Record.markup``: the pipeline reads the text a browser shows, the
  output keeps the tags, :mod:`textanon.io.markup`); ``markup=`` gives every record of a run its markup.
* Parquet (``.parquet``, needs ``pyarrow``): one record per row, columns as the JSON keys (``id`` or ``doc_id``,
  ``text``, ``target``; the others kept as ``meta``); the default id is ``row<I>``.
* A repeated id makes the later record an error record naming both places (``unique_ids``): no two output
  records, and no two entries of a masks file, can share an id, so no record's masks are ever lost.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from textanon.io.datasets.base import DatasetError
from textanon.io.datasets.tokenize import make_doc
from textanon.io.markup import HTML, MARKUPS

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

BOM = b"\xef\xbb\xbf"


@dataclass
class Record:
    """One document to anonymize; ``line`` is its line in a JSONL file (None otherwise)."""

    id: str
    text: str
    target: Optional[str] = None
    meta: dict = field(default_factory=dict)
    source: Optional[str] = None
    line: Optional[int] = None
    #: "text" (None: plain text) or "html": the pipeline reads the text a browser shows, the output keeps the tags
    markup: Optional[str] = None

    @property
    def where(self) -> str:
        """Where the record comes from, for error messages (``in.jsonl line 3``)."""
        return " ".join(p for p in (self.source, None if self.line is None else f"line {self.line}") if p)


@dataclass
class RecordError:
    """An input record that could not be read or processed; written to the output as an error record."""

    id: str
    error: str
    source: str
    line: Optional[int] = None

    def to_json(self) -> dict:
        """The output error record: ``{"id", "error", "source", "line"?}``."""
        out = {"id": self.id, "error": self.error, "source": self.source}
        if self.line is not None:
            out["line"] = self.line
        return out


Item = Union[Record, RecordError]


def read_records(path: Union[str, Path], markup: Optional[str] = None) -> Iterator[Item]:
    """Yield a Record or a RecordError for every record of ``path`` (format by extension), ids made unique.
    ``markup`` (``"text"`` or ``"html"``): every record's markup (None: HTML for ``.html``/``.htm`` files, else plain
    text)."""
    if markup not in (None, *MARKUPS):
        raise ValueError(f"markup must be one of {', '.join(MARKUPS)}, got {markup!r}")
    path = Path(path)
    suffix = path.suffix.lower()
    if path.is_dir():
        items = (_read_txt(p) for p in folder_files(path))
    elif suffix == ".jsonl":
        items = _read_jsonl(path)
    elif suffix == ".json":
        items = _read_json(path)
    elif suffix == ".parquet":
        items = _read_parquet(path)
    else:
        items = iter([_read_txt(path)])
    for item in unique_ids(items):
        if isinstance(item, Record) and markup is not None:
            item.markup = markup
        yield item


#: the files read as HTML; a folder gives these and ``.txt`` files, one record each
HTML_SUFFIXES = (".html", ".htm")
FILE_SUFFIXES = (".txt", *HTML_SUFFIXES)


def folder_files(path: Path) -> List[Path]:
    """The files of the folder ``path`` that are records (:data:`FILE_SUFFIXES`, any case), sorted by name."""
    return sorted(p for p in path.iterdir() if p.suffix.lower() in FILE_SUFFIXES and p.is_file())


def unique_ids(items: Iterable[Item]) -> Iterator[Item]:
    """Turn every record whose id was already seen into an error record naming both places (fail closed)."""
    seen: Dict[str, str] = {}
    for item in items:
        if isinstance(item, Record):
            if item.id in seen:
                error = (
                    f"{item.where or 'record'}: duplicate id {item.id!r} (first at {seen[item.id]}); "
                    "not anonymized, give every record a unique id"
                )
                yield RecordError(id=item.id, source=item.source or "", line=item.line, error=error)
                continue
            seen[item.id] = item.where or "an earlier record"
        yield item


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{where}: invalid UTF-8 at byte offset {err.start}") from None


def _read_txt(path: Path) -> Item:
    data = path.read_bytes()
    skip = len(BOM) if data.startswith(BOM) else 0
    try:
        markup = HTML if path.suffix.lower() in HTML_SUFFIXES else None
        return Record(id=path.stem, text=_decode(data[skip:], str(path)), source=str(path), markup=markup)
    except ValueError as err:
        return RecordError(id=path.stem, error=str(err), source=str(path))


def _jsonl_lines(path: Path) -> Iterator[Tuple[int, bytes, Optional[object], Optional[str]]]:
    """``(line number, raw line, parsed object or None, error or None)`` for every non-blank line of a JSONL file
    (a byte-order mark at the start skipped; errors name the line and the byte offset of bad UTF-8)."""
    offset = 0
    with path.open("rb") as f:
        for n, raw in enumerate(f, start=1):
            line_start, offset = offset, offset + len(raw)
            if n == 1 and raw.startswith(BOM):
                raw, line_start = raw[len(BOM) :], len(BOM)
            if not raw.strip():
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                yield n, raw, None, f"invalid UTF-8 at byte offset {line_start + err.start} (line {n})"
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as err:
                yield n, raw, None, f"malformed JSON on line {n}, column {err.colno}: {err.msg}"
                continue
            yield n, raw, obj, None


def _read_jsonl(path: Path) -> Iterator[Item]:
    for n, raw, obj, error in _jsonl_lines(path):
        rid = f"line{n}"
        try:
            if error is not None:
                raise ValueError(error)
            record = _record_from_obj(obj, rid, f"line {n}")
            record.source, record.line = str(path), n
            yield record
        except ValueError as err:
            yield RecordError(id=_peek_id(raw) or rid, error=f"{path}: {err}", source=str(path), line=n)


def _read_json(path: Path) -> Iterator[Item]:
    data = path.read_bytes()
    try:
        data = json.loads(_decode(data[len(BOM) :] if data.startswith(BOM) else data, str(path)))
    except (ValueError, json.JSONDecodeError) as err:
        yield RecordError(id=path.stem, error=f"{path}: {err}", source=str(path))
        return
    if isinstance(data, dict):  # {id: text} or a single document
        data = [data] if "text" in data else [{"id": k, "text": v} for k, v in data.items()]
    if not isinstance(data, list):
        yield RecordError(id=path.stem, error=f"{path}: expected a list of documents", source=str(path))
        return
    yield from _object_items(data, path, "doc", "document")


def _object_items(objs: Iterable, path: Path, prefix: str, unit: str) -> Iterator[Item]:
    """A record per JSON-like object (``_record_from_obj``): default id ``<prefix><i>``, source ``<path> <unit> <i>``;
    a bad object gives an error record with the default id."""
    for i, obj in enumerate(objs):
        try:
            record = _record_from_obj(obj, f"{prefix}{i}", f"{unit} {i}")
            record.source = f"{path} {unit} {i}"
            yield record
        except ValueError as err:
            yield RecordError(id=f"{prefix}{i}", error=f"{path}: {err}", source=str(path))


def _read_parquet(path: Path, batch_rows: int = 1024) -> Iterator[Item]:
    """One record per row, read ``batch_rows`` rows at a time (a file that cannot be read: one error record)."""
    import pyarrow.parquet as pq  # optional: the ``scale`` extra

    try:
        batches = pq.ParquetFile(path).iter_batches(batch_size=batch_rows)
        yield from _object_items((obj for batch in batches for obj in batch.to_pylist()), path, "row", "row")
    except (OSError, ValueError) as err:  # not a Parquet file, truncated (pyarrow's errors are ValueError/OSError)
        yield RecordError(id=path.stem, error=f"{path}: cannot read Parquet ({type(err).__name__})", source=str(path))


def _record_id(obj: dict, default_id: str) -> str:
    """The record's id: ``id`` or ``doc_id``; a missing or null id gives ``default_id``."""
    for key in ("id", "doc_id"):
        if obj.get(key) is not None:
            return str(obj[key])
    return default_id


def _record_from_obj(obj, default_id: str, where: str) -> Record:
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    rid = _record_id(obj, default_id)
    if "text" not in obj:
        raise ValueError(f"{where} (id {rid}): missing 'text' field")
    if not isinstance(obj["text"], str):
        raise ValueError(f"{where} (id {rid}): 'text' must be a string")
    target = obj.get("target", obj.get("name"))
    if target is not None and not isinstance(target, str):
        raise ValueError(f"{where} (id {rid}): 'target' must be a string")
    meta = {k: v for k, v in obj.items() if k not in ("id", "doc_id", "text", "target", "annotations")}
    return Record(id=rid, text=obj["text"], target=target, meta=meta)


def _peek_id(raw: bytes) -> Optional[str]:
    try:
        obj = json.loads(raw.decode("utf-8", errors="replace"))
        return _record_id(obj, "") or None if isinstance(obj, dict) else None
    except ValueError:
        return None


def jsonl_to_docs(path: Union[str, Path], nlp: Optional["Language"] = None) -> List["Doc"]:
    """Strict JSONL, one ``{"id": ..., "text": ...}`` per line -> Docs (``doc.user_data["id"]``, the id as given).

    Unlike :func:`read_records` (which turns bad records into error records), any bad line is a
    :class:`DatasetError` naming the file and the line: malformed JSON, no ``id`` or ``text``, an empty text,
    a repeated id (``convert --format jsonl``).
    """
    path = Path(path)
    docs, seen = [], set()
    for n, _, rec, error in _jsonl_lines(path):
        if error is not None:
            raise DatasetError(f"{path.name}: {error}")
        if not isinstance(rec, dict) or "id" not in rec or "text" not in rec:
            raise DatasetError(f"{path.name} line {n}: expected an object with 'id' and 'text'")
        if not isinstance(rec["text"], str) or not rec["text"].strip():
            raise DatasetError(f"{path.name} line {n} (id {rec['id']!r}): field 'text' is empty")
        if rec["id"] in seen:
            raise DatasetError(f"{path.name} line {n}: duplicate id {rec['id']!r}")
        seen.add(rec["id"])
        doc = make_doc(rec["text"], (), nlp)
        doc.user_data["id"] = rec["id"]
        docs.append(doc)
    return docs
