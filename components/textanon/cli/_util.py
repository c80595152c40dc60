"""Shared option declarations and checks of the commands (as spaCy's ``cli/_util.py``)."""

import os
from enum import Enum
from pathlib import Path
from typing import Iterable, Optional, Tuple

import typer
from wasabi import msg


def input_file(help: str) -> typer.models.ArgumentInfo:
    """A required argument naming an existing file (not a folder)."""
    return typer.Argument(..., exists=True, dir_okay=False, help=help)


class Replacement(str, Enum):
    """The ``--replacement`` styles (every masked entity written the same way; ``--operator`` per label)."""

    suppression = "suppression"
    label = "label"
    numbered = "numbered"
    pseudonym = "pseudonym"
    generalize = "generalize"


class Profile(str, Enum):
    """The ``--profile`` names (:mod:`textanon.profiles`)."""

    fast = "fast"
    lm = "lm"
    search = "search"


class Engine(str, Enum):
    """Where ``anonymize`` runs."""

    local = "local"
    ray = "ray"


def usage_error(message: str) -> None:
    """One line on stderr, exit code 2 (a usage error, as click's own)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(2)


def _identity(path: Path) -> Optional[Tuple[int, int]]:
    try:
        st = path.resolve().stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def check_distinct(inputs: Iterable[Tuple[str, Optional[Path]]], outputs: Iterable[Tuple[str, Optional[Path]]]):
    """Refuse (usage error) before anything is opened for writing when an output path is an input path or another
    output path, links resolved (``anonymize X -o X`` would truncate X). ``inputs``/``outputs``: (option, path)."""
    seen = {}
    for option, path in inputs:
        if path is None:
            continue
        for p in [path, *(path.rglob("*") if path.is_dir() else [])]:
            key = _identity(p) or ("path", os.path.realpath(p))
            seen.setdefault(key, option)
    for option, path in outputs:
        if path is None:
            continue
        real = Path(os.path.realpath(path))
        key = _identity(real) or ("path", str(real))
        if key in seen:
            usage_error(f"{option} {path} is also {seen[key]}: an input or output would be overwritten")
        seen[key] = option


def check_report_folder(path: Path) -> Path:
    """Exit with a clear message, before any work, if the report folder cannot be created or written."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        msg.fail(f"Cannot create the report folder {path}: {err.strerror or type(err).__name__}.", exits=1)
    return path
