"""``bench-speed`` and ``bench-long``: throughput and peak memory of the pipeline (benchmarks, not tests)."""

from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from . import app


@app.command("bench-speed")
def bench_speed_cli(
    wikiactors: Path = typer.Option(..., exists=True, help="WikiActors JSON with original_abstract"),
    echr: Path = typer.Option(..., exists=True, help="echr-dev entity JSON (texts)"),
    output: Path = typer.Option(Path("metrics/speed.json"), help="JSON results; a .md table is written beside it"),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder (the default, LM-risk pipeline)"),
    search_model: Optional[str] = typer.Option(
        None, help="Search-risk pipeline folder (configs/textanon_search.cfg); timed when it and --index exist"
    ),
    index: Optional[str] = typer.Option(None, help="Search index folder of the search-risk pipeline"),
    n_process: List[int] = typer.Option([1, 2], "--n-process", help="Worker processes of the default pipeline"),
    repeats: int = typer.Option(3, help="Interleaved repeats (medians are reported)"),
    limit: Optional[int] = typer.Option(None, help="Only the first N documents of each corpus (smoke runs)"),
) -> None:
    """Anonymize the WikiActors abstracts and echr-dev cases with each configuration and Presidio; write docs/s,
    tokens/s, ratio to Presidio, peak RSS and seconds per component."""
    from ..benchmarks.speed import bench_speed

    _, table = bench_speed(
        output,
        model=model,
        wikiactors=wikiactors,
        echr=echr,
        search_model=search_model,
        index=index,
        n_process=n_process,
        repeats=repeats,
        limit=limit,
    )
    msg.good(f"Wrote {output}")
    print(table)


@app.command("bench-long")
def bench_long_cli(
    echr: Path = typer.Option(..., exists=True, help="echr-dev entity JSON: the cases the document is built from"),
    output: Path = typer.Option(Path("metrics/speed_long.json"), help="JSON results"),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder"),
    chars: int = typer.Option(1_000_000, help="Length of the document in characters"),
) -> None:
    """One document of CHARS characters (the echr-dev cases concatenated, names changed in each copy, built at
    run time) through the pipeline: seconds and peak RSS."""
    from ..benchmarks.speed import bench_long

    result = bench_long(model, echr, output, chars)
    msg.good(
        f"{result['chars']:,} characters in {result['seconds']} s, peak RSS {result['peak_rss_mb']} MiB -> {output}"
    )
