"""Running a subprocess in a network namespace with no interfaces (`unshare -n`): it cannot reach the network."""

import functools
import shutil
import subprocess
from typing import List, Optional

PROBE = "import socket; socket.create_connection(('93.184.216.34', 80), timeout=3)"


@functools.lru_cache(maxsize=1)
def namespace_unavailable() -> Optional[str]:
    """None if ``unshare -n`` works here, else why not (not installed, not root / no user namespaces)."""
    if not shutil.which("unshare"):
        return "`unshare` (util-linux) is not installed"
    try:
        result = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True, timeout=30)
    except OSError as err:
        return f"`unshare -n` cannot run: {err}"
    if result.returncode != 0:
        return f"`unshare -n` is not permitted here (needs root or user namespaces): {result.stderr.strip()}"
    return None


def without_network(cmd: List[str]) -> List[str]:
    """``cmd`` run in an empty network namespace when possible (else unchanged: the in-process guard only)."""
    return cmd if namespace_unavailable() else ["unshare", "-n", *cmd]
