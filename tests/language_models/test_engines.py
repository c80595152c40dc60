"""Forward-pass engines (torch fp32 reference, torch int8, CTranslate2): agreement, cache key, config, fallback."""

import sys
from pathlib import Path

import numpy as np
import pytest
from spacy.util import load_config, registry

from textanon.risk.language_models import CausalLM, causal
from textanon.risk.language_models.ctranslate2_engine import conversion_key
from textanon.risk.language_models.engine import ENGINES, ScoringEngine, TorchEngine, create_engine

ROOT = Path(__file__).resolve().parents[2]
TEXT = (
    "The applicant, Mr Andrei Petrescu, was born in 1961 and lives in Balti. He worked as a veterinary surgeon "
    "until 2004, when the Chisinau Court of Appeal ordered his dismissal."
)


class _FakeModel:
    """Stands in for a loaded Hugging Face model where only its source folder matters."""

    def __init__(self, folder: Path):
        self.name_or_path = str(folder)


def test_cache_key_changes_with_source_hash_and_converter_version(tmp_path):
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"weights one")
    key = conversion_key([weights], "int8", "4.8.5")
    assert key == conversion_key([weights], "int8", "4.8.5")
    assert key != conversion_key([weights], "int8", "4.9.0")
    assert key != conversion_key([weights], "float32", "4.8.5")
    other = tmp_path / "other.safetensors"
    other.write_bytes(b"weights two")
    assert key != conversion_key([other], "int8", "4.8.5")
    weights.write_bytes(b"weights 1ne")  # same size, new content
    assert key != conversion_key([weights], "int8", "4.8.5")


def test_configs_select_the_engine():
    for name in ("textanon.cfg", "textanon_rules.cfg"):
        model = load_config(ROOT / "configs" / name)["components"]["textanon_lm_risk"]["model"]
        assert model["engine"] == "ctranslate2-int8"
    lm = registry.resolve({"m": {"@misc": "textanon.CausalLM.v1", "name": "some/model", "engine": "torch-int8"}})["m"]
    assert isinstance(lm, CausalLM) and lm.engine == "torch-int8" and lm.engine_name == "torch-int8"
    with pytest.raises(ValueError, match="unknown engine"):
        registry.resolve({"m": {"@misc": "textanon.CausalLM.v1", "name": "some/model", "engine": "onnx"}})


def test_missing_package_falls_back_to_the_reference_with_a_warning(tmp_path, monkeypatch, caplog):
    (tmp_path / "model.safetensors").write_bytes(b"weights")
    monkeypatch.setitem(sys.modules, "ctranslate2", None)  # as if ctranslate2 were not installed
    monkeypatch.setenv("TEXTANON_CACHE", str(tmp_path / "cache"))
    with caplog.at_level("WARNING"):
        engine, reason = create_engine("ctranslate2-int8", None, _FakeModel(tmp_path), 0, "cpu", str(tmp_path))
    assert isinstance(engine, TorchEngine) and engine.name == "torch-fp32"
    assert ("ImportError" in reason or "ModuleNotFoundError" in reason) and "ctranslate2-int8" in reason
    assert any("ctranslate2-int8 unavailable" in r.getMessage() for r in caplog.records)
    assert not (tmp_path / "cache" / "ctranslate2").exists() or not any((tmp_path / "cache" / "ctranslate2").iterdir())


def test_torch_int8_off_cpu_falls_back(tmp_path):
    engine, reason = create_engine("torch-int8", None, _FakeModel(tmp_path), 0, "cuda")
    assert engine.name == "torch-fp32" and "ValueError" in reason


