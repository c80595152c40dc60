"""The offline guard: in-process sockets are blocked, and the CLI runs in a network namespace without a network."""

import json
import socket
import subprocess
import sys

import pytest
from cli_runner import run_textanon
from input_files import write_jsonl
from offline import PROBE, NetworkBlocked, namespace_unavailable, without_network


def test_outbound_connections_are_blocked():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with pytest.raises(NetworkBlocked):
        s.connect(("93.184.216.34", 80))
    s.close()


def test_dns_lookups_are_blocked():
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("huggingface.co", 443)


@pytest.mark.slow
def test_cli_subprocess_runs_without_any_network(tmp_path):
    """The in-process socket patch does not reach subprocesses: run the CLI in an empty network namespace."""
    reason = namespace_unavailable()
    if reason:
        pytest.skip(f"no network namespace, subprocess offline proof skipped: {reason}")
    probe = subprocess.run(without_network([sys.executable, "-c", PROBE]), capture_output=True, text=True)
    assert probe.returncode != 0 and "Network is unreachable" in probe.stderr  # the namespace has no network
    out = tmp_path / "out.jsonl"
    path = write_jsonl(
        tmp_path / "in.jsonl", [{"id": "a", "text": "Mr Ion Rusu lives in Balti.", "target": "Ion Rusu"}]
    )
    result = run_textanon("anonymize", path, "-o", out)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Rusu" not in json.loads(out.read_text())["anonymized_text"]
