"""The ``lab`` group of the command line (``textanon lab ...``): research and project commands, which
``spacy project run`` calls. A command that writes measurements to ``metrics/`` refuses a checkout whose code differs
from its commit; every lab command records why it runs (``--why``) in the run log."""

import os
import sys
from typing import Optional

import typer

from textanon.cli.apps import app
from textanon_eval import provenance
from textanon_eval.run_log import set_why

#: the settings of the lab's typer apps: help without rich markup, plain tracebacks, no completion commands
SETTINGS = {
    "no_args_is_help": True,
    "add_completion": False,
    "rich_markup_mode": None,
    "pretty_exceptions_enable": False,
}
#: research and project commands: benchmarks, training, tuning, NER analysis, asset checks (``spacy project run``)
lab = typer.Typer(
    name="lab",
    help="Research and project commands (benchmarks, training, tuning, NER analysis, asset checks).",
    **SETTINGS,
)
app.add_typer(lab, name="lab")
#: the lab commands that write measurements to metrics/: they refuse a checkout whose code differs from its commit
#: (the metrics name the commit they measured) unless ``textanon lab --allow-dirty`` says so
MEASURING = frozenset(
    """architecture bench-batch bench-engines bench-llm bench-long bench-scale bench-speed bench-startup bench-tpi
    benchmark benchmark-echr cv-ner evaluate-ner ner-errors peer-suite profiles reliability select-prior
    select-search-profile select-threshold truth-audit""".split()
)
#: set (to any value) to allow every measuring command a dirty checkout, as ``--allow-dirty`` does (the test suite)
ALLOW_DIRTY_ENV = "TEXTANON_ALLOW_DIRTY"


def group(name: str, help: str) -> typer.Typer:
    """A sub-group ``textanon lab NAME`` with the lab's settings (:data:`SETTINGS`), its commands added to it."""
    sub = typer.Typer(help=help, **SETTINGS)
    lab.add_typer(sub, name=name)
    return sub


@lab.callback()
def _lab_options(
    ctx: typer.Context,
    allow_dirty: bool = typer.Option(
        False,
        "--allow-dirty",
        help="Let a measuring command run although tracked files differ from the commit (the metrics record "
        "dirty: true); before the command",
    ),
    why: Optional[str] = typer.Option(
        None,
        "--why",
        help="Why this run is made, recorded in metrics/runs.jsonl and runs.md when it writes metrics/ (default: "
        "$TEXTANON_RUN_WHY); before the command",
    ),
) -> None:
    """Research and project commands."""
    set_why(why)
    if ctx.invoked_subcommand not in MEASURING or allow_dirty or os.environ.get(ALLOW_DIRTY_ENV):
        return
    if {"--help", "-h"} & set(sys.argv[1:]):  # asking how to run it measures nothing (click has consumed the args)
        return
    state = provenance.code_state()
    if state["dirty"]:
        typer.echo(
            f"Error: {state['changed_files']} tracked files differ from commit {state['commit'][:12]}: commit first, "
            "so that the metrics name the code they measured, or pass textanon lab --allow-dirty (recorded).",
            err=True,
        )
        raise typer.Exit(2)
