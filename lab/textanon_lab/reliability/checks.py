"""What the reliability suite measures on one run: pure functions over the output file and the logs.

* records in / out / error records, lost or extra records, and whether the output is in input order;
* PII strings found in the logs, the warnings or the error records (must be 0);
* direct identifiers surviving in the anonymized text (full string: must be 0; ``partial``: an
  informative piece of it, e.g. the digit groups of a card number, reported beside it);
* the warnings recorded on the documents, with digits folded so that they can be counted by kind.
"""

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from textanon_lab.reliability.inputs import Expected

#: pieces of identifiers that say nothing about a person
STOP_PIECES = {"http", "https", "www", "com", "org", "net", "example", "profile", "html", "mail"}
NAME_KINDS = ("name", "surname")


#: superscript digits right after a letter: a footnote mark ("John Roe²" reads "John Roe"), not part of the word
_FOOTNOTE_MARK = re.compile(r"(?<=[^\W\d_])[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+")


def normalize(text: str) -> str:
    """NFKC without format characters (soft hyphen, zero-width characters) and NULs, a footnote mark after a word read
    as a space, case-folded, whitespace collapsed: the form in which strings are compared (an identifier hidden by an
    invisible character or glued to a footnote mark still counts)."""
    text = _FOOTNOTE_MARK.sub(" ", text)
    text = "".join(c for c in unicodedata.normalize("NFKC", text) if c != "\x00" and unicodedata.category(c) != "Cf")
    return re.sub(r"\s+", " ", text).casefold().strip()


def _pattern(value: str) -> "re.Pattern[str]":
    words = [re.escape(w) for w in normalize(value).split(" ")]
    return re.compile(r"(?<![^\W_])" + r"\s+".join(words) + r"(?![^\W_])")


