"""The typer app of the command line, ``app`` (``textanon``: what a user of the anonymizer runs), with the options of
every command. The command modules of this package register their commands on it; :mod:`textanon.cli` imports those
modules (no module imports the package that imports it), then the command-line plugins: the evaluators
(``textanon_eval``: ``evaluate``, ``evaluate-tab``, ...) and, in a checkout of the project, the lab
(``textanon_lab``: ``textanon lab ...``)."""

import os
import sys
from typing import Callable, List

import typer
from wasabi import msg

from textanon.io.progress import set_quiet

HELP = (
    "Risk-aware anonymization of English text (spaCy components). Research commands (in a checkout of the project): "
    "textanon lab --help"
)

app = typer.Typer(
    name="textanon",
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # help as written (no markup eats [brackets]); plain, uncoloured errors
    pretty_exceptions_enable=False,
)
#: functions every command runs first (with no argument), added by the command-line plugins: e.g. the evaluators'
#: run log forgets the previous command's reason (tests run many commands in one process)
BEFORE_EVERY_COMMAND: List[Callable[[], None]] = []


def use_colour() -> bool:
    """Colour only on a terminal, and never with ``$NO_COLOR`` (https://no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


@app.callback()
def _options(
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars (for scripts); before the command"),
) -> None:
    """Options of every command."""
    set_quiet(quiet)
    for hook in BEFORE_EVERY_COMMAND:
        hook()
    msg.show_color = use_colour()
