"""The Ray engine (``anonymize --engine ray``): the local engine's records, byte for byte, in input order, whatever
fails; a killed worker loses nothing. One local Ray (2 CPUs, no dashboard) for the module, shut down after it."""

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pq = pytest.importorskip("pyarrow.parquet")

import ray_pipelines  # noqa: E402  (helpers path: Ray workers import it by name)
from cli_runner import invoke, run_textanon  # noqa: E402
from core_fixtures import ROOT  # noqa: E402

from textanon.io.datasets.records import read_records  # noqa: E402
from textanon.render.output import write_output  # noqa: E402
from textanon.run.runner import anonymize_records  # noqa: E402
from textanon.run.scale.ray_engine import PipelineSpec, ray_anonymize_records  # noqa: E402

SECRET = "Zacharias Quillfeather"
PIPES = ("test_ray_boom", "test_ray_kill_once", "test_ray_kill_always", "test_ray_mask_digits")


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray for this module's tests (workers find textanon and the helpers on PYTHONPATH); its temporary
    folder (logs included) is yielded, then Ray is shut down and the environment restored."""
    temp = Path(tempfile.mkdtemp(prefix="rt", dir="/tmp"))  # short: Ray's socket paths have a length limit
    paths = [str(ROOT / "components"), str(ROOT / "tests" / "helpers"), os.environ.get("PYTHONPATH", "")]
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
        env.setenv("RAY_USAGE_STATS_ENABLED", "0")
        env.setenv(ray_pipelines.KILL_FLAG_ENV, str(temp / "kill-flag"))
        env.setenv("TEXTANON_TEST_IN_DRIVER", str(os.getpid()))
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=str(temp / "ray"))
        try:
            yield temp
        finally:
            ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


def _jsonl(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _write(records, path):
    with open(path, "w", encoding="utf-8") as out:
        write_output(records, out)
    return path.read_bytes()


def test_ray_output_is_the_local_output_byte_for_byte_with_error_records_in_place(ray_local, tmp_path):
    lines = [json.dumps({"id": f"d{i}", "text": f"Case {i}: {SECRET} paid {i * 137} euros."}) for i in range(9)]
    lines[2] = json.dumps({"id": "boom", "text": f"BOOM {SECRET} 42"})  # the component raises, quoting the text
    lines.insert(4, '{"id": "broken", "text": ')  # malformed JSON
    lines.insert(6, json.dumps({"id": "d1", "text": "a repeated id 7"}))
    lines.insert(7, json.dumps({"id": "long", "text": "x" * 500}))  # over max_chars
    path = _jsonl(tmp_path / "in.jsonl", lines)
    loader = ray_pipelines.loader("test_ray_boom", "test_ray_mask_digits")
    local = _write(anonymize_records(loader(), read_records(path), batch_size=2, max_chars=400), tmp_path / "l.jsonl")
    on_ray = ray_anonymize_records(read_records(path), loader, num_workers=2, batch_size=2, max_chars=400, window=8)
    assert _write(on_ray, tmp_path / "r.jsonl") == local
    records = [json.loads(line) for line in local.decode().splitlines()]
    assert [r["id"] for r in records] == ["d0", "d1", "boom", "d3", "line5", "d4", "d1", "long", "d5", "d6", "d7", "d8"]
    assert [r["id"] for r in records if "error" in r] == ["boom", "line5", "d1", "long"]
    assert not [r for r in records if "error" in r and (SECRET in r["error"] or "BOOM" in r["error"])]


def test_killed_worker_retries_its_batch_and_loses_no_record(ray_local, caplog):
    flag = Path(os.environ[ray_pipelines.KILL_FLAG_ENV])
    flag.touch()
    texts = [f"record {i}" + (" KILL" if i == 5 else "") for i in range(10)]
    items = [_record(i, t) for i, t in enumerate(texts)]
    out = list(ray_anonymize_records(items, ray_pipelines.loader(*PIPES), num_workers=2, batch_size=2))
    assert not flag.exists()  # the worker that met "KILL" was killed
    assert [r["id"] for r in out] == [f"r{i}" for i in range(10)]
    assert not [r for r in out if "error" in r]
    assert out[5]["anonymized_text"] == "record # KILL"
    assert "one at a time" not in caplog.text  # Ray retried the batch: no fallback needed


def test_document_that_kills_every_worker_becomes_the_only_error_record(ray_local):
    texts = [f"record {i}" + (" POISON" if i == 3 else "") for i in range(6)]
    items = [_record(i, t) for i, t in enumerate(texts)]
    out = list(ray_anonymize_records(items, ray_pipelines.loader(*PIPES), num_workers=2, batch_size=2, max_retries=0))
    assert [r["id"] for r in out] == [f"r{i}" for i in range(6)]
    assert [r["id"] for r in out if "error" in r] == ["r3"]
    assert "worker process died" in out[3]["error"] and "line 4" in out[3]["error"]


def test_the_one_at_a_time_fallback_starts_while_every_cpu_is_still_held(ray_local):
    # a full test run hung: after the window failed, Ray still counted its pool actors as holding both CPUs, and the
    # fallback's actor waited for one forever. Two actors hold both CPUs here while the fallback runs
    from textanon.run.scale.ray_engine import _run_alone

    @ray.remote(num_cpus=1)
    class Holder:
        def ready(self):
            return True

    holders = [Holder.remote() for _ in range(2)]
    ray.get([h.ready.remote() for h in holders], timeout=120)
    try:
        items = [(i, _record(i, f"record {i}" + (" POISON" if i == 1 else ""))) for i in range(3)]
        results = _run_alone(items, ray_pipelines.loader(*PIPES), {}, RuntimeError("window failed"))
    finally:
        for holder in holders:
            ray.kill(holder)
    records = {i: json.loads(line) for i, line in results.items()}
    assert [records[i]["id"] for i in range(3)] == ["r0", "r1", "r2"]
    assert "worker process died" in records[1]["error"] and "error" not in records[0]


def test_cli_engine_ray_on_an_existing_cluster_writes_what_the_local_engine_writes(ray_local, tmp_path):
    """``anonymize --engine ray --address`` in another process (a second driver of this module's Ray) writes the
    file that ``--engine local`` writes, in JSONL and in Parquet."""
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_entity_recognizer", config={"use_ner": False})
    nlp.add_pipe("textanon_entity_linker")
    nlp.add_pipe("textanon_optimizer")
    nlp.to_disk(tmp_path / "model")
    lines = [json.dumps({"id": "a", "text": "Mr Ion Rusu (no. 12345/06) lives in Balti.", "target": "Ion Rusu"}), "{"]
    path = _jsonl(tmp_path / "in.jsonl", lines)
    local = tmp_path / "local.jsonl"
    result = invoke("anonymize", path, "--output", local, "--model", tmp_path / "model")
    assert result.exit_code == 0, result.output
    address = ray.get_runtime_context().gcs_address
    options = ["--model", tmp_path / "model", "--engine", "ray", "--address", address, "--num-workers", 1]
    on_ray = tmp_path / "ray.parquet"
    result = run_textanon("-q", "anonymize", path, "--output", on_ray, *options, offline=False)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = pq.read_table(on_ray).to_pylist()
    assert "\n".join(r["record"] for r in rows) + "\n" == local.read_text(encoding="utf-8")
    assert [r["id"] for r in rows] == ["a", "line2"] and "Rusu" not in rows[0]["anonymized_text"]
    assert PipelineSpec(str(tmp_path / "model")).load().pipe_names == nlp.pipe_names


def test_ray_logs_hold_no_record_text(ray_local):
    """Runs last: nothing the Ray cluster logged during this module quotes a document (nor an exception message
    that does)."""
    logs = [p for p in (ray_local / "ray").rglob("logs/**/*") if p.is_file()]
    assert logs
    for log in logs:
        text = log.read_bytes().decode("utf-8", errors="replace")
        assert SECRET not in text and "secret text must not appear" not in text, log.name


def _record(i, text):
    from textanon.io.datasets.records import Record

    return Record(id=f"r{i}", text=text, source="in.jsonl", line=i + 1)
