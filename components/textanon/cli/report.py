"""``report`` command: the HTML review report of an ``anonymize`` output."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from . import app
from ._util import check_distinct, check_report_folder, usage_error


def check_output_file(path: Path) -> None:
    """A usage error unless ``path``'s first record is an ``anonymize`` output or error record (a JSON object with
    ``id`` and ``anonymized_text`` or ``error``): an input file given in its place is named as such."""
    import json

    with path.open(encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                record = None
            if not isinstance(record, dict) or "id" not in record:
                usage_error(f"{path} line {n} is not an output record of `textanon anonymize` (a JSON object)")
            if "anonymized_text" not in record and "error" not in record:
                usage_error(
                    f"{path} line {n} has no anonymized_text: give the output of `textanon anonymize` "
                    "(the input file goes to --input)"
                )
            return
    usage_error(f"{path} holds no record")


@app.command("report")
def report(
    output_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Output JSONL of `anonymize`"),
    report_dir: Path = typer.Option(..., "--output", "-o", help="Folder for index.html and one page per document"),
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
    from ..datasets.records import read_records
    from ..output import read_output
    from ..progress import bar, count_records
    from ..review.report import write_report

    check_distinct([("OUTPUT_PATH", output_path), ("--input", input_path)], [("--output", report_dir)])
    check_output_file(output_path)
    check_report_folder(report_dir)
    inputs = read_records(input_path) if input_path else None
    records = bar(read_output(output_path), total=count_records(output_path), desc="report")
    index = write_report(records, report_dir, inputs=inputs, target=target)
    msg.good(f"Review report -> {index}")
