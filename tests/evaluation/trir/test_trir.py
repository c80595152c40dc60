"""TRIR re-identification attack: windows, input handling and a tiny end-to-end attack (CPU, < 1 min)."""

import json
from pathlib import Path

import pytest
from cli_runner import invoke
from core_fixtures import FIXTURES
from input_files import write_json

from textanon_eval.trir import TrirError, TrirInputs, load_anonymized, load_background, load_wikiactors
from textanon_eval.trir.data import apply_offsets, remove_marks
from textanon_eval.trir.model import windows

FIXTURE = FIXTURES / "trir_small.json"


def test_windows_cover_the_sequence_with_overlap():
    ids = list(range(10, 40))
    out = windows(ids, length=10, overlap=3, cls=1, sep=2)
    assert all(w[0] == 1 and w[-1] == 2 and len(w) <= 10 for w in out)
    bodies = [w[1:-1] for w in out]
    assert bodies[0][-3:] == bodies[1][:3]
    assert sorted({t for b in bodies for t in b}) == ids
    assert windows([], 10, 3, 1, 2) == [[1, 2]]
    with pytest.raises(ValueError):
        windows(ids, length=5, overlap=3, cls=1, sep=2)


def test_offsets_and_mask_marks():
    assert apply_offsets("Anna lives in Oslo.", [[0, 4], [14, 18]]) == "SENSITIVE lives in SENSITIVE."
    assert apply_offsets("abcdef", [[0, 3], [2, 5]]) == "SENSITIVEf"
    with pytest.raises(TrirError):
        apply_offsets("abc", [[2, 9]])
    text = remove_marks("PERSON met [ORG_2] in GPE on *** and a person said SENSITIVE WORK OF ART")
    assert "PERSON" not in text and "ORG" not in text and "GPE" not in text and "***" not in text
    assert "person" in text and "SENSITIVE" not in text and "WORK" not in text


def test_input_validation(tmp_path):
    inputs = load_wikiactors(FIXTURE)
    assert len(inputs.background) == 5 and set(inputs.anonymized) == {"original", "suppressed"}
    assert len(inputs.dev) == 3
    one = TrirInputs({"A": "text"}, {"m": {"A": "x"}})
    with pytest.raises(TrirError, match="at least 2"):
        one.validate()
    with pytest.raises(TrirError, match="no non-empty"):
        TrirInputs({"A": "a", "B": "b"}, {"m": {}}).validate()
    dup = tmp_path / "dup.json"
    dup.write_text('[{"name": "A", "public_knowledge": "x"}, {"name": "A", "public_knowledge": "y"}]')
    with pytest.raises(TrirError, match="duplicate individual 'A'"):
        load_wikiactors(dup)
    dup_keys = tmp_path / "bk.json"
    dup_keys.write_text('{"A": "x", "A": "y"}')
    with pytest.raises(TrirError, match="duplicate key 'A'"):
        load_background(dup_keys)
    offsets = tmp_path / "off.json"
    offsets.write_text(json.dumps({"A": [[0, 2]]}))
    with pytest.raises(TrirError, match="--originals"):
        load_anonymized(offsets)
    docs, empty = load_anonymized(offsets, {"A": "Ann is here"})
    assert docs == {"A": "SENSITIVEn is here"} and empty == []
    ok = TrirInputs({"A": "a", "B": "b"}, {"m": {"A": "x", "Z": "y"}}, empty={"m": ["B"]})
    ok.validate()
    assert any("absent from the background" in w for w in ok.warnings)
    assert any("empty" in w for w in ok.warnings)


def test_cli_errors(tmp_path):
    bk = write_json(tmp_path / "bk.json", {"Only One": "Some background text about a single person."})
    anon = write_json(tmp_path / "anon.json", {"Only One": "A text."})
    out = tmp_path / "o.json"
    res = invoke("evaluate-trir", bk, "--anonymized", f"m={anon}", "-o", out, "--cache-dir", tmp_path / "c")
    assert res.exit_code == 1 and "at least 2" in res.output
    res = invoke("evaluate-trir", bk, "-o", out)
    assert res.exit_code == 1 and "no anonymized documents" in res.output
    res = invoke("evaluate-trir", bk, "--anonymized", "broken", "-o", out)
    assert res.exit_code == 1 and "NAME=PATH" in res.output
    res = invoke("evaluate-trir", FIXTURE, "--window", "10", "--overlap", "9")
    assert res.exit_code == 1 and "--overlap" in res.output


