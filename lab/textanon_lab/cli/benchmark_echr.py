"""``lab benchmark-echr``: court cases as a second privacy benchmark (:mod:`textanon_lab.benchmarks.echr`)."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, parse_seeds
from textanon_lab.benchmarks.echr import EchrDataError, benchmark_echr, markdown, prepare_index, split_profiles, write
from textanon_lab.cli.apps import lab


@lab.command("benchmark-echr")
def benchmark_echr_cli(
    data: Path = typer.Argument(
        ...,
        exists=True,
        file_okay=False,
        help="The echr-dev folder (echr_dev_entities.json, echr_dev_bk_public.json, anonymizations/)",
    ),
    index: Optional[Path] = typer.Option(
        None, help="Search index folder of the search profile (built there first when --distractors is given)"
    ),
    distractors: Optional[Path] = typer.Option(
        None,
        exists=True,
        dir_okay=False,
        help="WikiActors-format file whose public bodies join the 27 judgments in the --index built here",
    ),
    profiles: str = typer.Option(
        "fast,lm,search,strict", help="textanon profiles to run (search is the slow one on court cases, then lm)"
    ),
    model: str = typer.Option("en_textanon", help="The pipeline package (with profiles)"),
    trir_seeds: Optional[str] = typer.Option(None, help="TRIR attack seeds, e.g. 42,1,2 (default: no attack)"),
    tpi_lm: bool = typer.Option(False, "--tpi-lm", help="Also TPI under SmolLM2 (slow)"),
    output: Path = typer.Option(Path("metrics/benchmark_echr.json"), help="JSON results; .md and .png beside it"),
    limit: Optional[int] = typer.Option(None, help="Only the first N cases (smoke runs)"),
) -> None:
    """The 27 echr-dev cases against their published judgments: reference anonymizations, Presidio and every
    textanon profile, judged by BM25 and MiniLM retrieval, TPI, masked share (TRIR with --trir-seeds)."""
    seeds = parse_seeds(trir_seeds, "--trir-seeds", required=False)
    built = index if distractors is not None else None  # the index this command writes
    check_distinct(
        [("DATA", data), ("--distractors", distractors)] + ([] if built else [("--index", index)]),
        [("--output", output), ("--output (.md)", output.with_suffix(".md"))]
        + [("--output (.png)", output.with_suffix(".png")), ("--index", built)],
        folders=["--index"],
    )
    chosen, unknown = split_profiles(profiles)
    if unknown:
        msg.fail(f"Unknown profiles {unknown}: some of fast, lm, search, strict", exits=2)
    if "search" in chosen and index is None:
        msg.warn("No --index: the search profile is left out")
    try:
        meta = prepare_index(data, index, distractors, log=msg.good)
    except EchrDataError as err:
        msg.fail(str(err), exits=1)
    result = benchmark_echr(
        data, model, index and str(index), chosen, trir_seeds=seeds, tpi_lm=tpi_lm, limit=limit, index_meta=meta
    )
    if distractors is not None:
        result["distractors"] = str(distractors)
    write(output, result)
    msg.good(f"Wrote {output} (.md, .png) in {result['wall_s']} s")
    print(markdown(result))
