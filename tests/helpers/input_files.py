"""Input files written by tests: JSON and JSON Lines."""

import json
from pathlib import Path


def write_json(path: Path, data) -> Path:
    """``data`` written to ``path`` as JSON (UTF-8); returns ``path``."""
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def write_jsonl(path: Path, rows) -> Path:
    """One line per row (a dict as JSON, a string as it is: a broken line), newline-terminated; returns ``path``."""
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