@pytest.mark.slow
def test_tiny_attack_reidentifies_clear_text_not_suppressed_text(tmp_path):
    records = json.loads(FIXTURE.read_text())
    originals = {r["name"]: r["original_abstract"] for r in records}
    originals["Nobody Known"] = "A person absent from the background knowledge plays the violin."
    names = {n: [[0, len(n)]] if n in t else [] for n, t in originals.items()}
    offsets = write_json(tmp_path / "offsets.json", names)  # offset form: the names only, and an unknown individual
    out, cache = tmp_path / "trir.json", tmp_path / "cache"
    attack = ["--epochs", 3, "--window", 24, "--overlap", 6, "--batch-size", 8, "--lr", "1e-4", "--threads", 1]
    originals_file = write_json(tmp_path / "originals.json", originals)
    extra = ["--anonymized", f"names_masked={offsets}", "--originals", originals_file, "--quiet"]
    res = invoke("evaluate-trir", FIXTURE, "-o", out, *attack, "--cache-dir", cache, *extra)
    assert res.exit_code == 0, res.output
    result = json.loads(out.read_text())
    trir = result["trir"]
    assert trir["original"] >= 60 and trir["suppressed"] <= 40
    assert trir["original"] - trir["suppressed"] >= 40
    assert result["counts"]["names_masked"]["not_in_background"] == 1
    assert result["not_in_background"] == ["Nobody Known"]
    assert result["upper_bound"] == pytest.approx(100 * 5 / 6, abs=0.01)
    assert result["settings"]["epochs_run"] >= 1 and result["settings"]["model"]
    assert set(result["timings_s"]) >= {"pretreatment", "finetuning", "prediction", "total"}
    assert result["peak_rss_mb"] > 0
    # second run: every stage comes from the cache
    res = invoke("evaluate-trir", FIXTURE, "-o", out, "--methods", "original", *attack, "--cache-dir", cache, "-q")
    assert res.exit_code == 0, res.output
    again = json.loads(out.read_text())
    assert again["cached"]["finetuning"] and again["cached"]["pretreatment"]
    assert again["trir"]["original"] == trir["original"]
    assert (Path(again["settings"]["finetuned_dir"]) / "epochs.csv").exists()


@pytest.mark.slow
def test_training_resumes_from_the_last_epoch(tmp_path):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from textanon.risk.language_models.loading import minilm_path
    from textanon_eval.trir.model import TrainConfig, WindowSet, train

    torch.set_num_threads(1)
    tok = AutoTokenizer.from_pretrained(str(minilm_path()))
    data = WindowSet.build(tok, ["violin bach concert", "ice sled glacier"], [0, 1], 8, 2)
    folder = tmp_path / "ft"

    def model():
        torch.manual_seed(0)
        return AutoModelForSequenceClassification.from_pretrained(str(minilm_path()), num_labels=2)

    first = train(
        model(), data, TrainConfig(epochs=1, batch_size=2), folder, tok.pad_token_id, "cpu", dev=data, progress=False
    )
    assert len(first) == 1 and (folder / "last.pt").exists()
    (folder / "done").unlink()  # as if interrupted after epoch 1 of 2
    history = train(
        model(), data, TrainConfig(epochs=2, batch_size=2), folder, tok.pad_token_id, "cpu", dev=data, progress=False
    )
    assert [r["epoch"] for r in history] == [1, 2]
    assert len((folder / "epochs.csv").read_text().splitlines()) == 3


