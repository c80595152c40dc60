"""``run-log``: the log of evaluation runs (``metrics/runs.jsonl`` and its table ``runs.md``), back-filled from the
git history with ``--from-git`` (:mod:`textanon_eval.run_log`)."""

import subprocess
from pathlib import Path

import typer
from wasabi import msg

from textanon.cli.common import check_distinct
from textanon_eval.run_log import rebuild
from textanon_lab.cli.apps import lab


@lab.command("run-log")
def run_log_cmd(
    from_git: bool = typer.Option(
        False,
        "--from-git",
        help="Add a line for every version of a metrics/*.json file in the git history (what its provenance "
        "records; why = the first line of the commit message that added it), lines already there kept",
    ),
    repo: Path = typer.Option(Path("."), exists=True, file_okay=False, help="The git checkout whose history is read"),
    output: Path = typer.Option(
        Path("metrics/runs.jsonl"), "--output", "-o", help="The run log (JSON lines); its table is written beside it"
    ),
) -> None:
    """Write the table of the run log again (metrics/runs.md) and, with --from-git, back-fill earlier runs."""

    check_distinct([], [("--output", output), ("--output (.md)", output.with_suffix(".md"))])
    try:
        lines = rebuild(repo, output, from_git=from_git, warn=msg.warn)
    except (OSError, subprocess.SubprocessError) as err:
        msg.fail(f"Could not read the git history of {repo}: {err}", exits=1)
    filled = sum(1 for x in lines if x.get("backfilled"))
    msg.good(f"Wrote {output} ({len(lines)} runs, {filled} back-filled) and {output.with_suffix('.md')}")
