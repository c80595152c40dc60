"""Provenance of every metrics file: which command wrote it, on which machine, when.

Every writer of ``metrics/*.json`` goes through :func:`write_metrics`, which adds a ``"provenance"`` block
recorded by the code (never typed by hand): the command line, the machine (CPU model, cores, GPU or none,
torch, spaCy and thinc versions, platform, Python and its interpreter), the textanon version, the UTC time and the code
(:func:`code_state`: the git commit of the checkout and whether its code differs from it).
``tests/evaluation/test_provenance.py`` checks that every committed metrics JSON carries it and is an output of a
``project.yml`` command. Each run that writes into ``metrics/`` is also logged, with why it was made
(:mod:`textanon_eval.run_log`).
"""

import importlib.metadata
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional, Sequence, Union

from textanon.about import __version__
from textanon_eval.run_log import record

KEY = "provenance"


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, ``platform.processor()`` elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict:
    """CPU model, cores, GPU name (``None`` without CUDA), the torch, spaCy and thinc versions (their builds decide much
    of a speed measure: spaCy's 3.8.8-3.8.18 wheels run the NER 2-2.5x slower than 3.8.7's, docs/speed.md), platform
    and Python: its version and the interpreter the environment was made from (``python_interpreter``: Debian's
    optimized build runs textanon's own Python code in 15-27 % less time than pyenv's default build, docs/speed.md)."""
    gpu, torch_version = None, None
    try:
        import torch

        torch_version = torch.__version__
        if torch.cuda.is_available():
            gpu = torch.cuda.get_device_name(0)
    except ImportError:
        pass
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "gpu": gpu,
        "torch": torch_version,
        "spacy": _version("spacy"),
        "thinc": _version("thinc"),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "python_interpreter": os.path.realpath(getattr(sys, "_base_executable", sys.executable)),
    }


def _version(distribution: str) -> Optional[str]:
    """The installed version of ``distribution``, None when it is not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def command(argv: Optional[Sequence[str]] = None) -> str:
    """The command line that is running, as a user would type it (``python -m textanon CMD ...``)."""
    argv = list(sys.argv if argv is None else argv)
    head = argv[0] if argv else ""
    if head.endswith(os.path.join("textanon", "__main__.py")) or Path(head).name in ("textanon", "__main__.py"):
        return shlex.join(["python", "-m", "textanon", *argv[1:]])
    return shlex.join(argv)


#: the tracked paths that decide what a measurement measures (the code, its configs and assets, the dependencies):
#: a change to one of them makes the checkout "dirty"; a change elsewhere (metrics/, docs, README, tests,
#: project.lock: what the measuring commands write or what they do not run) does not
CODE_PATHS = (
    "components/",
    "evaluators/",
    "lab/",
    "configs/",
    "assets/",
    "packages/",
    "project.yml",
    "pyproject.toml",
    "requirements.txt",
    "requirements-nodeps.txt",
)


def code_state(root: Optional[Union[str, Path]] = None) -> dict:
    """``{"commit": HEAD or None, "dirty": bool or None, "changed_files": n}`` of the git checkout holding the
    library (or ``root``): dirty when tracked files of :data:`CODE_PATHS` differ from the commit (file
    names are not recorded). None values when there is no checkout (an installed wheel) or git is missing."""
    root = Path(root) if root is not None else Path(__file__).resolve().parents[2]
    try:
        run = dict(capture_output=True, text=True, timeout=20, check=True, cwd=root)
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], **run).stdout.strip()
        if Path(top).resolve() != root.resolve():  # e.g. a wheel installed in a venv inside some checkout
            return {"commit": None, "dirty": None, "changed_files": None}
        commit = subprocess.run(["git", "rev-parse", "HEAD"], **run).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], **run).stdout
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None, "changed_files": None}
    paths = [ln[3:].split(" -> ")[-1].strip('"') for ln in status.splitlines() if ln[3:]]
    changed = [p for p in paths if p.startswith(CODE_PATHS)]
    return {"commit": commit or None, "dirty": bool(changed), "changed_files": len(changed)}


def provenance(argv: Optional[Sequence[str]] = None) -> dict:
    """The block added to every metrics file."""
    return {
        "command": command(argv),
        "machine": machine(),
        "textanon_version": __version__,
        "written_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "code": code_state(),
    }


def write_metrics(path: Union[str, Path], payload: dict, argv: Optional[Sequence[str]] = None, indent: int = 2) -> Path:
    """Write ``payload`` + its provenance block as JSON to ``path`` (atomically; folders created), and log the run
    in ``metrics/runs.jsonl`` when ``path`` is in the checkout's ``metrics/`` folder
    (:func:`textanon_eval.run_log.record`)."""
    if not isinstance(payload, dict):
        raise TypeError(f"metrics payload must be a dict, got {type(payload).__name__}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {k: v for k, v in payload.items() if k != KEY} | {KEY: provenance(argv)}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(body, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)

    record(path, body, body[KEY])
    return path