def test_pretreatment_curation_and_bd_prime():
    from textanon_eval.trir.data import load_nlp, pretreat

    nlp = load_nlp()
    texts = {"A": "Marta Quillon was born in Lisbon and she studied the violins. PERSON met SENSITIVE."}
    curated, prime = pretreat(nlp, texts, keep_marks=False, with_bd_prime=True, progress=False)
    assert "violin" in curated["A"] and "the" not in curated["A"].split() and "Lisbon" in curated["A"]
    assert "PERSON" not in curated["A"] and "SENSITIVE" not in curated["A"]
    assert "Lisbon" not in prime["A"] and "Quillon" not in prime["A"] and "GPE" not in prime["A"]
    _, typed = pretreat(nlp, texts, keep_marks=True, with_bd_prime=True, progress=False)
    assert "GPE" in typed["A"] and "Lisbon" not in typed["A"]
    from textanon_eval.trir.attack import _ner_only

    raw = _ner_only(nlp, {"A": "Marta Quillon was born in Lisbon."}, keep_marks=True)
    assert "GPE" in raw["A"] and "Lisbon" not in raw["A"] and "born" in raw["A"]


def test_combine_seeds_mean_sd_and_per_seed_values():
    from textanon_eval.cli.evaluate_trir import combine_seeds

    def run(values, warning):
        return {"trir": values, "settings": {"seed": None}, "timings_s": {"total": 1.0}, "warnings": [warning]}

    runs = {
        42: run({"original": 90.0, "manual": 20.0}, "w1"),
        1: run({"original": 94.0, "manual": 22.0}, "w1"),
        2: run({"original": 98.0, "manual": 24.0}, "w2"),
    }
    out = combine_seeds(runs)
    assert out["trir"] == {"original": 94.0, "manual": 22.0}
    assert out["trir_sd"] == {"original": 4.0, "manual": 2.0}
    assert out["trir_by_seed"]["1"] == {"original": 94.0, "manual": 22.0}
    assert out["settings"]["seed"] == [42, 1, 2] and out["warnings"] == ["w1", "w2"]
    single = combine_seeds({42: runs[42]})
    assert single["trir"] == {"original": 90.0, "manual": 20.0} and "trir_sd" not in single


def test_cli_bad_seeds(tmp_path):
    res = invoke("evaluate-trir", FIXTURE, "-o", tmp_path / "t.json", "--seeds", "42,x")
    assert res.exit_code == 2 and "--seeds" in res.output  # a usage error


def test_cli_options_become_attack_and_run_settings(tmp_path, monkeypatch):
    from textanon_eval.cli import evaluate_trir as command
    from textanon_eval.trir.evaluate import TrirRunSettings

    seen = {}

    def fake_run(data, output, settings, run, progress=True):
        seen.update(data=data, output=output, settings=settings, run=run, progress=progress)
        return {"trir": {"original": 90.0}, "warnings": ["w"], "upper_bound": 100.0, "settings": {"model": "m"}}

    monkeypatch.setattr(command, "run", fake_run)
    out, md = tmp_path / "t.json", tmp_path / "t.md"
    args = ["--seeds", "42,7", "--epochs", "3", "--window", "40", "--overlap", "5", "--no-bd-prime", "--no-monitor"]
    args += ["--methods", "original", "--threads", "2", "--markdown", md, "--compare-published", "-q"]
    res = invoke("evaluate-trir", FIXTURE, "-o", out, *args)
    assert res.exit_code == 0, res.output
    assert "w" in res.output and "TRIR of 1 methods" in res.output
    s, run = seen["settings"], seen["run"]
    assert (s.epochs, s.window, s.overlap, s.seed, s.device) == (3, 40, 5, 42, "auto")
    assert not s.anonymize_background and not s.monitor and s.use_dev and s.curate and not s.keep_mask_marks
    assert run == TrirRunSettings(
        seeds=(42, 7), methods="original", threads=2, markdown_out=md, compare_published=True
    ) and (seen["data"], seen["output"], seen["progress"]) == (FIXTURE, out, False)
    res = invoke("evaluate-trir", FIXTURE, "-o", out, "--seed", "5", "--no-dev", "--no-curation", "--keep-mask-marks")
    assert res.exit_code == 0, res.output
    s = seen["settings"]
    assert seen["run"].seeds == (5,) and s.seed == 5 and not s.use_dev and not s.curate and s.keep_mask_marks
