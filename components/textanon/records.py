"""Reading input records (.txt, .jsonl, TAB-style .json) without losing any: bad ones become error records."""
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional, Union


@dataclass
class Record:
    """One document to anonymize."""

    id: str
    text: str
    target: Optional[str] = None
    meta: dict = field(default_factory=dict)


@dataclass
class RecordError:
    """An input record that could not be read; written to the output as an error record."""

    id: str
    error: str
    source: str
    line: Optional[int] = None

    def to_json(self) -> dict:
        out = {"id": self.id, "error": self.error, "source": self.source}
        if self.line is not None:
            out["line"] = self.line
        return out


Item = Union[Record, RecordError]


def read_records(path: Union[str, Path]) -> Iterator[Item]:
    """Yield a Record or a RecordError for every record of ``path`` (format by extension)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        yield from _read_jsonl(path)
    elif suffix == ".json":
        yield from _read_json(path)
    else:
        yield _read_txt(path)


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{where}: invalid UTF-8 at byte offset {err.start}") from None


def _read_txt(path: Path) -> Item:
    try:
        return Record(id=path.stem, text=_decode(path.read_bytes(), str(path)))
    except ValueError as err:
        return RecordError(id=path.stem, error=str(err), source=str(path))


def _read_jsonl(path: Path) -> Iterator[Item]:
    offset = 0
    with path.open("rb") as f:
        for n, raw in enumerate(f, start=1):
            line_start, offset = offset, offset + len(raw)
            if not raw.strip():
                continue
            rid = f"line{n}"
            try:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as err:
                    raise ValueError(f"invalid UTF-8 at byte offset {line_start + err.start} (line {n})") from None
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as err:
                    raise ValueError(f"malformed JSON on line {n}, column {err.colno}: {err.msg}") from None
                yield _record_from_obj(obj, rid, f"line {n}")
            except ValueError as err:
                yield RecordError(id=_peek_id(raw) or rid, error=f"{path}: {err}", source=str(path), line=n)


def _read_json(path: Path) -> Iterator[Item]:
    try:
        data = json.loads(_decode(path.read_bytes(), str(path)))
    except (ValueError, json.JSONDecodeError) as err:
        yield RecordError(id=path.stem, error=f"{path}: {err}", source=str(path))
        return
    if isinstance(data, dict):  # {id: text} or a single document
        data = [data] if "text" in data else [{"id": k, "text": v} for k, v in data.items()]
    if not isinstance(data, list):
        yield RecordError(id=path.stem, error=f"{path}: expected a list of documents", source=str(path))
        return
    for i, obj in enumerate(data):
        try:
            yield _record_from_obj(obj, f"doc{i}", f"document {i}")
        except ValueError as err:
            yield RecordError(id=f"doc{i}", error=f"{path}: {err}", source=str(path))


def _record_from_obj(obj, default_id: str, where: str) -> Record:
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    rid = str(obj.get("id", obj.get("doc_id", default_id)))
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
        return str(obj["id"]) if isinstance(obj, dict) and "id" in obj else None
    except (ValueError, KeyError):
        return None
