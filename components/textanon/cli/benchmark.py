"""``benchmark``: textanon side by side with Presidio, spaCy NER, LLM designs and published anonymizations."""

import json
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from . import app


@app.command("benchmark")
def benchmark_cmd(
    data: Path = typer.Argument(
        ...,
        exists=True,
        dir_okay=False,
        help="WikiActors-format JSON (original_abstract, manual_abstract, public_knowledge, ...)",
    ),
    output: Path = typer.Option(
        Path("metrics/benchmark_wikiactors.json"), help="JSON; .md and .png are written beside it"
    ),
    model: str = typer.Option("en_textanon", help="textanon pipeline (package or folder)"),
    trained_model: Optional[str] = typer.Option(None, help="textanon pipeline with the trained entity model, if built"),
    threshold: List[float] = typer.Option(
        [-1.0, -2.0, -3.0, -5.0, -7.5, -10.0, -15.0, -20.0], help="Sweep thresholds (log10), repeatable"
    ),
    llm_anonymizations: Optional[Path] = typer.Option(
        Path("corpus/llm_anonymizations_wikiactors_50.json"), help="{design: {name: text}} from bench-llm"
    ),
    limit: Optional[int] = typer.Option(None, help="Only the first N evaluated records"),
    skip_trir: bool = typer.Option(False, help="Do not run the re-identification attack"),
    no_presidio: bool = typer.Option(False, help="Do not run Presidio"),
    texts_out: Optional[Path] = typer.Option(
        None, help="Save {system: {name: anonymized text}} (for evaluate-trir elsewhere)"
    ),
    trir_from: Optional[Path] = typer.Option(
        None,
        exists=True,
        help='TRIR JSON {"trir": {system: percent or [percent per seed]}} to use instead of running the attack',
    ),
    trir_seeds: str = typer.Option(
        "42,1,2", help="Comma-separated attack seeds: one attack trained per seed, TRIR = mean ± sd"
    ),
    merge_only: bool = typer.Option(False, help="Only fill --trir-from into the existing --output result (no re-run)"),
    search_pipeline: Optional[str] = typer.Option(
        None, help="A pipeline with textanon_search_risk: adds the search-risk rows (needs --index)"
    ),
    index: List[str] = typer.Option(
        [], help="LABEL=DIR, repeatable: a search-risk row per index; the first is the headline (ablation, sweep)"
    ),
    search_ablation: bool = typer.Option(True, help="The search-risk ablation rows on the headline index"),
    search_sweep: bool = typer.Option(True, help="The k / k_rank / assume_unindexed sweep on the headline index"),
    judges: bool = typer.Option(True, help="The BM25 and MiniLM retrieval judges' columns for every row"),
) -> None:
    """Run every system on the same documents; write the table, JSON and the TPI-vs-TRIR plot."""
    from ..benchmarks.harness import benchmark, fill_trir, markdown, plot

    try:
        seeds = [int(x) for x in trir_seeds.split(",") if x.strip()]
    except ValueError:
        msg.fail(f"--trir-seeds expects comma-separated integers, got {trir_seeds!r}", exits=1)
    if not seeds:
        msg.fail("--trir-seeds: give at least one seed", exits=1)
    trir_values = json.loads(trir_from.read_text(encoding="utf8"))["trir"] if trir_from else None
    search = None
    if search_pipeline or index:
        from ..benchmarks.search import DEFAULT_SWEEP, SearchBench

        if not (search_pipeline and index) or any("=" not in i for i in index):
            msg.fail("the search rows need --search-pipeline and at least one --index LABEL=DIR", exits=1)
        indexes = dict(i.split("=", 1) for i in index)
        sweep = DEFAULT_SWEEP if search_sweep else ()
        search = SearchBench(search_pipeline, indexes, sweep, search_ablation)
    if merge_only:
        if not (trir_values and output.exists()):
            msg.fail("--merge-only needs --trir-from and an existing --output result", exits=1)
        result = json.loads(output.read_text(encoding="utf8"))
        fill_trir(result["rows"], trir_values)
        result["settings"]["trir"] = f"from {trir_from}"
    else:
        result = benchmark(
            data,
            threshold,
            model,
            trained_model,
            llm_anonymizations,
            limit,
            skip_trir,
            not no_presidio,
            texts_out,
            trir_values,
            seeds,
            search,
            judges,
        )
    from ..evaluation.provenance import write_metrics

    write_metrics(output, result)
    table = markdown(result)
    output.with_suffix(".md").write_text(table, encoding="utf8")
    has_trir = any(r["trir"] is not None for r in result["rows"])
    if has_trir:
        plot(result, output.with_suffix(".png"))
    elif output.with_suffix(".png").exists():  # a plot of an earlier run would contradict the new table
        output.with_suffix(".png").unlink()
        msg.warn(f"No TRIR in this run: removed the earlier plot {output.with_suffix('.png')}")
    if any(r.get("bm25_reid") is not None for r in result["rows"]):
        from ..benchmarks.judges import plot as plot_judges

        plot_judges(result, output.with_name(output.stem + "_judges.png"))
    msg.good(f"Wrote {output} (+ .md{', .png' if has_trir else ''})")
    print(table)
