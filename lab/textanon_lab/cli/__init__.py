"""The lab's commands (``textanon lab ...``; ``python -m textanon lab ...``), a plugin of the ``textanon`` command
line (entry point ``textanon_cli`` of ``lab/pyproject.toml``): importing this package registers them."""

from textanon_lab.cli import (  # noqa: F401  (each module registers its commands when imported)
    architecture,
    bench,
    bench_tpi,
    benchmark,
    benchmark_echr,
    convert,
    gazetteer,
    index,
    llm,
    ner,
    peer_suite,
    pipeline,
    profiles,
    reliability,
    run_log,
    train,
    truth_audit,
    tune,
)
from textanon_lab.cli.apps import ALLOW_DIRTY_ENV, MEASURING, lab  # noqa: F401  (the public names)
