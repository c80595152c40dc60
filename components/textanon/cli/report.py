"""``report`` command: the HTML review report of an ``anonymize`` output."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from . import app


def check_report_folder(path: Path) -> Path:
    """Exit with a clear message, before any work, if the report folder cannot be created or written."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        msg.fail(f"Cannot create the report folder {path}: {err.strerror or type(err).__name__}.", exits=1)
    return path


@app.command("report")
def report(
    output_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Output JSONL of `anonymize`"),
    report_dir: Path = typer.Option(..., "--output", "-o", help="Folder for index.html and one page per document"),
    input_path: Optional[Path] = typer.Option(
        None,
        "--input",
        "-i",
        exists=True,
        dir_okay=False,
        help="The input file given to `anonymize` (original texts; without it masked text is drawn as █)",
    ),
    target: Optional[str] = typer.Option(None, "--target", help="The --target given to `anonymize`, if any"),
) -> None:
    """Write an HTML review report of OUTPUT_PATH: every detected span, masked or kept, and why."""
    from ..datasets.records import read_records
    from ..output import read_output
    from ..progress import bar, count_records
    from ..review.report import write_report

    check_report_folder(report_dir)
    inputs = read_records(input_path) if input_path else None
    records = bar(read_output(output_path), total=count_records(output_path), desc="report")
    index = write_report(records, report_dir, inputs=inputs, target=target)
    msg.good(f"Review report -> {index}")
