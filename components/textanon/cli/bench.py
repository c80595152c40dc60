"""``bench-speed``: throughput and peak memory of the pipeline (a benchmark, not a test)."""

from pathlib import Path

import typer
from wasabi import msg

from . import app


@app.command("bench-speed")
def bench_speed_cli(
    wikiactors: Path = typer.Option(..., exists=True, help="WikiActors JSON with original_abstract"),
    echr: Path = typer.Option(..., exists=True, help="echr-dev entity JSON (texts)"),
    output: Path = typer.Option(Path("metrics/speed.json"), help="JSON results; a .md table is written beside it"),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder"),
    long_doc_chars: int = typer.Option(0, help="Also time one document of this many characters (e.g. 1000000)"),
) -> None:
    """Anonymize the WikiActors abstracts and echr-dev cases; write docs/s, tokens/s, peak RSS."""
    from ..benchmarks.speed import bench_speed

    _, table = bench_speed(model, wikiactors, echr, output, long_doc_chars)
    msg.good(f"Wrote {output}")
    print(table)
