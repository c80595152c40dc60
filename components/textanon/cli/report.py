"""``report`` command: the HTML review report of an ``anonymize`` output."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.apps import app
from textanon.cli.common import check_distinct, check_report_folder, usage_error
from textanon.io.datasets.records import read_records
from textanon.io.progress import bar, count_records
from textanon.render.output import output_file_problem, read_output
from textanon.review.report import write_report
from textanon.run.side_outputs import owner_only


@app.command("report")
def report(
    output_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Output JSONL of `anonymize`"),
    report_dir: Path = typer.Option(
        ..., "--output", "-o", help="Folder for index.html and one page per document (files created with mode 0600)"
    ),
    input_path: Optional[Path] = typer.Option(
        None,
        "--input",
        "-i",
        exists=True,
        help="The input given to `anonymize`: a file or a folder of .txt (original texts; without it masked text is "
        "drawn as █)",
    ),
    target: Optional[str] = typer.Option(None, "--target", help="The --target given to `anonymize`, if any"),
) -> None:
    """Write an HTML review report of OUTPUT_PATH: every detected span, masked or kept, and why."""
    check_distinct(
        [("OUTPUT_PATH", output_path), ("--input", input_path)], [("--output", report_dir)], folders=["--output"]
    )
    problem = output_file_problem(output_path)
    if problem:
        usage_error(f"{output_path}: {problem}")
    check_report_folder(report_dir)
    inputs = read_records(input_path) if input_path else None
    records = bar(read_output(output_path), total=count_records(output_path), desc="report")
    with owner_only():  # the pages show the original texts: created readable by their owner only
        index = write_report(records, report_dir, inputs=inputs, target=target)
    msg.good(f"Review report -> {index}")
