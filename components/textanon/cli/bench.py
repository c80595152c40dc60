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


@app.command("bench-scale")
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
    from ..benchmarks.scale import bench_scale

    counts = [int(w) for w in workers.split(",") if w.strip()]
    results, table = bench_scale(input_path, model, counts, batch_size, output, outputs, address=address, local=local)
    print(table)
    if local and not results["identical_to_local"]:
        msg.fail("The Ray engine's output differs from the local engine's.", exits=1)
    msg.good(
        f"Wrote {output} (+ .md, .png); outputs identical to the local engine's: {results.get('identical_to_local')}"
    )
