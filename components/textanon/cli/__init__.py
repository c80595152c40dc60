"""Command line: ``textanon COMMAND`` (or ``python -m textanon COMMAND``), a typer app, one module per command
group. The top level holds what a user of the anonymizer runs (anonymize, demo, report, deanonymize,
mapping-key, index, and the evaluators); research and project commands (benchmarks, training, tuning, NER
error analysis, asset checks) are the ``lab`` group (``textanon lab --help``), which ``spacy project run`` calls.

Output is plain (no colour) when it is not a terminal or when ``$NO_COLOR`` is set; a usage error is one line
and exit code 2."""

import os
import sys

import typer
from wasabi import msg

HELP = "Risk-aware anonymization of English text (spaCy components). Research commands: textanon lab --help"

app = typer.Typer(
    name="textanon",
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # help as written (no markup eats [brackets]); plain, uncoloured errors
    pretty_exceptions_enable=False,
)
#: research and project commands: benchmarks, training, tuning, NER analysis, asset checks (``spacy project run``)
lab = typer.Typer(
    name="lab",
    help="Research and project commands (benchmarks, training, tuning, NER analysis, asset checks).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
app.add_typer(lab, name="lab")
#: the lab commands that write measurements to metrics/: they refuse a checkout whose code differs from its commit
#: (the metrics name the commit they measured) unless ``textanon lab --allow-dirty`` says so
MEASURING = frozenset(
    """bench-engines bench-llm bench-long bench-scale bench-speed bench-startup bench-tpi benchmark cv-ner evaluate-ner
    ner-errors peer-suite profiles reliability select-prior select-threshold""".split()
)
#: set (to any value) to allow every measuring command a dirty checkout, as ``--allow-dirty`` does (the test suite)
ALLOW_DIRTY_ENV = "TEXTANON_ALLOW_DIRTY"


def use_colour() -> bool:
    """Colour only on a terminal, and never with ``$NO_COLOR`` (https://no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


@app.callback()
def _options(
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars (for scripts); before the command"),
) -> None:
    """Options of every command."""
    from ..progress import set_quiet

    set_quiet(quiet)
    msg.show_color = use_colour()


@lab.callback()
def _lab_options(
    ctx: typer.Context,
    allow_dirty: bool = typer.Option(
        False,
        "--allow-dirty",
        help="Let a measuring command run although tracked files differ from the commit (the metrics record "
        "dirty: true); before the command",
    ),
) -> None:
    """Research and project commands."""
    if ctx.invoked_subcommand not in MEASURING or allow_dirty or os.environ.get(ALLOW_DIRTY_ENV):
        return
    from ..evaluation.provenance import code_state

    state = code_state()
    if state["dirty"]:
        typer.echo(
            f"Error: {state['changed_files']} tracked files differ from commit {state['commit'][:12]}: commit first, "
            "so that the metrics name the code they measured, or pass textanon lab --allow-dirty (recorded).",
            err=True,
        )
        raise typer.Exit(2)


# Each module registers its commands on ``app`` or ``lab`` when imported.
from . import (  # noqa: E402
    anonymize,  # noqa: F401
    bench,  # noqa: F401
    benchmark,  # noqa: F401
    convert,  # noqa: F401
    evaluate_tab,  # noqa: F401
    evaluate_trir,  # noqa: F401
    evaluate_utility,  # noqa: F401
    gazetteer,  # noqa: F401
    index,  # noqa: F401
    llm,  # noqa: F401
    mapping,  # noqa: F401
    peer_suite,  # noqa: F401
    pipeline,  # noqa: F401
    profiles,  # noqa: F401
    reliability,  # noqa: F401
    report,  # noqa: F401
    train,  # noqa: F401
    tune,  # noqa: F401
)


def main() -> None:
    """Entry point of the ``textanon`` console script."""
    app()