def contains(text: str, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` as a whole word sequence (case and whitespace insensitive)."""
    if not value.strip():
        return False
    return _pattern(value).search(normalize(text)) is not None


def informative_pieces(value: str, kind: str, source_text: str) -> List[str]:
    """Pieces of an identifier whose survival alone re-identifies: letter/digit runs of 3+ characters that
    hold a digit or are upper case (or any word of 4+ letters in emails and URLs), that occur nowhere else
    in the input text. Names are checked whole (``name``, ``surname``), not by piece."""
    if kind in NAME_KINDS:
        return []
    rest = normalize(source_text).replace(normalize(value), " ")
    pieces = []
    for piece in re.findall(r"[^\W_]+", value):
        keep = len(piece) >= 3 and (any(c.isdigit() for c in piece) or piece.isupper())
        keep = keep or (kind in ("email", "url") and len(piece) >= 4)
        if keep and piece.casefold() not in STOP_PIECES and not contains(rest, piece) and piece not in pieces:
            pieces.append(piece)
    return pieces


def read_output(path: Path) -> Tuple[List[dict], int]:
    """The output records and the number of lines that are not JSON objects (0 if the file is missing)."""
    rows, bad = [], 0
    try:
        data = Path(path).read_bytes()
    except OSError:
        return [], 0
    for raw in data.splitlines():
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw.decode("utf8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            bad += 1
            continue
        if isinstance(obj, dict):
            rows.append(obj)
        else:
            bad += 1
    return rows, bad


def is_error(row: dict) -> bool:
    """An error record (the document was not released)."""
    return "error" in row


def in_order(expected: Sequence[Expected], rows: Sequence[dict]) -> bool:
    """Output position i matches input record i: same id where the input names one, an error record where
    one is required, an anonymized record where one is required. With records lost or added, whether the
    ids that came out keep the input order."""
    if len(rows) == len(expected):
        for exp, row in zip(expected, rows):
            if exp.id is not None and str(row.get("id")) != exp.id:
                return False
            if exp.error is not None and is_error(row) != exp.error:
                return False
        return True
    position = {e.id: i for i, e in enumerate(expected) if e.id is not None}
    seen = [position[str(r.get("id"))] for r in rows if str(r.get("id")) in position]
    return seen == sorted(seen)


def wrong_kind(expected: Sequence[Expected], rows: Sequence[dict]) -> int:
    """Records (matched by id) that are an error where a result was required, or the reverse."""
    by_id = {str(r.get("id")): r for r in rows}
    return sum(
        1
        for e in expected
        if e.id is not None and e.error is not None and e.id in by_id and is_error(by_id[e.id]) != e.error
    )


def all_pii(expected: Iterable[Expected]) -> List[Dict[str, str]]:
    """Every PII string of the case, once (strings of fewer than 4 characters are skipped: too ambiguous)."""
    seen, out = set(), []
    for exp in expected:
        for p in exp.pii:
            key = (p["kind"], normalize(p["text"]))
            if key not in seen and len(p["text"].strip()) >= 4:
                seen.add(key)
                out.append(p)
    return out


def pii_found(text: str, pii: Sequence[Dict[str, str]]) -> Counter:
    """``{kind: n}`` of the PII strings that occur in ``text`` (logs, warnings, error messages)."""
    return Counter(p["kind"] for p in pii if contains(text, p["text"]))


def surviving(expected: Sequence[Expected], rows: Sequence[dict], sources: Dict[str, str]) -> Dict[str, Counter]:
    """PII left in the anonymized texts: ``{"full": {kind: n}, "partial": {kind: n}}``.

    Output records are matched to input records by id (by position for inputs without a usable id, when no
    record was lost or added); ``sources`` maps an id to its input text (to tell identifier pieces apart
    from template words)."""
    by_id = {str(r.get("id")): r for r in rows}
    full, partial = Counter(), Counter()
    for i, exp in enumerate(expected):
        if exp.id is not None:
            row = by_id.get(exp.id)
        else:
            row = rows[i] if len(rows) == len(expected) else None
        if row is None or is_error(row):
            continue
        text = row.get("anonymized_text")
        text = text if isinstance(text, str) else json.dumps(row, ensure_ascii=False)
        for p in exp.pii:
            if contains(text, p["text"]):
                full[p["kind"]] += 1
            elif any(
                contains(text, piece) for piece in informative_pieces(p["text"], p["kind"], sources.get(exp.id, ""))
            ):
                partial[p["kind"]] += 1
    return {"full": full, "partial": partial}


def warning_kinds(rows: Sequence[dict]) -> Counter:
    """The warnings on the output records, digits folded to ``#`` (``{warning: n}``)."""
    out: Counter = Counter()
    for row in rows:
        for w in row.get("warnings") or []:
            out[re.sub(r"\d+", "#", str(w))] += 1
    return out


def messages(rows: Sequence[dict]) -> str:
    """The warnings of the output records and every field of the error records but the id (where no PII may
    appear: an error record releases nothing), one per line."""
    lines = []
    for row in rows:
        lines += [str(w) for w in row.get("warnings") or []]
        if is_error(row):
            lines += [json.dumps(v, ensure_ascii=False) for k, v in row.items() if k not in ("id", "warnings")]
    return "\n".join(lines)


def log_summary(log: str) -> Dict[str, object]:
    """Warning/error lines and whether a Python traceback was printed."""
    lines = log.splitlines()
    return {
        "warning_lines": sum(1 for ln in lines if ln.startswith("WARNING") or "\u26a0" in ln),
        "error_lines": sum(1 for ln in lines if ln.startswith(("ERROR", "CRITICAL")) or "\u2718" in ln),
        "traceback": "Traceback (most recent call last)" in log,
    }


def count(expected: Sequence[Expected], rows: Sequence[dict], unreadable: int, output_checked: bool = True) -> dict:
    """Records in / out / errors / lost / extra and order for one run."""
    n_in, n_out = len(expected), len(rows) + unreadable
    return {
        "records_in": n_in,
        "records_out": n_out if output_checked else None,
        "error_records": sum(1 for r in rows if is_error(r)) if output_checked else None,
        "unreadable_output_lines": unreadable,
        "records_lost": max(0, n_in - n_out) if output_checked else None,
        "extra_records": max(0, n_out - n_in) if output_checked else None,
        "wrong_kind_records": wrong_kind(expected, rows) if output_checked else None,
        "in_order": in_order(expected, rows) if output_checked else None,
    }


def optional_int(value: Optional[int]) -> int:
    """``None`` counts as 0 in totals."""
    return int(value or 0)
