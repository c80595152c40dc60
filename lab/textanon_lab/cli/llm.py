"""``bench-llm``: cost and behaviour of the LLM prompt designs on WikiActors abstracts."""

import json
from pathlib import Path
from typing import List, Optional

import typer

from textanon.cli.common import check_distinct
from textanon_lab.benchmarks.llm_designs import run_bench
from textanon_lab.cli.apps import lab


@lab.command("bench-llm")
def bench_llm(
    input: Path = typer.Option(..., exists=True, help="WikiActors JSON (original_abstract, name)"),
    design: List[str] = typer.Option(["all"], help="Prompt design (repeatable) or 'all'"),
    output: Optional[Path] = typer.Option(None, help="Metrics JSON (one design); default metrics/llm_<design>.json"),
    anonymizations: Path = typer.Option(
        Path("corpus/llm_anonymizations_wikiactors_50.json"),
        help="JSON {design: {name: anonymized_text}} (updated in place)",
    ),
    limit: int = typer.Option(0, help="Only the first N documents (0 = all)"),
    max_new_tokens: int = typer.Option(128, help="Generation budget per prompt"),
    num_threads: int = typer.Option(1, help="torch CPU threads"),
    cache_dir: Optional[str] = typer.Option(None, help="spacy-llm cache folder (re-runs skip the model)"),
    model: Optional[str] = typer.Option(
        None,
        help="spacy-llm model config as JSON (default: the local SmolLM2), "
        'e.g. \'{"@llm_models": "textanon.OpenAICompatible.v1", "model": "m", '
        '"base_url": "http://127.0.0.1:8000"}\'',
    ),
) -> None:
    """Anonymize abstracts with each prompt design (local SmolLM2 by default); write metrics and texts."""

    check_distinct([("--input", input)], [("--output", output), ("--anonymizations", anonymizations)])
    run_bench(
        input,
        design,
        output,
        anonymizations,
        limit,
        max_new_tokens,
        num_threads,
        cache_dir,
        json.loads(model) if model else None,
    )
