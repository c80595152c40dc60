"""Tables of words or terms derived at build time and shipped inside the package, one entry a line: the word classes
of the tagger-less phrase candidates (:mod:`textanon.detect.word_classes`) and the terms named after a person
(:mod:`textanon.detect.eponyms`). Each is read once per process."""

from functools import lru_cache
from pathlib import Path
from typing import FrozenSet, Iterable


def write_lines(entries: Iterable[str], path: Path) -> None:
    """Write ``entries`` as a table :func:`read_lines` reads (one entry a line)."""
    path.write_text("".join(e + "\n" for e in entries), encoding="utf-8")


@lru_cache(maxsize=None)
def read_lines(path: Path) -> FrozenSet[str]:
    """The entries of the table at ``path``, blank lines left out (read once)."""
    return frozenset(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
