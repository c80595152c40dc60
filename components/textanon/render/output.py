"""Serializing anonymized Docs: JSONL output records, the TAB/TAE offset format and a table of decisions."""

import json
from pathlib import Path
from typing import IO, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.tokens import Doc

from textanon.extensions import ALLOWED_KEY, DEFAULT_SPANS_KEY
from textanon.render.masking import covered, merge

#: columns of :func:`decision_rows`
DECISION_HEADER = ("span", "label", "entity", "source", "IC (nats)", "decision")


class OutputError(Exception):
    """An OSError (``error``: e.g. a full disk) stopped :func:`write_output` after ``written`` records."""

    def __init__(self, error: OSError, written: int):
        super().__init__(f"I/O error after {written} records written: {error.strerror or type(error).__name__}")
        self.error, self.written = error, written


def doc_to_record(doc: Doc, doc_id: str, spans_key: str = DEFAULT_SPANS_KEY) -> dict:
    """Output record: id, anonymized text, every detected span with its decision, warnings.

    A span's ``masked`` is read from the masks actually applied (``doc._.masks``): true only if every
    character of the span is masked, whatever the optimizer decided."""
    masks = [list(m) for m in (doc._.masks or [])]
    applied = merge(masks)
    spans = [
        {
            "start": s.start_char,
            "end": s.end_char,
            "label": s.label_,
            "entity_id": s._.entity_id,
            "ic": None if s._.ic is None else round(float(s._.ic), 4),
            "masked": covered(applied, s.start_char, s.end_char),
            "source": s._.source,
        }
        for s in doc.spans.get(spans_key, [])
    ]
    for span, out in zip(doc.spans.get(spans_key, []), spans):
        if span._.operator is not None:  # set only when operators are configured (default output unchanged)
            out["operator"] = span._.operator
        if span._.risk_reasons is not None:  # the search risk's (absent otherwise: default output unchanged)
            out["risk_reasons"] = list(span._.risk_reasons)
    record = {
        "id": doc_id,
        "anonymized_text": doc._.anonymized_text,
        "spans": spans,
        "risky_combinations": doc._.risky_combinations or [],
        "masks": masks,
        "warnings": doc._.anonymization_warnings or [],
    }
    if doc._.reid_rank is not None:
        record["reid_rank"] = doc._.reid_rank
    if doc.spans.get(ALLOWED_KEY):  # spans an allow list removed (absent otherwise: default output unchanged)
        record["allowed"] = [
            {"start": s.start_char, "end": s.end_char, "label": s.label_, "source": s._.source}
            for s in doc.spans[ALLOWED_KEY]
        ]
    return record


def masks_by_doc(records: List[dict]) -> Dict[str, List[list]]:
    """``{doc_id: [[start, end, replacement], ...]}`` from output records (error records skipped).

    Raises ValueError on a repeated id rather than silently keeping one record's masks."""
    out: Dict[str, List[list]] = {}
    for r in records:
        if "error" in r:
            continue
        if r["id"] in out:
            raise ValueError(f"duplicate id {r['id']!r}: masks would be lost")
        out[r["id"]] = r["masks"]
    return out


def write_output(
    records: Iterable[dict],
    out: IO[str],
    masks_file: Optional[IO[str]] = None,
    on_error: Optional[Callable[[dict], None]] = None,
) -> Tuple[int, int]:
    """Write every output or error record of ``records`` (``runner.anonymize_records``) to ``out`` as one
    JSON line, flushed as it comes, then the masks of the successful ones to ``masks_file``
    (:func:`masks_by_doc`); both files are closed. ``on_error`` is called with each error record.

    Returns (documents anonymized, error records). An OSError while reading or writing is raised as
    :class:`OutputError`, which says how many records were written (the output is then incomplete)."""
    kept, n_ok, n_err = [], 0, 0
    try:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            if "error" in record:
                n_err += 1
                if on_error is not None:
                    on_error(record)
            else:
                n_ok += 1
                kept.append({"id": record["id"], "masks": record["masks"]})
        out.close()
        if masks_file:
            json.dump(masks_by_doc(kept), masks_file, ensure_ascii=False)
            masks_file.close()
    except OSError as err:
        raise OutputError(err, n_ok + n_err) from err
    return n_ok, n_err


