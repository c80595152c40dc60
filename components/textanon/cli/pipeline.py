"""``build-pipeline``: assemble the configured pipeline and save it to a folder."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from . import app
from ._util import input_file


@app.command("build-pipeline")
def build_pipeline_cli(
    config: Path = input_file("Pipeline config (configs/textanon.cfg)"),
    output: Path = typer.Argument(..., help="Folder to write the pipeline to"),
    gazetteer: Optional[Path] = typer.Option(None, exists=True, dir_okay=False, help="Gazetteer JSONL"),
) -> None:
    """Assemble the pipeline from CONFIG (gazetteer included) and save it to OUTPUT."""
    from ..pipeline import build_pipeline

    nlp = build_pipeline(config, output, gazetteer)
    n_terms = len(nlp.get_pipe("textanon_entity_recognizer").gazetteer)
    msg.good(f"Saved pipeline {nlp.pipe_names} to {output} ({n_terms} gazetteer terms)")
