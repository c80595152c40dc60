import json
import socket
import subprocess
import sys

import pytest
from conftest import NetworkBlocked
from offline import PROBE, namespace_unavailable, without_network


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
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "Mr Ion Rusu lives in Balti.", "target": "Ion Rusu"}) + "\n")
    result = subprocess.run(
        without_network([sys.executable, "-m", "textanon", "anonymize", str(path), "-o", str(out)]),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Rusu" not in json.loads(out.read_text())["anonymized_text"]
