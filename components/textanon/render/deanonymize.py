"""Restoring the original texts of an ``anonymize`` output file (``textanon deanonymize``): from its mapping
(:func:`textanon.render.mapping.deanonymize_records`), or the ``encrypt`` operator's tokens with the key
(:func:`textanon.render.mapping.decrypt_records`). Every input record gives one restored or error record, in input
order; a record that is refused (no mapping entry, another run, a changed text, a token that does not decrypt) is
never partly restored."""

import json
from pathlib import Path
from typing import IO, List, Optional, Tuple, Union

from textanon.io.progress import bar, count_records
from textanon.render.mapping import NOTHING_TO_RESTORE, Mapping, deanonymize_records, decrypt_records
from textanon.render.output import read_numbered_output

#: refused records named on the terminal (all are in the output)
MAX_NAMED = 20


def deanonymize_file(
    input_path: Union[str, Path], out: IO[str], mapping: Optional[Mapping] = None, key: Optional[str] = None
) -> Tuple[int, List[dict]]:
    """Write ``{"id", "text"}`` (or an error record ``{"id", "error", "line"?}``) per record of the output file
    ``input_path`` to ``out`` as JSON lines, in input order: restored from ``mapping``, else (None) the encrypt
    operator's tokens decrypted with ``key``. Returns (texts restored, the refused error records: those of input
    error records, which have nothing to restore, left out)."""
    n_ok, refused = 0, []
    numbered = bar(read_numbered_output(input_path), total=count_records(input_path), desc="deanonymize")
    if mapping is not None:
        restored = deanonymize_records(numbered, mapping)
    else:
        restored = decrypt_records((record for _, record in numbered), key)
    for record in restored:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        n_ok += "error" not in record
        if "error" in record and record["error"] != NOTHING_TO_RESTORE:
            refused.append(record)
    return n_ok, refused


def refusal_warnings(refused: List[dict], output: Union[str, Path], max_named: int = MAX_NAMED) -> List[str]:
    """One line per refused record (:func:`deanonymize_file`), the first ``max_named`` of them, and one line for
    the rest (all are in ``output``)."""
    lines = []
    for record in refused[:max_named]:
        where = f"line {record['line']}, " if "line" in record else ""
        lines.append(f"Not restored ({where}id {record['id']}): {record['error']}")
    if len(refused) > max_named:
        lines.append(f"... and {len(refused) - max_named} more records not restored (see {output})")
    return lines
