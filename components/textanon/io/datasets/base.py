"""What every reader of :mod:`textanon.io.datasets` shares: the error type and reading a JSON file."""

import json
from pathlib import Path
from typing import Union

#: a file to read, or its already parsed JSON content
Source = Union[str, Path, list, dict]


class DatasetError(ValueError):
    """Bad input data (unreadable file, malformed record, unknown id, ...).

    The message names the file and the record (``#index`` or id) and never quotes the record's text.
    """


def integer(value, where: str, name: str) -> int:
    """``value`` if it is an integer (a bool is not), else a :class:`DatasetError` naming ``where`` and the field."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DatasetError(f"{where}: field {name!r} must be an integer, got {type(value).__name__}")
    return value


def _unique_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise DatasetError(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def read_json(source: Source, what: str = "input", unique_keys: bool = False):
    """Parsed JSON of ``source`` (a path; parsed content is returned as it is); errors start with ``what`` and
    the path.

    unique_keys: a key repeated in one object is an error (otherwise the last value silently wins).
    """
    if isinstance(source, (list, dict)):
        return source
    label = f"{what} {source}" if what else str(source)
    try:
        text = Path(source).read_text(encoding="utf-8")
    except OSError as err:
        raise DatasetError(f"{label}: cannot read ({err.strerror})") from err
    except UnicodeDecodeError as err:
        raise DatasetError(f"{label}: not valid UTF-8 ({err})") from err
    try:
        return json.loads(text, object_pairs_hook=_unique_keys if unique_keys else None)
    except DatasetError as err:
        raise DatasetError(f"{label}: {err}") from err
    except ValueError as err:
        raise DatasetError(f"{label}: not valid JSON ({err})") from err


__all__ = ["DatasetError", "Source", "read_json", "integer"]
