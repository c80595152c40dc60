"""Command line: ``python -m textanon COMMAND`` (typer app; one module per command group)."""
import typer

app = typer.Typer(
    name="textanon",
    help="Risk-aware anonymization of English text (spaCy components).",
    no_args_is_help=True,
    add_completion=False,
)

# Each module registers its commands on ``app`` when imported.
from . import anonymize  # noqa: E402,F401
from . import pipeline  # noqa: E402,F401
from . import bench  # noqa: E402,F401
from . import gazetteer  # noqa: E402,F401
from . import train  # noqa: E402,F401
from . import benchmark  # noqa: E402,F401
from . import evaluate_utility  # noqa: E402,F401
from . import llm  # noqa: E402,F401
from . import evaluate_tab  # noqa: E402,F401
from . import convert  # noqa: E402,F401
from . import evaluate_trir  # noqa: E402,F401
from . import reliability  # noqa: E402,F401
from . import index  # noqa: E402,F401


def main() -> None:
    app()
