"""Test session set-up: the runtime must work offline, so only loopback sockets may connect."""

import ipaddress
import os
import socket

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


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


class NetworkBlocked(RuntimeError):
    """Raised when code under test tries to reach a non-loopback address."""


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


def _looks_loopback(host) -> bool:
    try:
        return ipaddress.ip_address(host if isinstance(host, str) else host.decode()).is_loopback
    except ValueError:
        return False


_real_getaddrinfo = socket.getaddrinfo


@pytest.fixture(scope="session", autouse=True)
def block_network():
    """Block every non-loopback connection and DNS lookup for the whole session."""
    socket.socket.connect = _guarded_connect
    socket.socket.connect_ex = _guarded_connect_ex
    socket.getaddrinfo = _guarded_getaddrinfo
    yield
    socket.socket.connect = _real_connect
    socket.socket.connect_ex = _real_connect_ex
    socket.getaddrinfo = _real_getaddrinfo


@pytest.fixture
def llm_then_optimizer():
    """``run(nlp, text) -> Doc``: add the optimizer after the LLM anonymizer of ``nlp`` and run both on ``text``,
    whose first nine characters ("Ada Quint") are a detected PERSON entity ``P1``, with no risky combination
    and no target: what the optimizer masks beyond that comes from the LLM spans."""

    def run(nlp, text):
        nlp.add_pipe("textanon_optimizer")
        doc = nlp.make_doc(text)
        ada = doc.char_span(0, 9, label="PERSON")
        ada._.entity_id = "P1"
        doc.spans["pii"] = [ada]
        doc._.risky_combinations = []
        doc._.target = None
        return nlp(doc)

    return run
