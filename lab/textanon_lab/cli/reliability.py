"""``reliability`` command: bad inputs and injected faults through ``anonymize`` -> metrics/reliability.json."""

from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct
from textanon_lab.cli.apps import lab
from textanon_lab.reliability.suite import run_report


@lab.command("reliability")
def reliability(
    output: Path = typer.Option(Path("metrics/reliability.json"), "--output", "-o", help="JSON report"),
    markdown_out: Optional[Path] = typer.Option(None, "--markdown", help="Markdown table (default: OUTPUT.md)"),
    model: str = typer.Option("en_textanon", "--model", "-m", help="Pipeline package name or folder"),
    seed: int = typer.Option(0, "--seed", help="Seed of the synthetic records"),
    big: bool = typer.Option(False, "--big", help="Add the ~1 MB document (slow on CPU)"),
    only: Optional[List[str]] = typer.Option(None, "--only", help="Run only these cases (repeatable)"),
    workdir: Optional[Path] = typer.Option(None, "--workdir", help="Keep inputs, outputs and logs here"),
) -> None:
    """Run the reliability suite: every case is an ``anonymize`` run in a subprocess (see textanon_lab.reliability)."""
    check_distinct([], [("--output", output), ("--markdown", markdown_out or output.with_suffix(".md"))])
    report, md = run_report(
        output, markdown_out, model, seed, big, only, workdir, progress=lambda c: msg.text(f"case {c}")
    )
    s = report["summary"]
    all_pass = s["cases_passed"] == s["cases"] and s["file_scenarios_passed"] == s["file_scenarios"]
    (msg.good if all_pass else msg.warn)(
        f"{s['cases_passed']}/{s['cases']} cases and {s['file_scenarios_passed']}/{s['file_scenarios']} file "
        f"scenarios pass; {s['records_lost']} records lost, "
        f"{s['pii_in_logs']} PII in logs, {s['surviving_direct_identifiers']} direct identifiers surviving "
        f"-> {output}, {md}"
    )
