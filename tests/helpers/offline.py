"""Offline tests: the in-process network guard (only loopback sockets connect) and running a subprocess in a
network namespace with no interfaces (`unshare -n`), which cannot reach the network."""

import functools
import ipaddress
import shutil
import socket
import subprocess
from typing import List, Optional

PROBE = "import socket; socket.create_connection(('93.184.216.34', 80), timeout=3)"

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


class NetworkBlocked(RuntimeError):
    """Raised when code under test tries to reach a non-loopback address."""


def _is_loopback(address) -> bool:
    if isinstance(address, (str, bytes)):  # AF_UNIX path
        return True
    host = address[0]
    if host in ("localhost",):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _looks_loopback(host) -> bool:
    try:
        return ipaddress.ip_address(host if isinstance(host, str) else host.decode()).is_loopback
    except ValueError:
        return False


def _guarded_connect(self, address):
    if not _is_loopback(address):
        raise NetworkBlocked(f"network access attempted during tests: {address!r}")
    return _real_connect(self, address)


def _guarded_connect_ex(self, address):
    if not _is_loopback(address):
        raise NetworkBlocked(f"network access attempted during tests: {address!r}")
    return _real_connect_ex(self, address)


def _guarded_getaddrinfo(host, *args, **kwargs):
    if host not in (None, "localhost") and not _looks_loopback(host):
        raise NetworkBlocked(f"DNS lookup attempted during tests: {host!r}")
    return _real_getaddrinfo(host, *args, **kwargs)


def block_network() -> None:
    """Make every non-loopback connection and DNS lookup of this process raise :class:`NetworkBlocked`."""
    socket.socket.connect = _guarded_connect
    socket.socket.connect_ex = _guarded_connect_ex
    socket.getaddrinfo = _guarded_getaddrinfo


def unblock_network() -> None:
    """Undo :func:`block_network`."""
    socket.socket.connect = _real_connect
    socket.socket.connect_ex = _real_connect_ex
    socket.getaddrinfo = _real_getaddrinfo


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
