"""Paths that must not overlap: what a job writes is never what it reads, another of its outputs, a file inside a
folder it reads, or a folder it fills that holds another of its paths (symbolic and hard links resolved:
``anonymize X -o X`` would truncate X). The commands (``textanon.cli.common.check_distinct``) and the library
functions that open outputs (``textanon.run.job.anonymize_file``) ask :func:`overlap` before they write anything."""

import os
from pathlib import Path
from typing import Iterable, Optional, Tuple, Union

PathLike = Union[str, Path, None]


def _identity(path: Path) -> Optional[Tuple[int, int]]:
    try:
        st = path.resolve().stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _inside(child: Path, folder: Path) -> bool:
    return folder in child.parents


def overlap(
    inputs: Iterable[Tuple[str, PathLike]],
    outputs: Iterable[Tuple[str, PathLike]],
    folders: Iterable[str] = (),
) -> Optional[str]:
    """The first overlap of ``outputs`` with ``inputs`` or with each other, as a message naming both, or None:
    an output that is an input or another output, an output inside an input folder (it would be read back), or
    anything inside an output folder (``folders``: the names of outputs that are folders a job fills or replaces,
    e.g. a report, an index, a model). ``inputs``/``outputs``: (name, path); None and ``-`` (stdout) are skipped."""
    folders = set(folders)
    inputs = [(o, Path(p)) for o, p in inputs if p is not None and str(p) != "-"]
    outputs = [(o, Path(p)) for o, p in outputs if p is not None and str(p) != "-"]
    seen = {}
    for option, path in inputs:
        for p in [path, *(path.rglob("*") if path.is_dir() else [])]:
            key = _identity(p) or ("path", os.path.realpath(p))
            seen.setdefault(key, option)
    for option, path in outputs:
        real = Path(os.path.realpath(path))
        key = _identity(real) or ("path", str(real))
        if key in seen:
            return f"{option} {path} is also {seen[key]}: an input or output would be overwritten"
        seen[key] = option
    real = {(o, p): Path(os.path.realpath(p)) for o, p in inputs + outputs}
    for option, path in outputs:
        for other_option, other in inputs:
            if real[(other_option, other)].is_dir() and _inside(real[(option, path)], real[(other_option, other)]):
                return (
                    f"{option} {path} is inside the input folder {other_option} {other}: it would be read back "
                    "or overwrite an input"
                )
        if option in folders:
            for other_option, other in inputs + outputs:
                if (other_option, other) != (option, path) and _inside(
                    real[(other_option, other)], real[(option, path)]
                ):
                    return (
                        f"{other_option} {other} is inside the output folder {option} {path}: an input or output "
                        "would be overwritten"
                    )
    return None
