"""``select-threshold``: tune the risk threshold t on data that is never evaluated (see textanon_lab.tuning)."""

from pathlib import Path

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, input_file
from textanon_lab.cli.apps import lab
from textanon_lab.tuning.threshold import tune_threshold


@lab.command("select-threshold")
def select_threshold_cmd(
    background: Path = input_file(
        "WikiActors background file (public_knowledge bodies), e.g. WikiActors_500_random.json"
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
    check_distinct(
        [("BACKGROUND", background), ("--exclude", exclude)],
        [("--output", output), ("--output (.png)", output.with_suffix(".png"))],
    )
    result = tune_threshold(
        model, background, exclude, output, n or None, seed, tolerance=tolerance, min_chars=min_chars
    )
    best = result["selected"]
    msg.good(
        f"t = {result['selected_threshold_log10']} (log10): BM25 re-identification {best['reid_rate']}, "
        f"TPI {best['tpi']} on {result['documents']} pseudo-abstracts -> {output}"
    )
