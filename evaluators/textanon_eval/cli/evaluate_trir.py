"""``evaluate-trir``: text re-identification risk (TRIR) of anonymized documents."""

import json
import logging
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg, table

from textanon.cli.apps import app
from textanon.cli.common import check_distinct, input_file, named_paths, parse_seeds
from textanon.io.progress import is_quiet
from textanon_eval.scoring import combine_seeds  # noqa: F401  (moved; importable from here as before)
from textanon_eval.trir import TrirError
from textanon_eval.trir.evaluate import evaluate_trir as run
from textanon_eval.trir.evaluate import settings_from_options


@app.command("evaluate-trir")
def evaluate_trir(
    data: Path = input_file(
        "WikiActors JSON (records: name, public_knowledge, *_abstract, dev_abstract) "
        "or background knowledge JSON {individual: text}"
    ),
    output: Path = typer.Option(Path("metrics/trir.json"), "--output", "-o"),
    anonymized: List[str] = typer.Option(
        [],
        "--anonymized",
        "-a",
        help="NAME=PATH: {individual: text} or offsets {individual: list of (start, end)} (with --originals); "
        "repeatable",
    ),
    originals: Optional[Path] = typer.Option(
        None, "--originals", exists=True, dir_okay=False, help="{individual: original text} for offset files"
    ),
    dev: Optional[Path] = typer.Option(
        None,
        "--dev",
        exists=True,
        dir_okay=False,
        help="{individual: text} development set, already anonymized (default: the dev_abstract column)",
    ),
    methods: Optional[str] = typer.Option(
        None, "--methods", help="Comma-separated subset of the data file's methods (column names without _abstract)"
    ),
    bk_column: str = typer.Option(
        "public_knowledge", "--bk-column", help="Background knowledge column of a records file"
    ),
    model: Optional[str] = typer.Option(
        None,
        "--model",
        "-m",
        help="Encoder name or path (default: all-MiniLM-L6-v2 shipped offline; "
        "e.g. distilbert-base-uncased with internet)",
    ),
    epochs: int = typer.Option(15, "--epochs", min=1),
    patience: int = typer.Option(5, "--patience", min=1, help="Early stopping: epochs without better dev accuracy"),
    window: int = typer.Option(100, "--window", min=8, help="Sliding window length in tokens"),
    overlap: int = typer.Option(25, "--overlap", min=0),
    batch_size: int = typer.Option(16, "--batch-size", min=1),
    lr: float = typer.Option(5e-5, "--lr"),
    pretrain_epochs: int = typer.Option(
        0,
        "--pretrain-epochs",
        min=0,
        help="Further MLM pretraining on BD ∪ BD′ (published: 3; MiniLM gets a fresh MLM head)",
    ),
    no_dev: bool = typer.Option(False, "--no-dev", help="No dev set: keep the last epoch, no early stopping"),
    keep_mask_marks: bool = typer.Option(
        False, "--keep-mask-marks", help="Keep PERSON / SENSITIVE / *** marks in the texts"
    ),
    no_bd_prime: bool = typer.Option(False, "--no-bd-prime", help="Train on BD only (no NER-anonymized copy)"),
    no_curation: bool = typer.Option(
        False, "--no-curation", help="No lemmatization / stop-word / special-character removal"
    ),
    max_bk_chars: Optional[int] = typer.Option(
        None, "--max-bk-chars", min=1, help="Truncate each background text (speed)"
    ),
    cache_dir: Optional[Path] = typer.Option(
        None, "--cache-dir", help="Stage cache (default ~/.cache/textanon/trir or $TEXTANON_CACHE/trir)"
    ),
    seed: int = typer.Option(42, "--seed"),
    seeds: Optional[str] = typer.Option(
        None,
        "--seeds",
        help="Comma-separated seeds (e.g. 42,1,2): one attack per seed; trir = mean, trir_sd = sample sd, "
        "trir_by_seed (overrides --seed)",
    ),
    device: str = typer.Option("auto", "--device", help="auto, cpu, cuda, ..."),
    threads: Optional[int] = typer.Option(None, "--threads", min=1, help="torch CPU threads"),
    no_monitor: bool = typer.Option(False, "--no-monitor", help="Do not score every method after each epoch"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars"),
    markdown_out: Optional[Path] = typer.Option(None, "--markdown", help="Also write a markdown report here"),
    compare_published: bool = typer.Option(
        False, "--compare-published", help="Compare with the published WikiActors 50_eval TRIR (Spearman, differences)"
    ),
) -> None:
    """Train a re-identification classifier on background knowledge and report the share of anonymized
    documents it re-identifies."""
    options = locals()  # every option by name, before any other local: settings_from_options maps them
    check_distinct(
        [("DATA", data), ("--originals", originals), ("--dev", dev), *named_paths("--anonymized", anonymized)],
        [("--output", output), ("--markdown", markdown_out)],
    )
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if overlap >= window - 2:
        msg.fail(f"--overlap ({overlap}) must be smaller than --window - 2 ({window - 2})", exits=1)
    settings, run_settings = settings_from_options(options, parse_seeds(seeds, "--seeds") if seeds else [seed])
    try:
        result = run(data, output, settings, run_settings, progress=not (quiet or is_quiet()))
    except TrirError as err:
        msg.fail(str(err), exits=1)
    except json.JSONDecodeError as err:
        msg.fail(f"{data}: not valid JSON ({err})", exits=1)
    for warning in result["warnings"]:
        msg.warn(warning)

    rows = sorted(result["trir"].items(), key=lambda kv: -kv[1])
    print(table(rows, header=("method", "TRIR %"), divider=True, aligns=("l", "r")))
    msg.good(
        f"TRIR of {len(rows)} methods (upper bound {result['upper_bound']}%, "
        f"model {result['settings']['model']}) -> {output}"
    )
