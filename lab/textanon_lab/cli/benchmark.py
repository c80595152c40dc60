"""``benchmark``: textanon side by side with Presidio, spaCy NER, LLM designs and published anonymizations."""

from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, input_file, named_paths, parse_seeds
from textanon_lab.benchmarks.benchmark_settings import (
    BenchmarkOutputs,
    BenchmarkRows,
    ScoreSettings,
    existing_corpus,
    optional_benches,
)
from textanon_lab.benchmarks.harness import BenchmarkError, benchmark, has_trir, markdown, merge_trir, read_trir_values
from textanon_lab.cli.apps import lab

#: the default training corpus of the readability columns' fluency model (minus the evaluated people)
FLUENCY_CORPUS = "../shared/data/wikiactors/WikiActors_500_random.json"


@lab.command("benchmark")
def benchmark_cmd(
    data: Path = input_file("WikiActors-format JSON (original_abstract, manual_abstract, public_knowledge, ...)"),
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
    generalizations_out: Optional[Path] = typer.Option(
        None,
        help="Save the generalizing rows' generalizations (original, replacement, kind, level, context) as JSON, the "
        "input of lab truth-audit sample",
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
    generalize: List[str] = typer.Option(
        [],
        help="LABEL=PIPELINE[@INDEX], repeatable: rows 'textanon LABEL + generalization' and their suppressing twins",
    ),
    tpi_lm: bool = typer.Option(True, help="The SmolLM2 TPI column (slow on a CPU: one LM pass per text)"),
    fluency_corpus: Optional[Path] = typer.Option(
        Path(FLUENCY_CORPUS),
        help="WikiActors file whose public bodies of people NOT evaluated train the fluency model of the readability "
        "columns (skipped with a warning when missing)",
    ),
    only: List[str] = typer.Option(
        [],
        help="Row group to run, repeatable (baselines, search, generalization, published; default all): the rows "
        "replace those of the same names in an existing --output",
    ),
) -> None:
    """Run every system on the same documents; write the table, JSON and the TPI-vs-TRIR plot."""
    check_distinct(  # --output itself is read back (--merge-only, --only): it is both, by design
        [("DATA", data), ("--llm-anonymizations", llm_anonymizations), ("--trir-from", trir_from)]
        + [("--fluency-corpus", fluency_corpus)]
        + named_paths("--index", index),
        [("--output (.md)", output.with_suffix(".md")), ("--output (.png)", output.with_suffix(".png"))]
        + [("--texts-out", texts_out), ("--generalizations-out", generalizations_out)],
    )
    check_distinct([("DATA", data), ("--trir-from", trir_from)], [("--output", output)])
    seeds = parse_seeds(trir_seeds, "--trir-seeds")
    fluency_corpus = existing_corpus(fluency_corpus, msg.warn)
    try:
        search, bench = optional_benches(search_pipeline, index, search_sweep, search_ablation, generalize)
    except ValueError as err:
        msg.fail(str(err), exits=1)
    rows = BenchmarkRows(
        threshold, model, trained_model, llm_anonymizations, not no_presidio, search, bench, only or None
    )
    scoring = ScoreSettings(trir_seeds=seeds, skip_trir=skip_trir, tpi_lm=tpi_lm)
    outputs = BenchmarkOutputs(output, texts_out, generalizations_out)
    try:
        if merge_only:
            result = merge_trir(output, trir_from, warn=msg.warn)
        else:
            trir_values = read_trir_values(trir_from)
            result = benchmark(data, rows, scoring, outputs, trir_values, fluency_corpus, judges, limit, msg.warn)
    except BenchmarkError as err:
        msg.fail(str(err), exits=1)
    msg.good(f"Wrote {output} (+ .md{', .png' if has_trir(result) else ''})")
    print(markdown(result))
