"""The evaluators' commands (``textanon evaluate``, ``evaluate-tab``, ``evaluate-trir``, ``evaluate-nmi``), a plugin
of the ``textanon`` command line (entry point ``textanon_cli`` of ``evaluators/pyproject.toml``): importing this
package registers them."""

from textanon.cli.apps import BEFORE_EVERY_COMMAND
from textanon_eval.cli import evaluate_tab, evaluate_trir, evaluate_utility  # noqa: F401  (they register their commands)
from textanon_eval.run_log import set_why


def _forget_why() -> None:
    """A lab command's ``--why`` is set by the lab group; other commands read ``$TEXTANON_RUN_WHY``."""
    set_why(None)


if _forget_why not in BEFORE_EVERY_COMMAND:
    BEFORE_EVERY_COMMAND.append(_forget_why)
