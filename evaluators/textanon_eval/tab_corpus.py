"""Offset-form masks files ``{doc_id: [[start, end(, replacement)], ...]}``: reading with validation, writing.

TAB gold corpora themselves are read by :mod:`textanon.io.datasets.tab`. Every problem raises
:class:`EvaluationError` naming the document and span.
"""

import json
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

from textanon.io.datasets.base import Source, integer, read_json
from textanon.render.masking import Mask
from textanon_eval.errors import EvaluationError


def load_masks(source: Source, gold: Optional[Dict[str, str]] = None) -> Dict[str, List[Mask]]:
    """Masked spans by document, validated (against ``gold``: doc_id -> text, if given).

    Spans must satisfy ``0 <= start < end <= len(text)``; their order is kept. Overlapping spans are kept
    as given, as the official TAB script scores them (recall on the union of masked characters; precision
    over each span's tokens, so a token inside two spans counts twice): :func:`overlapping_pairs` counts them
    so that callers can warn.
    """
    data = read_json(source, "masks")
    if not isinstance(data, dict):
        raise EvaluationError("masks: expected a JSON object {doc_id: [[start, end(, replacement)], ...]}")
    masks: Dict[str, List[Mask]] = {}
    for doc_id, spans in data.items():
        where = f"masks of document {doc_id!r}"
        if gold is not None and doc_id not in gold:
            raise EvaluationError(f"{where}: unknown doc_id (not in the gold corpus)")
        if not isinstance(spans, list):
            raise EvaluationError(f"{where}: expected a list of [start, end] or [start, end, replacement]")
        out: List[Mask] = []
        for i, item in enumerate(spans):
            if not isinstance(item, (list, tuple)) or len(item) not in (2, 3):
                raise EvaluationError(f"{where}, span #{i}: expected [start, end] or [start, end, replacement]")
            start, end = (
                integer(item[0], f"{where}, span #{i}", "start"),
                integer(item[1], f"{where}, span #{i}", "end"),
            )
            repl = item[2] if len(item) == 3 else None
            if repl is not None and not isinstance(repl, str):
                raise EvaluationError(f"{where}, span #{i}: replacement must be a string or null")
            if start < 0 or start >= end:
                raise EvaluationError(f"{where}, span #{i}: reversed or empty span [{start}, {end}]")
            if gold is not None and end > len(gold[doc_id]):
                raise EvaluationError(
                    f"{where}, span #{i}: [{start}, {end}] outside the text ({len(gold[doc_id])} characters)"
                )
            out.append((start, end, repl))
        masks[str(doc_id)] = out
    return masks


def overlapping_pairs(spans: Sequence[Sequence]) -> int:
    """Number of spans that overlap an earlier one (sorted by start): 0 for disjoint masks."""
    count, reach = 0, -1
    for item in sorted((int(m[0]), int(m[1])) for m in spans):
        if item[0] < reach:
            count += 1
        reach = max(reach, item[1])
    return count


def write_masks(path: Union[str, Path], masks: Dict[str, Sequence[Sequence]], replacements: bool = True) -> None:
    """Write offset-form masks; ``replacements=False`` drops the third element."""
    out = {}
    for doc_id, spans in masks.items():
        rows = []
        for item in spans:
            start, end = int(item[0]), int(item[1])
            repl = item[2] if len(item) > 2 else None
            rows.append([start, end, repl] if replacements else [start, end])
        out[str(doc_id)] = rows
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


__all__ = ["EvaluationError", "Mask", "load_masks", "write_masks", "overlapping_pairs"]
