"""Command line: ``python -m textanon COMMAND`` (typer app; one module per command group)."""

import typer

app = typer.Typer(
    name="textanon",
    help="Risk-aware anonymization of English text (spaCy components).",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _options(
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars (for scripts); before the command"),
) -> None:
    """Options of every command."""
    from ..progress import set_quiet

    set_quiet(quiet)


# Each module registers its commands on ``app`` when imported.
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
    pipeline,  # noqa: F401
    reliability,  # noqa: F401
    report,  # noqa: F401
    train,  # noqa: F401
    tune,  # noqa: F401
)


def main() -> None:
    """Entry point of the ``textanon`` console script: every command registered on :data:`app`."""
    app()
