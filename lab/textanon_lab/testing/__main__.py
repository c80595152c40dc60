"""``python -m textanon_lab.testing ARGS``: the ``textanon`` command line with logging at DEBUG level and the
fault plugins of :mod:`textanon_lab.testing.faults` imported (so pipelines using them load without a
re-install). Used by the reliability suite; behaves exactly like ``python -m textanon ARGS`` otherwise."""

import logging
import sys

logging.basicConfig(level=logging.DEBUG, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")

from textanon.cli import main  # noqa: E402
from textanon_lab.testing import faults  # noqa: E402,F401  (registers the plugins)

if __name__ == "__main__":
    main()
