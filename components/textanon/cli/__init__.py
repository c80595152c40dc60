"""Command line: ``textanon COMMAND`` (or ``python -m textanon COMMAND``), a typer app, one module per command
group. The top level holds what a user of the anonymizer runs (anonymize, demo, report, deanonymize,
mapping-key, index, and the evaluators); research and project commands (benchmarks, training, tuning, NER
error analysis, asset checks) are the ``lab`` group (``textanon lab --help``), which ``spacy project run`` calls.

Output is plain (no colour) when it is not a terminal or when ``$NO_COLOR`` is set; a usage error is one line
and exit code 2."""

# Each module registers its commands on ``app`` or ``lab`` when imported.
from . import (  # noqa: E402
    anonymize,  # noqa: F401
    bench,  # noqa: F401
    benchmark,  # noqa: F401
    benchmark_echr,  # noqa: F401
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
    run_log,  # noqa: F401
    train,  # noqa: F401
    truth_audit,  # noqa: F401
    tune,  # noqa: F401
)
from .apps import ALLOW_DIRTY_ENV, HELP, MEASURING, app, lab, use_colour  # noqa: F401  (the public names)


def main() -> None:
    """Entry point of the ``textanon`` console script."""
    app()