def test_engine_not_fork_safe_is_made_again_in_another_process(monkeypatch):
    class _Engine(ScoringEngine):
        fork_safe = False

        def row_logprobs(self, rows, positions):
            return []

    made = []
    monkeypatch.setattr(causal, "create_engine", lambda *a, **k: (made.append(_Engine()) or made[-1], None))
    lm = CausalLM("some/model", engine="ctranslate2-int8")
    first = lm._engine(type("Tok", (), {"pad_token_id": 0})(), None)
    assert lm._engine(type("Tok", (), {"pad_token_id": 0})(), None) is first
    lm._engine_pid = -1  # as in a forked child
    assert lm._engine(type("Tok", (), {"pad_token_id": 0})(), None) is not first and len(made) == 2


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ctranslate2-int8", "ctranslate2-fp32", "torch-int8"])
def test_fast_engines_agree_with_the_reference_at_exactly_the_requested_positions(name):
    """Rows of different lengths with requested positions in any part of the row: each engine returns one value
    per requested position, in order. CTranslate2 with float32 weights must equal the reference up to float32
    arithmetic (measured max 3e-5 nats); the int8 engines approximate it: the rank correlation of the token
    log-probs must stay >= 0.93 for ctranslate2-int8 (token log-probs of one short text; the issue's bar of 0.95 is
    for span ICs, metrics/lm_engines.md). The int8 kernels differ by CPU: measured 0.99 on an Intel Xeon, 0.946 on
    an AMD EPYC (2026-11-25).
    torch-int8 misses the bar on echr-dev (metrics/lm_engines.md) and is only checked for shape and order here."""
    from scipy.stats import spearmanr

    from textanon.risk.language_models import smollm2

    lm = smollm2()
    tokenizer, model = lm._load()
    ids = [tokenizer.bos_token_id] + tokenizer(TEXT, add_special_tokens=False)["input_ids"]
    rows = [ids, ids[:12], ids[5:30]]
    positions = [np.arange(1, len(ids)), np.array([3, 7, 11]), np.array([1, 10, 24])]
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    reference, _ = create_engine("torch-fp32", tokenizer, model, pad)
    engine, fallback = create_engine(name, tokenizer, model, pad, "cpu", lm.name_or_path, lm.gguf_file)
    assert fallback is None and engine.name == name and name in ENGINES
    ref, got = reference.row_logprobs(rows, positions), engine.row_logprobs(rows, positions)
    assert [len(g) for g in got] == [len(p) for p in positions]
    # the same token in the same left context gives the same value in every row that holds it
    np.testing.assert_allclose(got[1], got[0][[2, 6, 10]], atol=1e-3)
    if name == "ctranslate2-fp32":
        for r, g in zip(ref, got):
            np.testing.assert_allclose(g, r, atol=1e-3)
    elif name == "ctranslate2-int8":
        assert spearmanr(ref[0], got[0]).statistic >= 0.93
        assert np.abs(ref[0] - got[0]).mean() < 0.5


def _score_in_child(lm, text, spans, queue):
    queue.put([a.tolist() for a in lm.span_token_logprobs(text, spans)])


@pytest.mark.slow
def test_a_forked_worker_scores_with_ctranslate2_after_its_parent_ran_it_on_two_threads():
    """`anonymize --n-process 2` after the parent scored a document: the worker inherits a CTranslate2 engine whose
    threads did not survive the fork. It used to hang for ever (destroying the inherited engine, or starting a new
    OpenMP thread team); the worker must score, and give what the parent gives for the same text."""
    import multiprocessing

    import torch

    from textanon.risk.language_models import smollm2

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        lm = smollm2(engine="ctranslate2-int8")
        lm.span_token_logprobs(TEXT, [(0, 20)])  # the parent's engine runs on two threads
        assert lm.engine_name == "ctranslate2-int8"
        other = "Ms Ana Popa, a lawyer from Iasi, wrote to the court on 4 July 2010."
        spans = [(0, 11), (26, 30), (58, 69)]
        queue = multiprocessing.get_context("fork").Queue()
        child = multiprocessing.get_context("fork").Process(target=_score_in_child, args=(lm, other, spans, queue))
        child.start()
        child.join(180)
        if child.exitcode is None:
            child.kill()
        assert child.exitcode == 0, "the forked worker did not finish (deadlock)"
        got = queue.get(timeout=10)
    finally:
        torch.set_num_threads(threads)
    for mine, theirs in zip(lm.span_token_logprobs(other, spans), got):
        np.testing.assert_allclose(theirs, mine, atol=0.05)
