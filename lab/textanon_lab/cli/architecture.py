"""``lab architecture``: the measures of the code's structure (import cycles, floors, long parameter lists,
imports inside functions, command bodies, the wheel's lab share) -> ``metrics/architecture.{json,md}``."""

from pathlib import Path

import typer
from wasabi import msg

from textanon.cli.common import check_distinct
from textanon_eval.provenance import write_metrics
from textanon_lab.architecture import markdown, measure
from textanon_lab.cli.apps import lab

ROOT = Path(__file__).resolve().parents[3]


@lab.command("architecture")
def architecture(
    output: Path = typer.Option(Path("metrics/architecture.json"), "--output", "-o", help="JSON (and .md beside it)"),
    no_wheel: bool = typer.Option(False, "--no-wheel", help="Skip building the anonymizer's wheel"),
) -> None:
    """Measure the structure of the checkout's code (issue 29's targets) -> OUTPUT and OUTPUT.md."""
    check_distinct([], [("--output", output), ("--output (.md)", output.with_suffix(".md"))])
    result = measure(ROOT, build_wheel=not no_wheel)
    write_metrics(output, result)
    output.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))
    msg.good(f"-> {output}, {output.with_suffix('.md')}")
