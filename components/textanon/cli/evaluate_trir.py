"""``evaluate-trir``: text re-identification risk (TRIR) of anonymized documents."""

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from . import app


def _inputs(
    data: Path,
    anonymized: List[str],
    originals: Optional[Path],
    dev: Optional[Path],
    bk_column: str,
    max_bk_chars: Optional[int],
    methods: Optional[str],
):
    from ..evaluation.trir import TrirError, load_anonymized, load_dict, load_inputs

    inputs = load_inputs(data, bk_key=bk_column, max_bk_chars=max_bk_chars)
    if methods:
        keep = [m.strip() for m in methods.split(",") if m.strip()]
        unknown = [m for m in keep if m not in inputs.anonymized and m not in inputs.empty]
        if unknown:
            raise TrirError(f"unknown method(s) {unknown}; available: {sorted(inputs.anonymized)}")
        inputs.anonymized = {m: inputs.anonymized[m] for m in keep if m in inputs.anonymized}
        inputs.empty = {m: v for m, v in inputs.empty.items() if m in keep}
    origs = load_dict(originals) if originals else None
    for spec in anonymized:
        if "=" not in spec:
            raise TrirError(f"--anonymized expects NAME=PATH, got {spec!r}")
        name, path = spec.split("=", 1)
        if not Path(path).is_file():
            raise TrirError(f"--anonymized {name}: file {path} not found")
        if name in inputs.anonymized:
            raise TrirError(f"--anonymized {name}: method name already used")
        inputs.anonymized[name], inputs.empty[name] = load_anonymized(path, origs)
    if dev:
        inputs.dev = load_dict(dev)
    return inputs


def combine_seeds(runs: dict) -> dict:
    """One result from ``{seed: run_trir result}``: the first seed's details, ``trir`` = mean over seeds,
    ``trir_sd`` = sample sd (None for one seed), ``trir_by_seed`` = every seed's values."""
    from ..benchmarks.scoring import mean_sd

    first = dict(next(iter(runs.values())))
    if len(runs) == 1:
        return first
    methods = first["trir"]
    agg = {m: mean_sd([r["trir"][m] for r in runs.values()]) for m in methods}
    first["trir"] = {m: a["mean"] for m, a in agg.items()}
    first["trir_sd"] = {m: a["sd"] for m, a in agg.items()}
    first["trir_by_seed"] = {str(seed): r["trir"] for seed, r in runs.items()}
    first["settings"] = dict(first["settings"], seed=list(runs))
    first["timings_s"] = {str(seed): r["timings_s"] for seed, r in runs.items()}
    first["warnings"] = sorted({w for r in runs.values() for w in r["warnings"]})
    return first


@app.command("evaluate-trir")
def evaluate_trir(
    data: Path = typer.Argument(
        ...,
        exists=True,
        dir_okay=False,
        help="WikiActors JSON (records: name, public_knowledge, *_abstract, dev_abstract) or background knowledge JSON {individual: text}",
    ),
    output: Path = typer.Option(Path("metrics/trir.json"), "--output", "-o"),
    anonymized: List[str] = typer.Option(
        [],
        "--anonymized",
        "-a",
        help="NAME=PATH: {individual: text} or offsets {individual: list of (start, end)} (with --originals); repeatable",
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
        help="Encoder name or path (default: all-MiniLM-L6-v2 shipped offline; e.g. distilbert-base-uncased with internet)",
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
        help="Comma-separated seeds (e.g. 42,1,2): one attack per seed; trir = mean, trir_sd = sample sd, trir_by_seed (overrides --seed)",
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
    """Train a re-identification classifier on background knowledge and report the share of anonymized documents it re-identifies."""
    from ..evaluation.trir import TrirError, TrirSettings, run_trir

    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if overlap >= window - 2:
        msg.fail(f"--overlap ({overlap}) must be smaller than --window - 2 ({window - 2})", exits=1)
    try:
        seed_list = [int(x) for x in seeds.split(",") if x.strip()] if seeds else [seed]
    except ValueError:
        msg.fail(f"--seeds expects comma-separated integers, got {seeds!r}", exits=1)
    if not seed_list:
        msg.fail("--seeds: give at least one seed", exits=1)
    settings = TrirSettings(
        model=model,
        epochs=epochs,
        patience=patience,
        window=window,
        overlap=overlap,
        batch_size=batch_size,
        lr=lr,
        use_dev=not no_dev,
        keep_mask_marks=keep_mask_marks,
        anonymize_background=not no_bd_prime,
        curate=not no_curation,
        pretrain_epochs=pretrain_epochs,
        seed=seed,
        max_bk_chars=max_bk_chars,
        device=device,
        monitor=not no_monitor,
    )
    try:
        inputs = _inputs(data, anonymized, originals, dev, bk_column, max_bk_chars, methods)
        if not inputs.anonymized and not inputs.empty:
            raise TrirError(
                "no anonymized documents: give a records file with *_abstract columns or --anonymized NAME=PATH"
            )
        runs = {}
        for one in seed_list:
            runs[one] = run_trir(inputs, replace(settings, seed=one), cache_dir, progress=not quiet, threads=threads)
        result = combine_seeds(runs)
    except TrirError as err:
        msg.fail(str(err), exits=1)
    except json.JSONDecodeError as err:
        msg.fail(f"{data}: not valid JSON ({err})", exits=1)
    for warning in result["warnings"]:
        msg.warn(warning)
    from ..benchmarks.trir import PUBLISHED_50_EVAL, compare, markdown
    from ..evaluation.provenance import write_metrics

    result["settings"].setdefault("model_label", Path(result["settings"]["model"]).name)
    if compare_published:
        result["published"] = PUBLISHED_50_EVAL
        result["comparison"] = compare(result["trir"], PUBLISHED_50_EVAL)
    write_metrics(output, result)
    if markdown_out:
        markdown_out.parent.mkdir(parents=True, exist_ok=True)
        markdown_out.write_text(markdown(result, f"TRIR on {data.name}", result.get("published")), encoding="utf-8")
    from wasabi import table

    rows = sorted(result["trir"].items(), key=lambda kv: -kv[1])
    print(table(rows, header=("method", "TRIR %"), divider=True, aligns=("l", "r")))
    msg.good(
        f"TRIR of {len(rows)} methods (upper bound {result['upper_bound']}%, model {result['settings']['model']}) -> {output}"
    )
