"""``lab bench-tpi``: how long TPI takes with each information-content model."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, input_file
from textanon_eval.cli.evaluate_utility import MODEL_HELP, guard
from textanon_lab.benchmarks.tpi_speed import bench_tpi as run
from textanon_lab.cli.apps import lab


@lab.command("bench-tpi")
def bench_tpi(
    input_path: Path = input_file("WikiActors-style JSON"),
    output: Path = typer.Option(Path("metrics/tpi_speed.json"), "--output", "-o"),
    model: Optional[str] = typer.Option(None, "--model", "-m", help=MODEL_HELP),
    n: int = typer.Option(6, "--n"),
    limit: Optional[int] = typer.Option(None, "--limit"),
    random_bert_base: bool = typer.Option(
        False,
        "--random-bert-base",
        help="Also time a randomly initialised BERT-base masked LM (runtime only: its TPI values are meaningless)",
    ),
    bert_limit: Optional[int] = typer.Option(
        None, "--bert-limit", help="Documents for the random BERT-base run (default: all)"
    ),
    device: str = typer.Option("cpu", "--device", help="torch device of the random BERT-base run (e.g. cuda)"),
) -> None:
    """Time TPI (IC of all original documents, no cache) with N-TA and S-TA -> metrics/tpi_speed.json."""
    check_distinct([("INPUT_PATH", input_path)], [("--output", output)])
    result = guard(
        lambda: run(input_path, output, model, n, limit, random_bert_base, bert_limit, device, warn=msg.warn)
    )
    for run_ in result["runs"]:
        msg.info(
            f"{run_['model']} {run_['alternation']}: {run_['seconds']:.1f} s for {run_['documents']} documents "
            f"({run_['passes']} passes)"
        )
    msg.good(f"-> {output}")
