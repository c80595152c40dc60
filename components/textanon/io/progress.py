"""Progress bars of the commands that process a corpus: one look (tqdm, with a rate and an ETA when the total is
known) and one switch (``python -m textanon --quiet COMMAND``, or :func:`set_quiet`) for scripts."""

import json
from pathlib import Path
from typing import Iterable, Iterator, Optional, TypeVar, Union

from tqdm import tqdm

from textanon.io.datasets.records import folder_files

T = TypeVar("T")
_QUIET = False
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]"


def set_quiet(quiet: bool = True) -> None:
    """Turn every progress bar of :func:`bar` off (``quiet``) or on."""
    global _QUIET
    _QUIET = bool(quiet)


def is_quiet() -> bool:
    """True when progress bars are off."""
    return _QUIET


def bar(items: Iterable[T], total: Optional[int] = None, desc: str = "", unit: str = "doc") -> Iterator[T]:
    """``items`` with a progress bar on stderr (rate, and elapsed/remaining time when ``total`` is known), or
    unchanged when quiet."""
    if _QUIET:
        return iter(items)

    fmt = BAR_FORMAT if total else None
    return iter(tqdm(items, total=total, desc=desc, unit=unit, bar_format=fmt, dynamic_ncols=True))


def count_records(path: Union[str, Path]) -> Optional[int]:
    """How many records an input file holds, for an ETA: non-blank lines of a ``.jsonl`` file, entries of a
    ``.json`` list or object, the ``.txt`` and ``.html`` files of a folder, the rows of a ``.parquet`` file, 1 for a
    text file; None when it cannot be told (the bar then shows no ETA)."""
    path = Path(path)
    try:
        if path.is_dir():
            return len(folder_files(path))
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            return pq.ParquetFile(path).metadata.num_rows
        if path.suffix.lower() == ".jsonl":
            with path.open("rb") as f:
                return sum(1 for line in f if line.strip())
        if path.suffix.lower() == ".json":
            data = json.loads(path.read_bytes().decode("utf-8-sig"))
            return len(data) if isinstance(data, (list, dict)) else None
        return 1
    except (OSError, ValueError, ImportError):
        return None
