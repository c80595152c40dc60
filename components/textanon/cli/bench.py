"""``bench-speed``: throughput and peak memory of the pipeline (a benchmark, not a test)."""

from pathlib import Path

import typer
from wasabi import msg

from . import app


@app.command("bench-speed")
def bench_speed(
    wikiactors: Path = typer.Option(..., exists=True, help="WikiActors JSON with original_abstract"),
    echr: Path = typer.Option(..., exists=True, help="echr-dev entity JSON (texts)"),
    output: Path = typer.Option(Path("metrics/speed.json"), help="JSON results; a .md table is written beside it"),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder"),
    long_doc_chars: int = typer.Option(0, help="Also time one document of this many characters (e.g. 1000000)"),
) -> None:
    """Anonymize the WikiActors abstracts and echr-dev cases; write docs/s, tokens/s, peak RSS."""
    from ..benchmarks.speed import run, to_markdown

    results = run(model, wikiactors, echr, long_doc_chars)
    from ..evaluation.provenance import write_metrics

    write_metrics(output, results)
    output.with_suffix(".md").write_text(to_markdown(results), encoding="utf-8")
    msg.good(f"Wrote {output}")
    print(to_markdown(results))


@app.command("select-threshold")
def select_threshold_cmd(
    background: Path = typer.Argument(
        ...,
        exists=True,
        dir_okay=False,
        help="WikiActors background file (public_knowledge bodies), e.g. WikiActors_500_random.json",
    ),
    exclude: Path = typer.Option(
        ...,
        exists=True,
        dir_okay=False,
        help="The evaluated records (e.g. WikiActors_50_eval.json): their actors are never used",
    ),
    output: Path = typer.Option(Path("metrics/threshold_selection.json"), help="JSON; a .png is written beside it"),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder"),
    n: int = typer.Option(150, help="Pseudo-abstracts sampled (seeded); 0 = all"),
    seed: int = typer.Option(0, help="Sampling seed"),
    tolerance: float = typer.Option(0.02, help="Re-identification rate allowed above the grid's lowest (fraction)"),
    min_chars: int = typer.Option(300, help="Minimum length of a pseudo-abstract (lead paragraphs)"),
) -> None:
    """Choose the risk threshold t on pseudo-abstracts of non-evaluated actors (BM25 re-identification + TPI)."""
    import spacy

    import textanon  # noqa: F401

    from ..evaluation.provenance import write_metrics
    from ..tuning.threshold import plot, select_threshold

    result = select_threshold(
        spacy.load(model), background, exclude, n or None, seed, tolerance=tolerance, min_chars=min_chars
    )
    write_metrics(output, result)
    plot(result, output.with_suffix(".png"))
    best = result["selected"]
    msg.good(
        f"t = {result['selected_threshold_log10']} (log10): BM25 re-identification {best['reid_rate']}, "
        f"TPI {best['tpi']} on {result['documents']} pseudo-abstracts -> {output}"
    )
