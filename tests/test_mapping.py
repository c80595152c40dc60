"""The reversible mapping: round trip, encryption (wrong key, changed file, no key), deanonymize, the CLI."""

import json
import os

import pytest
from cli_runner import one_line, run_textanon
from core_fixtures import decision_pipeline
from input_files import write_jsonl

import textanon  # noqa: F401  (extensions)
from textanon.render.mapping import Mapping, MappingError, deanonymize_records, document_entries, restore
from textanon.render.output import doc_to_record

TEXTS = {
    "a": "The applicant, Mr Galip Yalman (no. 12345/06), was born on 3 May 1961. Yalman paid EUR 1,300.",
    "b": "Mr Galip Yalman wrote to Ms Hope Lungu on 6 March 2006. Lungu replied; G. Yalman appealed.",
}
KEY = "correct horse battery staple"


def _nlp(replacement="pseudonym"):
    return decision_pipeline(replacement=replacement)


def _records(nlp):
    return {i: doc_to_record(nlp(t), i) for i, t in TEXTS.items()}


@pytest.mark.parametrize("style", ["suppression", "label", "numbered", "pseudonym"])
def test_entries_restore_the_original(style):
    for doc_id, record in _records(_nlp(style)).items():
        entries = document_entries(TEXTS[doc_id], record["masks"])
        assert entries and restore(record["anonymized_text"], entries) == TEXTS[doc_id]
        for e in entries:
            assert record["anonymized_text"][e["anon_start"] : e["anon_end"]] == e["replacement"]
            assert TEXTS[doc_id][e["start"] : e["end"]] == e["original"]


def test_encrypted_round_trip_wrong_key_changed_file_and_no_key(tmp_path):
    mapping = Mapping()
    for doc_id, record in _records(_nlp()).items():
        mapping.add(record, TEXTS[doc_id])
    path = mapping.write(tmp_path / "map.bin", KEY)
    data = path.read_bytes()
    assert b"Yalman" not in data and b"12345" not in data  # nothing readable without the key
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert Mapping.read(path, KEY).documents == mapping.documents
    with pytest.raises(MappingError, match="wrong key"):
        Mapping.read(path, KEY + "!")
    changed = bytearray(data)
    changed[-5] ^= 1
    (tmp_path / "changed.bin").write_bytes(bytes(changed))
    with pytest.raises(MappingError, match="wrong key, or the file was changed"):
        Mapping.read(tmp_path / "changed.bin", KEY)
    with pytest.raises(MappingError, match="give its key"):
        Mapping.read(path, None)
    with pytest.raises(MappingError, match="unencrypted"):
        mapping.write(tmp_path / "clear.json", None)
    with pytest.raises(MappingError, match="too short"):
        mapping.write(tmp_path / "short.bin", "abc")
    clear = mapping.write(tmp_path / "clear.json", None, encrypted=False)  # only when asked explicitly
    assert Mapping.read(clear, None, unencrypted=True).documents == mapping.documents


def test_deanonymize_records_names_what_cannot_be_restored():
    records = _records(_nlp("label"))
    mapping = Mapping()
    mapping.add(records["a"], TEXTS["a"])
    edited = dict(records["a"], anonymized_text="x" + records["a"]["anonymized_text"])
    out = list(deanonymize_records([records["a"], records["b"], edited, {"id": "e", "error": "boom"}], mapping))
    assert out[0] == {"id": "a", "text": TEXTS["a"]}
    assert out[1] == {"id": "b", "error": "no mapping for this document"}
    assert "not the one the mapping was written for" in out[2]["error"]
    assert "error record" in out[3]["error"]


def _cli(*args, env=None):
    return run_textanon(*args, offline=False, env=env)


@pytest.mark.slow
def test_anonymize_mapping_deanonymize_and_corpus_pseudonyms(tmp_path):
    nlp = _nlp("suppression")
    nlp.remove_pipe("test_every_entity_risky")  # no target given: every full person name is masked
    nlp.to_disk(tmp_path / "model")
    key = tmp_path / "key.txt"
    assert _cli("mapping-key", "--output", key).returncode == 0
    assert os.stat(key).st_mode & 0o777 == 0o600 and _cli("mapping-key", "--output", key).returncode == 1
    for doc_id, text in TEXTS.items():
        write_jsonl(tmp_path / f"{doc_id}.jsonl", [{"id": doc_id, "text": text}])
    common = ["--model", tmp_path / "model", "--replacement", "pseudonym", "--key-file", key]
    run = _cli("anonymize", tmp_path / "a.jsonl", "-o", tmp_path / "a.out", "--mapping-out", tmp_path / "m1", *common)
    assert run.returncode == 0, run.stderr
    run = _cli(
        "anonymize", tmp_path / "b.jsonl", "-o", tmp_path / "b.out", *common,
        "--mapping-in", tmp_path / "m1", "--mapping-out", tmp_path / "m2",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    a, b = (json.loads((tmp_path / f"{i}.out").read_text()) for i in "ab")
    surrogate = next(rep for s, e, rep in a["masks"] if TEXTS["a"][s:e] == "Mr Galip Yalman")
    assert surrogate in b["anonymized_text"]  # the same person, the same surrogate across the corpus
    both = tmp_path / "both.jsonl"
    both.write_text((tmp_path / "a.out").read_text() + (tmp_path / "b.out").read_text(), encoding="utf-8")
    run = _cli("deanonymize", both, "--mapping", tmp_path / "m2", "--key-file", key, "-o", tmp_path / "restored")
    assert run.returncode == 0, run.stderr
    restored = [json.loads(line) for line in (tmp_path / "restored").read_text().splitlines()]
    assert restored == [{"id": i, "text": t} for i, t in TEXTS.items()]
    (tmp_path / "wrong.txt").write_text("not the key at all\n")
    run = _cli("deanonymize", both, "--mapping", tmp_path / "m2", "--key-file", tmp_path / "wrong.txt", "-o", "x")
    assert run.returncode == 1 and "wrong key" in run.stdout + run.stderr
    out = tmp_path / "never.jsonl"
    run = _cli("anonymize", tmp_path / "a.jsonl", "-o", out, "--model", tmp_path / "model", "--mapping-out", "m3",
               env={"TEXTANON_MAPPING_KEY": ""})  # fmt: skip
    assert run.returncode == 1 and "unencrypted" in one_line(run.stdout + run.stderr)
    assert not out.exists()  # refused before any output was opened
    run = _cli("anonymize", tmp_path / "a.jsonl", "-o", out, "--model", tmp_path / "model",
               "--mapping-out", tmp_path / "clear.json", "--mapping-unencrypted")  # fmt: skip
    assert run.returncode == 0 and json.loads((tmp_path / "clear.json").read_text())["documents"][0]["id"] == "a"
