"""Command line: ``textanon COMMAND`` (or ``python -m textanon COMMAND``), a typer app, one module per command
group: what a user of the anonymizer runs (anonymize, demo, report, deanonymize, mapping-key, index build).

More commands come from plugins, packages that name a module under the ``textanon_cli`` entry point group: importing
it registers its commands on :data:`textanon.cli.apps.app`. The evaluators (``textanon-eval``, ``evaluators/``) add
``evaluate``, ``evaluate-tab``, ``evaluate-trir`` and ``evaluate-nmi``; the project's lab (``lab/``, installed in a
checkout only) adds the ``lab`` group and ``index bench|tune|dev-set``. The library never imports them.

Output is plain (no colour) when it is not a terminal or when ``$NO_COLOR`` is set; a usage error is one line
and exit code 2."""

import logging
from importlib.metadata import entry_points

from textanon.cli import anonymize, index, mapping, report  # noqa: F401  (each registers its commands)
from textanon.cli.apps import HELP, app, use_colour  # noqa: F401  (the public names)

#: the entry point group of command-line plugins
PLUGIN_GROUP = "textanon_cli"
logger = logging.getLogger(__name__)


def load_plugins() -> list:
    """Import every installed command-line plugin (once; Python caches the modules), in name order. A plugin that
    fails to import is logged and skipped: the user's commands still run."""
    loaded = []
    for point in sorted(entry_points(group=PLUGIN_GROUP), key=lambda p: p.name):
        try:
            point.load()
        except ImportError as err:
            logger.warning("command-line plugin %s (%s) not loaded: %s", point.name, point.value, err)
            continue
        loaded.append(point.name)
    return loaded


PLUGINS = load_plugins()


def main() -> None:
    """Entry point of the ``textanon`` console script."""
    app()
