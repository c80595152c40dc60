"""Running the ``textanon`` command line: in process (typer's CliRunner) or as ``python -m textanon``, offline."""

import subprocess
import sys

from offline import without_network
from typer.testing import CliRunner


def invoke(*args):
    """``textanon ARGS`` in process (arguments turned into strings); returns typer's ``Result``."""
    from textanon.cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


def run_textanon(*args, offline: bool = True) -> subprocess.CompletedProcess:
    """``python -m textanon ARGS`` in a subprocess, in a network namespace where available (see offline.py)."""
    cmd = [sys.executable, "-m", "textanon", *map(str, args)]
    return subprocess.run(without_network(cmd) if offline else cmd, capture_output=True, text=True)


def one_line(text: str) -> str:
    """``text`` with line wrapping (any run of whitespace) undone: what a terminal-wide message says."""
    return " ".join(text.split())
