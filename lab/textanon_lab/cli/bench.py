"""``bench-speed`` and ``bench-long``: throughput and peak memory of the pipeline (benchmarks, not tests)."""

import sys
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct
from textanon.profiles import PROFILES, SEARCH
from textanon_eval.provenance import write_metrics
from textanon_lab.benchmarks.batch_size import bench_batch
from textanon_lab.benchmarks.batch_size import markdown as batch_markdown
from textanon_lab.benchmarks.lm_engines import write_bench_engines
from textanon_lab.benchmarks.scale import bench_scale
from textanon_lab.benchmarks.speed import bench_long, bench_speed, long_markdown
from textanon_lab.benchmarks.startup import measure_startup, startup_markdown
from textanon_lab.cli.apps import lab


@lab.command("bench-speed")
def bench_speed_cli(
    wikiactors: Path = typer.Option(..., exists=True, help="WikiActors JSON with original_abstract"),
    echr: Path = typer.Option(..., exists=True, help="echr-dev entity JSON (texts)"),
    output: Path = typer.Option(Path("metrics/speed.json"), help="JSON results; a .md table is written beside it"),
    model: str = typer.Option("en_textanon", help="Pipeline package with profiles (textanon.profiles)"),
    index: Optional[str] = typer.Option(None, help="Search index folder: the search profile is timed when it exists"),
    n_process: List[int] = typer.Option([1, 2], "--n-process", help="Worker processes of the default pipeline"),
    repeats: int = typer.Option(3, help="Interleaved repeats (medians are reported)"),
    limit: Optional[int] = typer.Option(None, help="Only the first N documents of each corpus (smoke runs)"),
    startup_python: Optional[str] = typer.Option(
        None, help="Python of the environment whose start-up is timed (default: this one)"
    ),
) -> None:
    """Anonymize the WikiActors abstracts and echr-dev cases with each configuration and Presidio; write docs/s,
    tokens/s, ratio to Presidio, peak RSS, seconds per component and the start-up of the default pipeline."""
    check_distinct(
        [("--wikiactors", wikiactors), ("--echr", echr)],
        [("--output", output), ("--output (.md)", output.with_suffix(".md"))],
    )
    _, table = bench_speed(
        output,
        startup_python=startup_python,
        model=model,
        wikiactors=wikiactors,
        echr=echr,
        index=index,
        n_process=n_process,
        repeats=repeats,
        limit=limit,
    )
    msg.good(f"Wrote {output}")
    print(table)


@lab.command("bench-startup")
def bench_startup_cli(
    model: List[str] = typer.Option(["en_textanon"], "--model", help="Pipeline package or folder (repeatable)"),
    python: Optional[str] = typer.Option(
        None, help="Python of the environment to time, e.g. build/check-wheel-venv/bin/python (default: this one)"
    ),
    repeats: int = typer.Option(3, help="Fresh processes per pipeline (medians are reported)"),
    output: Path = typer.Option(Path("metrics/startup.json"), help="JSON results; a .md table is written beside it"),
) -> None:
    """Time to the first anonymized record of one short document: spacy.load, the first record, the CLI."""

    check_distinct([], [("--output", output), ("--output (.md)", output.with_suffix(".md"))])
    python = python or sys.executable
    results = measure_startup(python, {m: m for m in model}, repeats)
    write_metrics(output, {"python": python, "pipelines": results})
    table = startup_markdown(results, python)
    output.with_suffix(".md").write_text(table, encoding="utf-8")
    msg.good(f"Wrote {output}")
    print(table)


@lab.command("bench-long")
def bench_long_cli(
    echr: Path = typer.Option(..., exists=True, help="echr-dev entity JSON: the cases the document is built from"),
    output: Path = typer.Option(
        Path("metrics/speed_long.json"), help="JSON results; a .md table and a .png plot are written beside it"
    ),
    model: str = typer.Option("en_textanon", help="Pipeline package with profiles (textanon.profiles)"),
    chars: str = typer.Option("100000,300000,1000000", help="Document lengths in characters, comma-separated"),
    profiles: str = typer.Option("fast,strict,lm", help="Profiles, comma-separated (search needs --index)"),
    index: Optional[str] = typer.Option(None, help="Search index folder (the search profile's)"),
    time_limit: float = typer.Option(900.0, help="Seconds per run (model load included); past it: a timeout row"),
) -> None:
    """For every profile and length, one document of that many characters (the echr-dev cases concatenated, names
    changed in each copy, built at run time) through the profile in a fresh process: seconds, CPU seconds, peak
    RSS, seconds per component; a table and a plot of the growth with length."""
    check_distinct(
        [("--echr", echr)],
        [
            ("--output", output),
            ("--output (.md)", output.with_suffix(".md")),
            ("--output (.png)", output.with_suffix(".png")),
        ],
    )
    names = [p.strip() for p in profiles.split(",") if p.strip()]
    unknown = [p for p in names if p not in PROFILES]
    if unknown:
        msg.fail(f"Unknown profile(s): {', '.join(unknown)} (one of {', '.join(PROFILES)})", exits=1)
    if SEARCH in names and not index:
        msg.fail("The search profile needs --index", exits=1)
    sizes = [int(c) for c in chars.split(",") if c.strip()]
    if not sizes or min(sizes) < 1:
        msg.fail("--chars: positive lengths, comma-separated", exits=1)
    results = bench_long(model, echr, output, chars=sizes, profiles=names, index=index, time_limit=time_limit)
    print(long_markdown(results))
    msg.good(f"Wrote {output} (+ .md, .png)")


