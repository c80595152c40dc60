"""Tables written as text: the cells of a column whose header says what they hold.

A spreadsheet pasted into a message, a CSV export or a tab-separated list ("Name<TAB>Role<TAB>Phone", then a row per
person) is no prose: the generic NER, which reads sentences, misses names in it (a row "Katarzyna Wiśniewska<TAB>Team
Lead<TAB>+48 ..." kept the name). The header names the column, so its cells are found by position:

* a table is two lines or more that split into the same number of cells (two or more) on the same delimiter (a tab,
  "|", ";" or ","), its first line the header;
* a header cell that names a person (:data:`NAME_HEADERS`: "Name", "Full name", "Surname", "Patient", "Employee"...)
  makes every non-empty cell under it a PERSON (rule ``table_name``); one that names a date of birth ("DOB", "Date of
  birth") makes its cells a date of birth (rule ``table_birth_date``). Both are direct identifiers: always masked, and
  the names looked for again in the whole text.

A header is words only (no digit), every cell of it short: a line of prose with commas is no table header.
"""

import re
from typing import Iterator, List, Tuple

from textanon.labels import DATETIME, PERSON

#: (start, end, label, rule name)
Match = Tuple[int, int, str, str]
#: the rules of this module: direct identifiers (always masked)
TABLE_RULE_NAMES = frozenset({"table_name", "table_birth_date"})

#: header cells (lower case, spaces single, without "_" or "-") whose column holds people's names
NAME_HEADERS = frozenset(
    {
        "name",
        "names",
        "full name",
        "fullname",
        "first name",
        "firstname",
        "given name",
        "given names",
        "forename",
        "forenames",
        "last name",
        "lastname",
        "surname",
        "family name",
        "patient",
        "patient name",
        "employee",
        "employee name",
        "staff",
        "staff name",
        "customer",
        "customer name",
        "client",
        "client name",
        "contact",
        "contact name",
        "student",
        "student name",
        "pupil",
        "member",
        "member name",
        "applicant",
        "account holder",
        "account name",
        "next of kin",
        "guardian",
        "parent",
        "owner",
        "tenant",
        "person",
    }
)
#: header cells whose column holds dates of birth
BIRTH_HEADERS = frozenset({"dob", "d.o.b.", "d.o.b", "date of birth", "birth date", "birthdate", "born", "birthday"})
#: the delimiters a table's cells are split on, in the order tried
DELIMITERS = ("\t", "|", ";", ",")
#: the longest header cell, in characters
MAX_HEADER_CELL = 30
_HEADER_CELL = re.compile(r"[^\W\d][\w .'’/()#-]*")


def find_table_cells(text: str) -> Iterator[Match]:
    """The name and date-of-birth cells of every table of ``text`` (module docstring)."""
    if not any(d in text for d in DELIMITERS) or "\n" not in text:
        return
    lines = _lines(text)
    i = 0
    while i < len(lines) - 1:
        run = _table_at(text, lines, i)
        if run is None:
            i += 1
            continue
        delimiter, end = run
        header = _cells(text, *lines[i], delimiter)
        kinds = [_column_kind(text[s:e]) for s, e in header]
        if any(kinds):
            for line in lines[i + 1 : end]:
                for (start, stop), kind in zip(_cells(text, *line, delimiter), kinds):
                    if kind and re.search(r"[^\W_]", text[start:stop]):  # a letter or a digit
                        yield start, stop, kind[0], kind[1]
        i = end


def _lines(text: str) -> List[Tuple[int, int]]:
    """(start, end) of every line of ``text``, without its line break."""
    out, start = [], 0
    for m in re.finditer(r"\r?\n", text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


def _table_at(text: str, lines, i: int):
    """(delimiter, index after the last row) of the table whose header is line ``i``, or None."""
    start, end = lines[i]
    for delimiter in DELIMITERS:
        header = _cells(text, start, end, delimiter)
        if len(header) < 2 or not all(_header_cell(text[s:e]) for s, e in header):
            continue
        j = i + 1
        while j < len(lines) and len(_cells(text, *lines[j], delimiter)) == len(header):
            j += 1
        if j > i + 1:
            return delimiter, j
    return None


def _cells(text: str, start: int, end: int, delimiter: str) -> List[Tuple[int, int]]:
    """(start, end) of each cell of the line ``text[start:end]``, spaces trimmed; none when the delimiter is absent.
    A line framed by the delimiter ("| a | b |") has no empty first and last cells."""
    line = text[start:end]
    if delimiter not in line:
        return []
    out, at = [], start
    for piece in line.split(delimiter):
        stripped = piece.strip()
        offset = piece.find(stripped) if stripped else 0
        out.append((at + offset, at + offset + len(stripped)))
        at += len(piece) + len(delimiter)
    if delimiter == "|" and len(out) > 2 and out[0][0] == out[0][1] and out[-1][0] == out[-1][1]:
        out = out[1:-1]
    return out


def _header_cell(cell: str) -> bool:
    return 0 < len(cell) <= MAX_HEADER_CELL and _HEADER_CELL.fullmatch(cell) is not None


def _column_kind(cell: str):
    """(label, rule name) of a header cell's column, or None."""
    key = " ".join(re.sub(r"[_-]", " ", cell.lower()).split())
    if key in NAME_HEADERS:
        return PERSON, "table_name"
    if key in BIRTH_HEADERS:
        return DATETIME, "table_birth_date"
    return None
