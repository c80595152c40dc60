"""lm.loading.cached_conversion: one build, atomic, nothing left behind (the 517 MB temp-folder leak)."""

import multiprocessing
from pathlib import Path

import pytest
from spawned import convert_after_barrier

from textanon.risk.language_models.loading import cached_conversion


def _leftovers(cache: Path, name: str):
    return sorted(p.name for p in cache.iterdir() if p.name not in (name, name + ".lock"))


def test_two_processes_convert_once_and_leave_no_temporary_folder(tmp_path):
    folder, log = tmp_path / "converted" / "model", tmp_path / "log.txt"
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=convert_after_barrier, args=(str(folder), str(log), barrier)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    assert log.read_text().count("built") == 1
    assert sorted(p.name for p in folder.iterdir()) == ["config.json"] + [f"part{i}.bin" for i in range(5)]
    assert _leftovers(folder.parent, "model") == []


def test_failed_or_killed_build_leaves_nothing_behind(tmp_path):
    folder = tmp_path / "model"

    def failing(tmp: Path) -> None:
        (tmp / "weights.bin").write_bytes(b"x" * 1000)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        cached_conversion(folder, failing)
    assert not folder.exists() and _leftovers(tmp_path, "model") == []
    (tmp_path / ".model.tmp-killed").mkdir()  # what a SIGKILLed converter leaves
    cached_conversion(folder, lambda tmp: (tmp / "config.json").write_text("{}"))
    assert (folder / "config.json").exists() and _leftovers(tmp_path, "model") == []
