import socket

import pytest

from conftest import NetworkBlocked


def test_outbound_connections_are_blocked():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with pytest.raises(NetworkBlocked):
        s.connect(("93.184.216.34", 80))
    s.close()


def test_dns_lookups_are_blocked():
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("huggingface.co", 443)
