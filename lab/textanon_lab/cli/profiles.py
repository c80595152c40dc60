"""``lab select-prior``, ``lab select-search-profile`` and ``lab profiles``: the fast profile's prior settings and the
search profile's (dev), and the profile table."""

from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, parse_seeds
from textanon_lab.benchmarks.profile_rows import (
    PRIOR_GRIDS,
    PRIOR_RULES,
    SEARCH_GRIDS,
    SEARCH_RULES,
    prior_markdown,
    prior_sweep,
    profile_rows,
    profiles_markdown,
    search_sweep,
    update_readme,
    write,
)
from textanon_lab.cli.apps import lab
from textanon_lab.cli.benchmark import FLUENCY_CORPUS


@lab.command("select-prior")
def select_prior_cli(
    dev: Path = typer.Argument(..., exists=True, dir_okay=False, help="Development file (index dev-set's dev.json)"),
    model: str = typer.Option("en_textanon", help="The pipeline package (with profiles)"),
    output: Path = typer.Option(Path("metrics/prior_selection.json"), help="JSON results; a .md table beside it"),
    limit: Optional[int] = typer.Option(None, help="Only the first N documents (smoke runs)"),
    grid: int = typer.Option(
        2,
        help="Which round's grid and rule (docs/profiles.md): 1, 2 (chose the shipped setting), 3, 4, 5, 6 (the "
        "generalizing fast profile, with round 6's rule) or 7 (other people's names: every PERSON masked)",
    ),
) -> None:
    """The fast profile's prior (n_docs; generalization on or off) chosen on development pseudo-abstracts."""
    check_distinct([("DEV", dev)], [("--output", output), ("--output (.md)", output.with_suffix(".md"))])
    if grid not in PRIOR_GRIDS:
        msg.fail(f"--grid must be one of {', '.join(map(str, PRIOR_GRIDS))}", exits=2)
    result = prior_sweep(dev, model, grid=PRIOR_GRIDS[grid], limit=limit, rule=PRIOR_RULES.get(grid))
    table = prior_markdown(result)
    write(output, result, table)
    msg.good(f"Wrote {output}")
    print(table)


@lab.command("select-search-profile")
def select_search_profile_cli(
    dev: Path = typer.Argument(..., exists=True, dir_okay=False, help="Development file (index dev-set's dev.json)"),
    index: str = typer.Option(..., help="The development index (index dev-set's index.jsonl, built)"),
    model: str = typer.Option("en_textanon", help="The pipeline package (with profiles)"),
    output: Path = typer.Option(
        Path("metrics/search_profile_selection.json"), help="JSON results; a .md table beside it"
    ),
    limit: Optional[int] = typer.Option(None, help="Only the first N documents (smoke runs)"),
    grid: int = typer.Option(
        1,
        help="Which round's grid (docs/profiles.md): 1 (the attacker's strength), 2 (with or without the parser), "
        "3 (the attacker's strength and the targeted bar without the parser), 4 (other people's names: every PERSON "
        "masked)",
    ),
) -> None:
    """The search profile's settings chosen on development pseudo-abstracts, with the profile as shipped
    (generalizing): round 1 its stronger-attacker prior (assume_unindexed), round 2 en_core_web_sm's tagger and parser
    on or off, round 3 the attacker's strength and the targeted bar without them."""
    check_distinct([("DEV", dev)], [("--output", output), ("--output (.md)", output.with_suffix(".md"))])
    if grid not in SEARCH_GRIDS:
        msg.fail(f"--grid must be one of {', '.join(map(str, SEARCH_GRIDS))}", exits=2)
    result = search_sweep(dev, index, model, grid=SEARCH_GRIDS[grid], limit=limit, rule=SEARCH_RULES.get(grid))
    table = prior_markdown(result)
    write(output, result, table)
    msg.good(f"Wrote {output}")
    print(table)


@lab.command("profiles")
def profiles_cli(
    data: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="WikiActors file (e.g. WikiActors_50_eval.json)"
    ),
    index: Optional[str] = typer.Option(None, help="Search index folder of the search profile"),
    model: str = typer.Option("en_textanon", help="The pipeline package (with profiles)"),
    trir_seeds: Optional[str] = typer.Option(None, help="TRIR attack seeds, e.g. 42,1,2 (default: no attack)"),
    output: Path = typer.Option(Path("metrics/profiles.json"), help="JSON results; a .md table beside it"),
    readme: Optional[Path] = typer.Option(None, help="Also write the table into this README (between its markers)"),
    limit: Optional[int] = typer.Option(None, help="Only the first N documents (smoke runs)"),
    fluency_corpus: Optional[Path] = typer.Option(
        Path(FLUENCY_CORPUS),
        help="WikiActors file whose public bodies of people NOT evaluated train the fluency model of the readability "
        "columns (skipped with a warning when missing)",
    ),
) -> None:
    """Every profile as users run it, Presidio and the manual anonymization: the README's profile table."""
    check_distinct(
        [("DATA", data), ("--fluency-corpus", fluency_corpus)],
        [("--output", output), ("--output (.md)", output.with_suffix(".md")), ("--readme", readme)],
    )
    seeds = parse_seeds(trir_seeds, "--trir-seeds", required=False)
    if fluency_corpus is not None and not fluency_corpus.exists():
        msg.warn(f"--fluency-corpus {fluency_corpus} not found: no fluency column")
        fluency_corpus = None
    result = profile_rows(
        data, model, index, skip_trir=not seeds, trir_seeds=seeds or (42,), limit=limit, fluency_corpus=fluency_corpus
    )
    table = profiles_markdown(result)
    write(output, result, table)
    if readme is not None and not update_readme(readme, table):
        msg.fail(f"{readme} has no profile-table markers", exits=1)
    msg.good(f"Wrote {output}")
    print(table)
