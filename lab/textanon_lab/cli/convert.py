"""``convert``: evaluation corpora (TAB, echr-dev entity layer, WikiActors, JSONL) -> DocBin."""

from pathlib import Path

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, input_file
from textanon.io.datasets.docbin import convert
from textanon_lab.cli.apps import lab


@lab.command("convert")
def convert_cmd(
    input_path: Path = input_file("Input corpus"),
    output_path: Path = typer.Argument(..., help="Output .spacy file"),
    fmt: str = typer.Option(..., "--format", "-f", help="tab | echr | wikiactors | jsonl"),
) -> None:
    """Convert a corpus to a spaCy DocBin (gold spans in doc.spans; see docs/evaluation_tab.md)."""
    check_distinct([("INPUT_PATH", input_path)], [("OUTPUT_PATH", output_path)])
    try:
        n = convert(input_path, output_path, fmt)
    except (ValueError, OSError) as err:
        msg.fail(str(err), exits=1)
    msg.good(f"{n} docs ({fmt}) -> {output_path}")
