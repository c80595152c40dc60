"""``lab truth-audit sample`` / ``summarize``: the truth audit of the benchmark's generalizations (issue 31,
:mod:`textanon_lab.benchmarks.truth_audit`)."""

from pathlib import Path

import typer
from wasabi import msg

from textanon.cli.common import check_distinct, input_file
from textanon_lab.benchmarks.truth_audit import (
    AuditError,
    draw,
    load_generalizations,
    markdown,
    write_sample,
    write_summary,
)
from textanon_lab.cli.apps import group

truth_audit_app = group(
    "truth-audit", "The truth audit of the generalizations: draw a seeded sample to read, then summarize the verdicts."
)


@truth_audit_app.command("sample")
def sample_cmd(
    generalizations: Path = typer.Option(
        ..., exists=True, dir_okay=False, help="JSON written by lab benchmark --generalizations-out"
    ),
    row: str = typer.Option(
        ..., help="The generalizing row to draw from, e.g. 'textanon search-risk bk25 + generalization'"
    ),
    n: int = typer.Option(100, help="How many generalizations to draw (all when there are fewer)"),
    seed: int = typer.Option(0, help="Seed of the draw (the same file, row, n and seed draw the same lines)"),
    output: Path = typer.Option(
        Path("assets/audits/truth_audit.jsonl"),
        help="JSON Lines, one generalization a line with an empty verdict and note; never overwritten once it "
        "holds a verdict",
    ),
) -> None:
    """Draw N generalizations of ROW uniformly at random (seeded) for a person to read and judge."""
    check_distinct([("--generalizations", generalizations)], [("--output", output)])
    try:
        lines = draw(load_generalizations(generalizations, row), n, seed, row)
        write_sample(output, lines)
    except AuditError as err:
        msg.fail(str(err), exits=1)
    msg.good(f"Wrote {len(lines)} lines to {output}: write a verdict (true, false, unsure) on each")


@truth_audit_app.command("summarize")
def summarize_cmd(
    audit: Path = input_file("JSON Lines of lab truth-audit sample, a verdict on every line"),
    output: Path = typer.Option(
        Path("metrics/truth_audit.json"), help="JSON summary (with provenance); a .md table is written beside it"
    ),
) -> None:
    """Validate the verdicts and count them (overall, per kind, bounded numbers); list the false ones."""
    check_distinct([("AUDIT", audit)], [("--output", output), ("--output (.md)", output.with_suffix(".md"))])
    try:
        summary = write_summary(audit, output)
    except AuditError as err:
        msg.fail(str(err), exits=1)
    print(markdown(summary))
    msg.good(f"Wrote {output} (+ .md)")
