"""``bench-speed``: throughput and peak memory of the pipeline (a benchmark, not a test)."""
from pathlib import Path

import srsly
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
    data: Path = typer.Argument(..., exists=True, help="WikiActors JSON (original_abstract, manual_abstract, name)"),
    output: Path = typer.Option(Path("metrics/threshold_selection.json")),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder"),
    n_dev: int = typer.Option(25, help="First N records are the development split; the rest are held out"),
) -> None:
    """Sweep the risk threshold t and pick the one with the best F1 against manual masking on dev."""
    import spacy

    import textanon  # noqa: F401

    from ..benchmarks.threshold import plot, select_threshold

    result = select_threshold(spacy.load(model), data, n_dev)
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_json(output, result)
    plot(result, output.with_suffix(".png"))
    best = result["selected"]
    msg.good(f"t = {result['selected_threshold_log10']} (log10): dev F1 {best['dev']['f1']}, held-out F1 {best['test']['f1']}")
