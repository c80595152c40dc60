"""Input files of the reliability cases, written into a scratch folder (seeded; nothing is committed).

Each builder returns a :class:`CaseInput`: the file and, per non-blank input line, what the output
record at that position must be (its id if the input names one, whether it must be an error record)
and the PII strings it contains.
"""

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from textanon_lab.reliability.pii import (
    FIRST,
    IDENTIFIER_KINDS,
    LAST,
    Person,
    PiiRecord,
    identifier_records,
    name_records,
    person_record,
)

TRIGGER = "RELIABILITY-FAULT-TRIGGER"  # same default as textanon_lab.testing.faults.DEFAULT_TRIGGER


@dataclass
class Expected:
    """What the output record at one position must be.

    id: the id the output must carry (``None``: any id). error: ``True`` must be an error record,
    ``False`` must be anonymized, ``None`` either (both fail closed). pii: ``[{"kind", "text"}]``.
    """

    id: Optional[str]
    error: Optional[bool] = False
    pii: List[Dict[str, str]] = field(default_factory=list)


@dataclass
class CaseInput:
    """An input file and the output expected for it, in input order."""

    path: Path
    expected: List[Expected]
    target: Optional[str] = None  # --target for the whole file (.txt inputs)


def _line(record: PiiRecord) -> bytes:
    return json.dumps(record.to_json(), ensure_ascii=False).encode("utf8")


def _expect(record: PiiRecord, error: Optional[bool] = False) -> Expected:
    return Expected(record.id, error, record.pii)


def write_records(path: Path, records: List[PiiRecord], eol: bytes = b"\n") -> CaseInput:
    """A plain JSONL file of ``records``."""
    path.write_bytes(b"".join(_line(r) + eol for r in records))
    return CaseInput(path, [_expect(r) for r in records])


def fault_records(seed: int, n: int = 8, trigger_at: Optional[int] = None) -> List[PiiRecord]:
    """``n`` records with three identifiers each; record ``trigger_at`` carries the fault trigger."""
    records = identifier_records(seed)[:n]
    if trigger_at is not None:
        r = records[trigger_at]
        records[trigger_at] = PiiRecord(r.id, f"{r.text} {TRIGGER}", r.target, r.pii)
    return records


def empty(folder: Path, seed: int) -> CaseInput:
    """A 0-byte JSONL file: no records in, none out, a clean exit."""
    path = folder / "empty.jsonl"
    path.write_bytes(b"")
    return CaseInput(path, [])


def whitespace(folder: Path, seed: int) -> CaseInput:
    """Blank and whitespace-only lines, and records whose text is whitespace only."""
    path = folder / "whitespace.jsonl"
    path.write_bytes(b'   \n{"id": "ws-1", "text": "   "}\n\t\n{"id": "ws-2", "text": "\\n\\t\\r\\n"}\n \r\n')
    return CaseInput(path, [Expected("ws-1"), Expected("ws-2")])


def invalid_utf8(folder: Path, seed: int) -> CaseInput:
    """Invalid UTF-8 bytes inside a record that also holds PII, between two valid records."""
    a, b, c = identifier_records(seed)[:3]
    bad = _line(b).replace(b"The applicant, ", b"The applicant \xff\xfe, ", 1)
    path = folder / "invalid_utf8.jsonl"
    path.write_bytes(_line(a) + b"\n" + bad + b"\n" + _line(c) + b"\n")
    return CaseInput(path, [_expect(a), Expected(None, True, b.pii), _expect(c)])


def malformed_jsonl(folder: Path, seed: int) -> CaseInput:
    """Unterminated strings, a cut JSON array, and a last line truncated mid-record (no newline)."""
    recs = identifier_records(seed + 1)[:6]
    lines = [_line(recs[0]), _line(recs[1])[:-40], _line(recs[2]), b"[1, 2", _line(recs[3]), _line(recs[4])[:60]]
    path = folder / "malformed.jsonl"
    path.write_bytes(b"\n".join(lines))
    expected = [
        _expect(recs[0]),
        Expected(None, True, recs[1].pii),
        _expect(recs[2]),
        Expected(None, True),
        _expect(recs[3]),
        Expected(None, True, recs[4].pii),
    ]
    return CaseInput(path, expected)


