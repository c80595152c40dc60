"""``index bench``, ``index tune`` and ``index dev-set``: measuring the index backends and choosing the search risk's
settings on data that is never evaluated (docs/search.md)."""

import random
from pathlib import Path
from typing import Optional

import spacy
import typer
from wasabi import msg

import textanon.pipes.factories  # noqa: F401  (the factories, also without the package's entry points)
from textanon.cli.common import check_distinct
from textanon.cli.index import index_app
from textanon.risk.search import registry  # noqa: F401
from textanon_eval.provenance import write_metrics
from textanon_lab.benchmarks.index_backends import bench_backends, markdown
from textanon_lab.tuning.generalization_dev import write_dev_set
from textanon_lab.tuning.sample import TuningSample, pseudo_abstracts
from textanon_lab.tuning.search_settings import DEV_SETS, TuningSettings, tune_pipeline


@index_app.command("bench")
def bench(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Documents to index (as for build)"),
    output: Path = typer.Option(
        Path("metrics/search_index_backends.json"), "--output", "-o", help="JSON; a .md table is written beside it"
    ),
    queries: int = typer.Option(300, help="Queries of each kind"),
    seed: int = typer.Option(0, help="Query sampling seed"),
    pipeline: Optional[str] = typer.Option(None, help="A pipeline with textanon_search_risk: time the component too"),
    exclude: Optional[Path] = typer.Option(
        None,
        exists=True,
        dir_okay=False,
        help="With --pipeline: the evaluated records (WikiActors JSON), never used; "
        "the component runs on pseudo-abstracts of the other actors",
    ),
    documents: int = typer.Option(50, help="With --pipeline: pseudo-abstracts timed (seeded sample)"),
) -> None:
    """Build time, size and query latency of every embedded backend on INPUT_PATH."""
    check_distinct(
        [("INPUT_PATH", input_path), ("--exclude", exclude)],
        [("--output", output), ("--output (.md)", output.with_suffix(".md"))],
    )
    nlp, docs = None, []
    if pipeline and not exclude:
        msg.fail("--pipeline needs --exclude (the evaluated records, never used for timing)", exits=1)
    if pipeline:
        nlp = spacy.load(pipeline)
        pool = [p for p in pseudo_abstracts(input_path, exclude) if p["eligible"]]
        docs = [(p["abstract"], p["name"]) for p in random.Random(seed).sample(pool, min(documents, len(pool)))]
    result = bench_backends(input_path, n_queries=queries, seed=seed, nlp=nlp, documents=docs)
    write_metrics(output, result)
    output.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    msg.good(f"Wrote {output}")
    print(markdown(result))


@index_app.command("tune")
def tune(
    background: Path = typer.Argument(
        ...,
        exists=True,
        dir_okay=False,
        help="WikiActors background file (full bodies), e.g. WikiActors_500_random.json",
    ),
    exclude: Path = typer.Option(
        ...,
        exists=True,
        dir_okay=False,
        help="The evaluated records (e.g. WikiActors_50_eval.json): their abstracts are never read",
    ),
    pipeline: str = typer.Option(..., help="A pipeline with textanon_search_risk (e.g. training/en_textanon_search)"),
    output: Path = typer.Option(Path("metrics/search_tuning.json"), "--output", "-o"),
    n: int = typer.Option(100, help="Pseudo-abstracts sampled (seeded); 0 = all"),
    seed: int = typer.Option(0, help="Sampling seed"),
    share: float = typer.Option(0.25, help="Share of each body the defender indexes (as the BK25 files)"),
    tolerance: float = typer.Option(0.02, help="Re-identification rate allowed above the grid's lowest (fraction)"),
    judge_pool: int = typer.Option(
        50,
        help="The judge ranks the bodies of groups of this many pseudo-abstracts "
        "(the evaluation's 50); 0 = all non-evaluated bodies",
    ),
    dev: str = typer.Option(
        "summary", help="Pseudo-abstracts: summary (sentences from across the body) or lead (lead paragraphs)"
    ),
    dense: bool = typer.Option(True, help="Judge with the MiniLM attacker too (privacy = the highest rate)"),
    max_masked_share: Optional[float] = typer.Option(None, help="Only settings masking at most this token share"),
    min_tpi: Optional[float] = typer.Option(None, help="Only settings keeping at least this headline TPI"),
) -> None:
    """Choose the search risk's settings on pseudo-abstracts of non-evaluated actors (docs/search.md)."""

    check_distinct([("BACKGROUND", background), ("--exclude", exclude)], [("--output", output)])
    if dev not in DEV_SETS:
        msg.fail(f"--dev must be one of {', '.join(DEV_SETS)}", exits=1)
    settings = TuningSettings(
        tolerance=tolerance,
        judge_pool=judge_pool or None,
        dense=dense,
        max_masked_share=max_masked_share,
        min_tpi=min_tpi,
    )
    sample = TuningSample(background, exclude, n or None, seed)
    result = tune_pipeline(pipeline, sample, dev, share, settings, log=msg.info)
    write_metrics(output, result)
    chosen = ", ".join(f"{k} = {v}" for k, v in result["selected"].items())
    msg.good(f"{chosen} -> {output}")


@index_app.command("dev-set")
def dev_set_cmd(
    background: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="WikiActors background file (full bodies)"
    ),
    exclude: Path = typer.Option(
        ..., exists=True, dir_okay=False, help="The evaluated records: their actors are left out, abstracts never read"
    ),
    output: Path = typer.Option(Path("build/generalization_dev"), "--output", "-o", help="Folder"),
    n: int = typer.Option(50, help="Summary pseudo-abstracts sampled (seeded); 0 = all"),
    seed: int = typer.Option(0, help="Sampling seed"),
    share: float = typer.Option(0.25, help="Share of each remaining body the defender indexes"),
) -> None:
    """A development set of non-evaluated actors for the benchmark: dev.json (WikiActors format) and index.jsonl
    (the defender's index documents, for ``index build``) in --output (textanon_lab.tuning.generalization_dev)."""
    check_distinct(
        [("BACKGROUND", background), ("--exclude", exclude)],
        [("--output (dev.json)", output / "dev.json"), ("--output (index.jsonl)", output / "index.jsonl")],
    )
    paths = write_dev_set(background, exclude, output, n, seed, share)
    msg.good(f"dev set -> {paths['records']}, index documents -> {paths['index']}")
