"""Functions that tests run in spawned processes. A spawned child imports them by module name, and test modules
(imported with ``--import-mode=importlib``) cannot be imported that way: these live on the helpers path."""

import time
from pathlib import Path


def _slow_build(log: str):
    def build(tmp: Path) -> None:
        with open(log, "a") as f:
            f.write("built\n")
        for i in range(5):
            (tmp / f"part{i}.bin").write_bytes(b"x" * 1000)
            time.sleep(0.05)  # let the other process arrive while this one is converting
        (tmp / "config.json").write_text("{}")

    return build


def convert_after_barrier(folder: str, log: str, barrier) -> None:
    """Wait at ``barrier``, then ``cached_conversion`` of ``folder`` with a slow build that logs "built" to ``log``."""
    from textanon.risk.language_models.loading import cached_conversion

    barrier.wait()
    cached_conversion(Path(folder), _slow_build(log))
