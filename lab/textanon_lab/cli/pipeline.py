"""``build-pipeline``: assemble the configured pipeline and save it to a folder."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, input_file
from textanon.pipeline import build_pipeline
from textanon_lab.cli.apps import lab


@lab.command("build-pipeline")
def build_pipeline_cli(
    config: Path = input_file("Pipeline config (configs/textanon.cfg)"),
    output: Path = typer.Argument(..., help="Folder to write the pipeline to"),
    gazetteer: Optional[Path] = typer.Option(None, exists=True, dir_okay=False, help="Gazetteer JSONL"),
    ner_model: Optional[Path] = typer.Option(
        None,
        exists=True,
        file_okay=False,
        help="Trained entity model for configs with paths.ner_model (default: the config's, the shipped one)",
    ),
) -> None:
    """Assemble the pipeline from CONFIG (gazetteer included) and save it to OUTPUT."""
    check_distinct(
        [("CONFIG", config), ("--gazetteer", gazetteer), ("--ner-model", ner_model)],
        [("OUTPUT", output)],
        folders=["OUTPUT"],
    )
    overrides = {"paths.ner_model": str(ner_model)} if ner_model else None
    nlp = build_pipeline(config, output, gazetteer, overrides)
    n_terms = len(nlp.get_pipe("textanon_entity_recognizer").gazetteer)
    msg.good(f"Saved pipeline {nlp.pipe_names} to {output} ({n_terms} gazetteer terms)")