def wrong_types(folder: Path, seed: int) -> CaseInput:
    """text as a number / list / null, id as an object / null, target as a number, no text, non-objects."""
    r = identifier_records(seed + 2)[:4]
    rows = [
        ({"id": "num-text", "text": 42}, Expected("num-text", True)),
        ({"id": "list-text", "text": [r[0].text]}, Expected("list-text", True, r[0].pii)),
        ({"id": "null-text", "text": None}, Expected("null-text", True)),
        ({"id": {"nested": 1}, "text": r[1].text, "target": r[1].target}, Expected(None, None, r[1].pii)),
        ({"id": None, "text": r[2].text, "target": r[2].target}, Expected(None, None, r[2].pii)),
        ({"id": "num-target", "text": r[3].text, "target": 7}, Expected("num-target", True, r[3].pii)),
        ({"id": "no-text"}, Expected("no-text", True)),
        (["a", "list"], Expected(None, True)),
        ("a string", Expected(None, True)),
        (None, Expected(None, True)),
        (r[0].to_json(), _expect(r[0])),
    ]
    path = folder / "wrong_types.jsonl"
    path.write_bytes(b"".join(json.dumps(obj, ensure_ascii=False).encode("utf8") + b"\n" for obj, _ in rows))
    return CaseInput(path, [e for _, e in rows])


def huge_token(folder: Path, seed: int, length: int = 20_000) -> CaseInput:
    """A 20,000-character word (random letters) inside a record with PII, then a normal record."""
    rng = random.Random(seed)
    a, b = identifier_records(seed + 3)[:2]
    word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
    huge = PiiRecord(a.id, f"{a.text} The file contained the string {word} and nothing else.", a.target, a.pii)
    data = write_records(folder / f"huge_token_{length}.jsonl", [huge, b])
    data.expected[0].error = None  # processed or refused: both fail closed
    return data


def huge_token_200k(folder: Path, seed: int) -> CaseInput:
    """A 200,000-character word (random letters: ~120k language-model tokens) in a record with PII."""
    return huge_token(folder, seed, 200_000)


def bom(folder: Path, seed: int) -> CaseInput:
    """A UTF-8 byte-order mark before the first (valid) record."""
    recs = identifier_records(seed + 4)[:2]
    path = folder / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(_line(r) + b"\n" for r in recs))
    return CaseInput(path, [_expect(r) for r in recs])


def crlf(folder: Path, seed: int) -> CaseInput:
    """CRLF line ends, and CRLF / lone CR inside the texts."""
    recs = identifier_records(seed + 5)[:3]
    recs = [PiiRecord(r.id, r.text.replace(". ", ".\r\n", 2).replace(". ", ".\r", 1), r.target, r.pii) for r in recs]
    return write_records(folder / "crlf.jsonl", recs, eol=b"\r\n")


def names(folder: Path, seed: int) -> CaseInput:
    """Target names in title, lower and upper case, with diacritics, and made of ordinary words."""
    return write_records(folder / "names.jsonl", name_records(seed))


def identifiers(folder: Path, seed: int) -> CaseInput:
    """Every identifier kind of :data:`IDENTIFIER_KINDS` twice, in court-like sentences."""
    return write_records(folder / "identifiers.jsonl", identifier_records(seed + 6))


def plain_text(folder: Path, seed: int) -> CaseInput:
    """A .txt input (one document, CRLF line ends) with the target given by ``--target``."""
    rng = random.Random(seed)
    rec = person_record("doc", Person(rng.choice(FIRST), rng.choice(LAST)), ["email", "iban", "ni_number"], rng)
    path = folder / "plain_text_doc.txt"
    path.write_bytes(rec.text.replace(". ", ".\r\n").encode("utf8"))
    return CaseInput(path, [Expected("plain_text_doc", False, rec.pii)], target=rec.target)


def big_document(folder: Path, seed: int, size: int = 1_050_000) -> CaseInput:
    """A ~1 MB court-like record (over spaCy's default ``max_length``) between two small records."""
    rng = random.Random(seed)
    parts, pii, n = [], [], 0
    while n < size:
        person = Person(rng.choice(FIRST), rng.choice(LAST))
        rec = person_record("part", person, rng.sample(IDENTIFIER_KINDS, 3), rng)
        parts.append(rec.text)
        pii += [p for p in rec.pii if p["kind"] != "surname"]
        n += len(rec.text) + 2
    big = PiiRecord("big-1mb", "\n\n".join(parts), None, pii)
    before, after = identifier_records(seed + 7)[:2]
    data = write_records(folder / "big_document.jsonl", [before, big, after])
    data.expected[1].error = None  # processed or refused: both fail closed
    return data


#: routine input cases (the 200k-character word and the 1 MB document are opt-in: ``--big``)
INPUT_CASES = {
    "empty_file": empty,
    "whitespace_only": whitespace,
    "invalid_utf8": invalid_utf8,
    "malformed_jsonl": malformed_jsonl,
    "wrong_types": wrong_types,
    "huge_token_20k": huge_token,
    "bom": bom,
    "crlf": crlf,
    "names_case_diacritics": names,
    "direct_identifiers": identifiers,
    "plain_text_file": plain_text,
}
