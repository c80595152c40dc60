"""ray_session: a local Ray started for the block (the default of ``--engine ray``) and shut down after it."""

import pytest

ray = pytest.importorskip("ray")

from textanon.run.scale.ray_engine import ray_session  # noqa: E402


def test_ray_session_starts_a_local_ray_and_shuts_it_down(monkeypatch):
    if ray.is_initialized():  # another module's Ray: this test needs none running
        pytest.skip("Ray already initialized in this process")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with ray_session(num_cpus=1):
        assert ray.is_initialized() and ray.cluster_resources()["CPU"] == 1
        with ray_session():  # nested: the running Ray is used as it is
            assert ray.is_initialized()
        assert ray.is_initialized()
    assert not ray.is_initialized()
