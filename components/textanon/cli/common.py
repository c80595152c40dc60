"""Shared option declarations and checks of the commands (as spaCy's ``cli/_util.py``)."""

import os
import stat
from enum import Enum
from pathlib import Path
from typing import IO, Iterable, List, NoReturn, Optional, Tuple

import typer
from wasabi import msg

from textanon.io.paths import overlap
from textanon.render.mapping import MappingError, key_file_warning, read_key
from textanon.run.job import JobError, report_folder


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
    strict = "strict"


class Engine(str, Enum):
    """Where ``anonymize`` runs."""

    local = "local"
    ray = "ray"


class Markup(str, Enum):
    """How ``anonymize`` reads its records' texts (:mod:`textanon.io.markup`)."""

    text = "text"
    html = "html"


def value(option: Optional[Enum]) -> Optional[str]:
    """The value of a choice option (None when it is not given)."""
    return option.value if option is not None else None


def usage_error(message: str) -> None:
    """One line on stderr, exit code 2 (a usage error, as click's own)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(2)


def fail_job(err: JobError) -> NoReturn:
    """A library job's error as the commands report it: a usage error (exit code 2) for wrong settings, else
    its message (and hint) and exit code 1."""
    if err.usage:
        usage_error(err.message)
    msg.fail(err.message, err.hint or "", exits=1)


def parse_seeds(text: Optional[str], option: str, required: bool = True) -> List[int]:
    """The comma-separated integer seeds of ``option`` (``"42,1,2"``); a usage error (exit 2) for anything else, or
    for none when ``required``; ``[]`` for an empty or missing value otherwise."""
    try:
        seeds = [int(x) for x in (text or "").split(",") if x.strip()]
    except ValueError:
        usage_error(f"{option} expects comma-separated integers, got {text!r}")
    if required and not seeds:
        usage_error(f"{option}: give at least one seed")
    return seeds


def check_distinct(
    inputs: Iterable[Tuple[str, Optional[Path]]],
    outputs: Iterable[Tuple[str, Optional[Path]]],
    folders: Iterable[str] = (),
) -> None:
    """Refuse (usage error) before anything is opened for writing when paths overlap
    (:func:`textanon.io.paths.overlap`: an output that is an input or another output, an output inside an input
    folder, anything inside an output folder of ``folders``). ``inputs``/``outputs``: (option, path); None and
    ``-`` (stdout) are skipped. Every command that writes files calls it first."""
    problem = overlap(inputs, outputs, folders)
    if problem:
        usage_error(problem)


def named_paths(option: str, items: Iterable[str]) -> List[Tuple[str, Path]]:
    """``(option, PATH)`` of every ``NAME=PATH`` item (for :func:`check_distinct`)."""
    return [(option, Path(item.split("=", 1)[1])) for item in items if "=" in item]


def load_key(key_file: Optional[Path]) -> Optional[str]:
    """The key of ``--key-file`` (else ``$TEXTANON_MAPPING_KEY``, else None): an unreadable, empty or binary
    key file is a usage error; a key file that other users can read gets a warning."""
    try:
        key = read_key(key_file)
    except MappingError as err:
        usage_error(str(err))
    warning = key_file_warning(key_file)
    if warning:
        msg.warn(warning)
    return key


def open_private(path: Path) -> IO[str]:
    """``path`` opened for writing text, created readable by its owner only (mode 0600; an existing file is made
    0600 before anything is written): for files that hold original texts."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.fchmod(fd, 0o600)
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def check_report_folder(path: Path) -> Path:
    """Exit with a clear message, before any work, if the report folder cannot be created or written."""
    try:
        return report_folder(path)  # its pages show original texts: owner only
    except JobError as err:
        fail_job(err)