@lab.command("bench-scale")
def bench_scale_cli(
    input_path: Path = typer.Argument(..., exists=True, help="Input records (as `anonymize`), e.g. the echr-dev cases"),
    output: Path = typer.Option(Path("metrics/scale.json"), help="JSON results; .md table and .png plot beside it"),
    outputs: Path = typer.Option(Path("corpus/scale"), help="Folder of the anonymized outputs (local.jsonl, ray_N)"),
    model: str = typer.Option("en_textanon", help="Pipeline package or folder"),
    workers: str = typer.Option("1,2", help="Ray worker counts, e.g. 1,2,4,8,16 on a 16-core machine"),
    batch_size: int = typer.Option(2, help="Records per batch (both engines)"),
    address: str = typer.Option(None, help="Existing Ray cluster (default: a local Ray with max(workers) CPUs)"),
    local: bool = typer.Option(True, help="Also run the local engine and compare every output with its output"),
) -> None:
    """docs/s of `anonymize --engine ray` with each worker count, outputs compared byte for byte with the local
    engine's; scaling efficiency."""
    check_distinct(
        [("INPUT_PATH", input_path)],
        [
            ("--output", output),
            ("--output (.md)", output.with_suffix(".md")),
            ("--output (.png)", output.with_suffix(".png")),
            ("--outputs", outputs),
        ],
        folders=["--outputs"],
    )
    counts = [int(w) for w in workers.split(",") if w.strip()]
    results, table = bench_scale(input_path, model, counts, batch_size, output, outputs, address=address, local=local)
    print(table)
    if local and not results["identical_to_local"]:
        msg.fail("The Ray engine's output differs from the local engine's.", exits=1)
    msg.good(
        f"Wrote {output} (+ .md, .png); outputs identical to the local engine's: {results.get('identical_to_local')}"
    )


@lab.command("bench-engines")
def bench_engines_cli(
    echr: Path = typer.Option(..., exists=True, help="echr-dev entity JSON (texts and gold mentions)"),
    wikiactors: Path = typer.Option(..., exists=True, help="WikiActors JSON with original_abstract"),
    output: Path = typer.Option(Path("metrics/lm_engines.json"), help="JSON results; a .md table is written beside it"),
    engines: List[str] = typer.Option(
        ["torch-fp32", "torch-int8", "ctranslate2-int8", "ctranslate2-fp32"],
        "--engine",
        help="Engines to compare; the first is the reference",
    ),
    threads: List[int] = typer.Option([1, 2], "--threads", help="Intra-op thread counts"),
    echr_windows: int = typer.Option(2, help="Windows of each echr-dev case scored for the agreement"),
    speed_docs: int = typer.Option(6, help="echr-dev cases (cut as above) in the speed set"),
    wikiactors_docs: int = typer.Option(10, help="WikiActors abstracts in the speed set"),
    repeats: int = typer.Option(3, help="Interleaved repeats of the speed set (medians are reported)"),
) -> None:
    """Forward-pass engines of the SmolLM2 scorer: CPU and wall seconds per 1,000 tokens at each thread count, and
    agreement with the first engine (Spearman of span ICs on the echr-dev gold mentions, token log-prob diffs)."""
    check_distinct(
        [("--echr", echr), ("--wikiactors", wikiactors)],
        [("--output", output), ("--output (.md)", output.with_suffix(".md"))],
    )
    settings = dict(engines=engines, threads=threads, repeats=repeats)
    sizes = dict(echr_windows=echr_windows, speed_docs=speed_docs, wikiactors_docs=wikiactors_docs)
    _, table = write_bench_engines(output, echr=echr, wikiactors=wikiactors, **settings, **sizes)
    msg.good(f"Wrote {output}")
    print(table)


@lab.command("bench-batch")
def bench_batch_cli(
    dev: Path = typer.Argument(..., exists=True, dir_okay=False, help="Development file (index dev-set's dev.json)"),
    background: Path = typer.Option(
        ..., exists=True, dir_okay=False, help="WikiActors bodies (WikiActors_500_random.json): the long documents"
    ),
    exclude: Path = typer.Option(
        ..., exists=True, dir_okay=False, help="The evaluated records (WikiActors_50_eval.json): never read"
    ),
    index: str = typer.Option(..., help="A search index (the search profile loads with it; not queried)"),
    model: str = typer.Option("en_textanon", help="Pipeline package with profiles (textanon.profiles)"),
    repeats: int = typer.Option(3, help="Interleaved repeats (medians are reported)"),
    output: Path = typer.Option(Path("metrics/batch_size.json"), help="JSON results; a .md table is written beside it"),
) -> None:
    """The batch size timed on development documents (textanon_lab.benchmarks.batch_size; docs/profiles.md)."""
    check_distinct(
        [("DEV", dev), ("--background", background), ("--exclude", exclude)],
        [("--output", output), ("--output (.md)", output.with_suffix(".md"))],
    )
    result = bench_batch(dev, background, exclude, model, index, repeats)
    write_metrics(output, result)
    table = batch_markdown(result)
    output.with_suffix(".md").write_text(table, encoding="utf-8")
    msg.good(f"Wrote {output}")
    print(table)