class ParquetOutput:
    """A Parquet output file that :func:`write_output` writes like a text file (``anonymize --output x.parquet``):
    each JSON line becomes a row ``id``, ``error`` (null for an output record), ``anonymized_text`` (null for an
    error record) and ``record`` (the whole JSON record, as the JSONL output's line), in the order written; rows
    are buffered and written ``rows_per_group`` at a time (needs ``pyarrow``)."""

    COLUMNS = ("id", "error", "anonymized_text", "record")

    def __init__(self, path: Union[str, Path], rows_per_group: int = 1000):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._pa, self.path, self.rows_per_group = pa, Path(path), max(1, rows_per_group)
        self._schema = pa.schema([(name, pa.string()) for name in self.COLUMNS])
        self._writer = pq.ParquetWriter(self.path, self._schema)
        self._rows: List[dict] = []

    def write(self, line: str) -> int:
        """Add one JSON line (``write_output`` writes one record per call)."""
        line = line.rstrip("\n")
        if line:
            record = json.loads(line)
            self._rows.append(
                {"id": record.get("id"), "error": record.get("error"), "anonymized_text": record.get("anonymized_text")}
                | {"record": line}
            )
        return len(line)

    def flush(self) -> None:
        """Write the buffered rows once a row group is full."""
        if len(self._rows) >= self.rows_per_group:
            self._write_rows()

    def close(self) -> None:
        """Write what is buffered and close the file."""
        if self._writer is not None:
            self._write_rows()
            self._writer.close()
            self._writer = None

    def _write_rows(self) -> None:
        if self._rows:
            self._writer.write_table(self._pa.Table.from_pylist(self._rows, schema=self._schema))
            self._rows = []


def decision_rows(doc: Doc, spans_key: str = DEFAULT_SPANS_KEY, width: int = 40) -> List[Tuple]:
    """One row per detected span (:data:`DECISION_HEADER`): its text (cut at ``width`` characters), label,
    entity id, source, IC and whether it is masked."""
    return [
        (
            s.text[:width],
            s.label_,
            s._.entity_id,
            s._.source,
            "-" if s._.ic is None else f"{s._.ic:.1f}",
            "masked" if s._.masked else "kept",
        )
        for s in doc.spans[spans_key]
    ]


def json_lines(path: Union[str, Path]) -> Iterator[Tuple[int, Optional[dict]]]:
    """``(line number, the line's JSON object or None)`` for every non-blank line of a JSONL file."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = None
            yield n, record if isinstance(record, dict) else None


def read_output(path: Union[str, Path]) -> Iterator[dict]:
    """The records of an ``anonymize`` output file (JSONL); a line that is not a JSON object is an error record."""
    for _, record in read_numbered_output(path):
        yield record


def read_numbered_output(path: Union[str, Path]) -> Iterator[Tuple[int, dict]]:
    """``(line number, record)`` for every record of :func:`read_output` (to name a record in an error)."""
    for n, record in json_lines(path):
        yield n, record if record is not None else {"id": f"line{n}", "error": f"output line {n} is not a JSON object"}


def output_file_problem(path: Union[str, Path]) -> Optional[str]:
    """Why ``path`` is not an ``anonymize`` output (its first record is no output or error record: an input file
    given in its place), None when it is one."""
    for n, record in json_lines(path):
        if record is None or "id" not in record:
            return f"line {n} is not an output record of `textanon anonymize` (a JSON object)"
        if "anonymized_text" not in record and "error" not in record:
            return (
                f"line {n} has no anonymized_text: give the output of `textanon anonymize` (the input goes to --input)"
            )
        return None
    return "it holds no record"
