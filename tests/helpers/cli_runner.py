"""Running the ``textanon`` command line: in process (typer's CliRunner) or as ``python -m textanon``, offline."""

import os
import subprocess
import sys
from typing import Dict, Optional

from offline import without_network
from typer.testing import CliRunner


def invoke(*args):
    """``textanon ARGS`` in process (arguments turned into strings); returns typer's ``Result``."""
    from textanon.cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


def run_textanon(*args, offline: bool = True, env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    """``python -m textanon ARGS`` in a subprocess (``env`` added to this process's environment), in a network
    namespace where available (see offline.py)."""
    cmd = [sys.executable, "-m", "textanon", *map(str, args)]
    environment = {**os.environ, **env} if env else None
    return subprocess.run(without_network(cmd) if offline else cmd, capture_output=True, text=True, env=environment)


def one_line(text: str) -> str:
    """``text`` with line wrapping (any run of whitespace) undone: what a terminal-wide message says."""
    return " ".join(text.split())
