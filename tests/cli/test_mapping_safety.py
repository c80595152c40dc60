"""The reversible mapping cannot be misapplied or forged, keys are checked, originals are written owner-only, and
no command destroys its input (issue 27, items 3 and 5)."""

import json
import os
import stat

import pytest
from cli_runner import invoke, one_line
from core_fixtures import decision_pipeline

from textanon.render.mapping import Mapping, MappingError, read_key
from textanon.render.operators.base import OperatorError
from textanon.render.operators.keys import user_key

KEY = "correct horse battery staple"
TEXT_A = "Mr Ion Rusu (no. 12345/06) lives in Balti."
TEXT_B = "Mr Dan Popa (no. 54321/07) lives in Cahul."  # anonymized exactly as TEXT_A: '*** (no. ***) lives in ***.'


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    path = tmp_path_factory.mktemp("pipeline") / "p"
    decision_pipeline().to_disk(path)
    return path


@pytest.fixture(autouse=True)
def no_key_in_environment(monkeypatch):
    monkeypatch.delenv("TEXTANON_MAPPING_KEY", raising=False)


@pytest.fixture
def key(tmp_path):
    path = tmp_path / "mapping.key"
    assert invoke("mapping-key", "-o", path).exit_code == 0
    return path


def jsonl(path, *records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def anonymize(pipeline, *args):
    result = invoke("-q", "anonymize", *args, "--model", pipeline, "--replacement", "suppression")
    assert result.exit_code == 0, result.output
    return result


def two_runs(pipeline, tmp_path, key):
    """Run A then run B (--mapping-in A's mapping); both inputs have no ids, so both documents are 'line1'."""
    anonymize(pipeline, jsonl(tmp_path / "a.jsonl", {"text": TEXT_A}), "-o", tmp_path / "a.out",
              "--mapping-out", tmp_path / "a.map", "--key-file", key)  # fmt: skip
    anonymize(pipeline, jsonl(tmp_path / "b.jsonl", {"text": TEXT_B}), "-o", tmp_path / "b.out",
              "--mapping-in", tmp_path / "a.map", "--mapping-out", tmp_path / "b.map", "--key-file", key)  # fmt: skip
    return tmp_path / "a.out", tmp_path / "b.out", tmp_path / "b.map"


def test_each_entry_is_bound_to_its_run_and_mapping_in_keeps_both(pipeline, tmp_path, key):
    a_out, b_out, b_map = two_runs(pipeline, tmp_path, key)
    a, b = lines(a_out)[0], lines(b_out)[0]
    assert a["anonymized_text"] == b["anonymized_text"] and a["id"] == b["id"] == "line1"
    assert a["run"] != b["run"]  # each output record names its run
    documents = Mapping.read(b_map, read_key(key)).documents
    assert set(documents) == {(a["run"], "line1"), (b["run"], "line1")}  # the earlier entry is kept, not replaced
    for out, text in ((a_out, TEXT_A), (b_out, TEXT_B)):  # each record gets its own person's text back
        restored = tmp_path / "restored.jsonl"
        result = invoke("-q", "deanonymize", out, "--mapping", b_map, "--key-file", key, "-o", restored)
        assert result.exit_code == 0, result.output
        assert lines(restored) == [{"id": "line1", "text": text}]


def test_a_record_from_another_run_or_a_changed_text_is_refused(pipeline, tmp_path, key):
    a_out, b_out, b_map = two_runs(pipeline, tmp_path, key)
    a = lines(a_out)[0]
    restored = tmp_path / "restored.jsonl"
    # run A's mapping does not hold run B's record, although the id and the anonymized text are the same
    result = invoke("deanonymize", b_out, "--mapping", tmp_path / "a.map", "--key-file", key, "-o", restored)
    assert result.exit_code == 1 and "line 1, id line1" in one_line(result.output)
    assert "another run" in one_line(result.output) and TEXT_A not in restored.read_text()
    assert lines(restored) == [{"id": "line1", "error": lines(restored)[0]["error"], "line": 1}]
    # a changed text (same shape: the old code put the originals back into it)
    changed = jsonl(tmp_path / "changed.jsonl", dict(a, anonymized_text=a["anonymized_text"].replace("lives", "lived")))
    result = invoke("deanonymize", changed, "--mapping", b_map, "--key-file", key, "-o", restored)
    assert result.exit_code == 1 and "SHA-256 differs" in one_line(result.output)
    assert "error" in lines(restored)[0] and "Rusu" not in restored.read_text()
    # without its run, a record that fits two runs' entries with different originals is ambiguous: refused
    no_run = jsonl(tmp_path / "no_run.jsonl", {"id": "line1", "text": a["anonymized_text"]})
    result = invoke("deanonymize", no_run, "--mapping", b_map, "--key-file", key, "-o", restored)
    assert result.exit_code == 1 and "several runs" in one_line(result.output)
    # with only one run's entry, such a record is restored (its fingerprint matches)
    result = invoke("deanonymize", no_run, "--mapping", tmp_path / "a.map", "--key-file", key, "-o", restored)
    assert result.exit_code == 0 and lines(restored) == [{"id": "line1", "text": TEXT_A}]


def test_an_error_record_never_drops_a_valid_document_from_the_mapping(pipeline, tmp_path, key):
    source = jsonl(tmp_path / "in.jsonl", {"id": "x"}, {"id": "x", "text": TEXT_A})  # no text, then a valid one
    anonymize(pipeline, source, "-o", tmp_path / "out", "--mapping-out", tmp_path / "m", "--key-file", key)
    out = lines(tmp_path / "out")
    assert "error" in out[0] and "anonymized_text" in out[1]
    assert [doc_id for _, doc_id in Mapping.read(tmp_path / "m", read_key(key)).documents] == ["x"]
    result = invoke("deanonymize", tmp_path / "out", "--mapping", tmp_path / "m", "--key-file", key,
                    "-o", tmp_path / "restored")  # fmt: skip
    assert result.exit_code == 0, result.output  # an input error record is no refusal
    assert lines(tmp_path / "restored")[1] == {"id": "x", "text": TEXT_A}


def test_a_plain_text_mapping_needs_the_flag_and_is_refused_with_a_key(pipeline, tmp_path, key):
    source = jsonl(tmp_path / "in.jsonl", {"id": "a", "text": TEXT_A})
    anonymize(
        pipeline, source, "-o", tmp_path / "out", "--mapping-out", tmp_path / "plain.json", "--mapping-unencrypted"
    )
    restored = tmp_path / "restored"
    common = ["deanonymize", tmp_path / "out", "--mapping", tmp_path / "plain.json", "-o", restored]
    result = invoke(*common, "--key-file", key)  # a key given: a plain mapping could be forged
    assert result.exit_code == 1 and "not encrypted although a key was given" in one_line(result.output)
    assert not restored.exists()
    result = invoke(*common)  # no key, no flag
    assert result.exit_code == 1 and "--mapping-unencrypted" in one_line(result.output) and not restored.exists()
    result = invoke(*common, "--mapping-unencrypted", "--key-file", key)
    assert result.exit_code == 2 and not restored.exists()
    result = invoke(*common, "--mapping-unencrypted")
    assert result.exit_code == 0 and lines(restored) == [{"id": "a", "text": TEXT_A}]
    # --mapping-in: a plain mapping is refused with a key, and --mapping-unencrypted with a key is refused
    result = invoke("anonymize", source, "-o", tmp_path / "o2", "--model", pipeline, "--key-file", key,
                    "--mapping-in", tmp_path / "plain.json", "--mapping-out", tmp_path / "m2")  # fmt: skip
    assert result.exit_code == 1 and "not encrypted" in one_line(result.output) and not (tmp_path / "o2").exists()
    result = invoke("anonymize", source, "-o", tmp_path / "o2", "--model", pipeline, "--key-file", key,
                    "--mapping-out", tmp_path / "m2", "--mapping-unencrypted")  # fmt: skip
    assert result.exit_code == 2 and not (tmp_path / "o2").exists()


def test_a_forged_pseudonym_table_that_keeps_the_originals_is_refused(tmp_path):
    forged = {"version": 2, "documents": [], "pseudonyms": {"text": {"ion rusu": "Ion Rusu"}}}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    with pytest.raises(MappingError, match="maps an original to itself"):
        Mapping.read(path, None, unencrypted=True)
    with pytest.raises(MappingError, match="not encrypted although a key was given"):
        Mapping.read(path, KEY)
    path.write_text(json.dumps({"version": 1, "documents": {"a": []}}), encoding="utf-8")
    with pytest.raises(MappingError, match="earlier textanon"):
        Mapping.read(path, None, unencrypted=True)


@pytest.mark.parametrize(
    "content, message",
    [(b"", "is empty"), (b"\n\n", "is empty"), (b"\xff\xfe\x00\x81binary", "not text"), (b"short pw\n", "too short")],
)
def test_weak_key_material_is_a_clear_error(pipeline, tmp_path, content, message):
    bad = tmp_path / "bad.key"
    bad.write_bytes(content)
    bad.chmod(0o600)
    source = jsonl(tmp_path / "in.jsonl", {"id": "a", "text": TEXT_A})
    for args in (
        ["anonymize", source, "-o", tmp_path / "o", "--model", pipeline, "--mapping-out", tmp_path / "m"],
        ["anonymize", source, "-o", tmp_path / "o", "--model", pipeline, "--operator", "PERSON=encrypt"],
        ["demo", tmp_path / "in.jsonl", "--model", pipeline, "--operator", "PERSON=hash"],
    ):
        result = invoke(*args, "--key-file", bad)
        assert result.exit_code in (1, 2) and message in one_line(result.output), (args, result.output)
        assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
        assert not (tmp_path / "o").exists() and not (tmp_path / "m").exists()
    if message != "too short":  # reading a mapping with a short key is allowed (it was written with that key)
        result = invoke("deanonymize", tmp_path / "in.jsonl", "--key-file", bad, "-o", tmp_path / "r")
        assert result.exit_code == 2 and message in one_line(result.output) and not (tmp_path / "r").exists()
    with pytest.raises(OperatorError, match=message):
        user_key(bad)


def test_a_key_file_others_can_read_gets_a_warning(pipeline, tmp_path, key):
    key.chmod(0o644)
    source = jsonl(tmp_path / "in.jsonl", {"id": "a", "text": TEXT_A})
    result = invoke("-q", "anonymize", source, "-o", tmp_path / "o", "--model", pipeline, "--key-file", key,
                    "--mapping-out", tmp_path / "m")  # fmt: skip
    assert result.exit_code == 0 and "readable by other users" in one_line(result.output)
    key.chmod(0o600)
    result = invoke("-q", "anonymize", source, "-o", tmp_path / "o", "--model", pipeline, "--key-file", key,
                    "--mapping-out", tmp_path / "m")  # fmt: skip
    assert result.exit_code == 0 and "readable by other users" not in result.output


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_files_that_hold_originals_are_created_owner_only(pipeline, tmp_path, key):
    source = jsonl(tmp_path / "in.jsonl", {"id": "a", "text": TEXT_A})
    old = os.umask(0o022)
    try:
        anonymize(pipeline, source, "-o", tmp_path / "out", "--mapping-out", tmp_path / "m", "--key-file", key,
                  "--html", tmp_path / "report")  # fmt: skip
        restored = tmp_path / "restored"
        restored.write_text("old\n")
        restored.chmod(0o644)  # an existing file is made private before anything is written
        result = invoke("-q", "deanonymize", tmp_path / "out", "--mapping", tmp_path / "m", "--key-file", key,
                        "-o", restored)  # fmt: skip
        assert result.exit_code == 0, result.output
        assert invoke("-q", "report", tmp_path / "out", "-o", tmp_path / "r2", "--input", source).exit_code == 0
        (tmp_path / "in.txt").write_text(TEXT_A)
        assert invoke("demo", tmp_path / "in.txt", "--model", pipeline, "--html", tmp_path / "r3").exit_code == 0
        assert mode(tmp_path / "m") == 0o600
        assert mode(restored) == 0o600 and "Rusu" in restored.read_text()
        assert mode(key) == 0o600
        for folder in ("report", "r2", "r3"):
            assert mode(tmp_path / folder) == 0o700
            pages = list((tmp_path / folder).glob("*.html"))
            assert pages and all(mode(p) == 0o600 for p in pages), folder
        (tmp_path / "plain").touch()
        assert mode(tmp_path / "plain") == 0o644  # the umask is given back
    finally:
        os.umask(old)


def test_no_overlap_between_inputs_and_outputs_links_resolved(pipeline, tmp_path, key):
    source = jsonl(tmp_path / "in.jsonl", {"id": "a", "text": TEXT_A})
    before = source.read_bytes()
    (tmp_path / "link").symlink_to(source)
    os.link(source, tmp_path / "hard")
    out = tmp_path / "out"
    cases = [
        ["anonymize", source, "-o", tmp_path / "link"],
        ["anonymize", source, "-o", tmp_path / "hard"],
        ["anonymize", source, "-o", out, "--mapping-out", tmp_path / "link"],
        ["anonymize", source, "-o", out, "--masks-out", tmp_path / "hard"],
        ["anonymize", source, "-o", out, "--html", tmp_path],  # a report folder holding the input
        ["anonymize", source, "-o", out, "--mapping-out", key, "--key-file", key],
        ["demo", source, "--html", tmp_path],
        ["report", source, "-o", tmp_path],
        ["deanonymize", source, "-o", tmp_path / "hard", "--key-file", key],
        ["deanonymize", source, "-o", key, "--key-file", key],
    ]
    key_before = key.read_bytes()
    for args in cases:
        result = invoke(*args, "--model", pipeline) if args[0] in ("anonymize", "demo") else invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "overwritten" in one_line(result.output) or "inside" in one_line(result.output), result.output
    assert source.read_bytes() == before and key.read_bytes() == key_before and not out.exists()
    anonymize(pipeline, source, "-o", out, "--mapping-out", tmp_path / "m", "--key-file", key)
    result = invoke("deanonymize", out, "-o", out, "--mapping", tmp_path / "m", "--key-file", key)
    assert result.exit_code == 2 and lines(out)[0]["anonymized_text"]  # `deanonymize Y -o Y` no longer empties Y
    result = invoke("anonymize", source, "-o", out, "--mapping-out", out, "--model", pipeline)
    assert result.exit_code == 2 and lines(out)[0]["anonymized_text"]
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT_A)
    result = invoke("anonymize", folder, "-o", folder / "out.txt", "--model", pipeline)  # it would be read back
    assert result.exit_code == 2 and "inside the input folder" in one_line(result.output)


def test_mapping_key_never_overwrites_even_through_a_dangling_link(tmp_path):
    target = tmp_path / "elsewhere.key"
    (tmp_path / "dangling").symlink_to(target)
    result = invoke("mapping-key", "-o", tmp_path / "dangling")
    assert result.exit_code == 1 and "never overwritten" in result.output and not target.exists()
    assert invoke("mapping-key", "-o", tmp_path / "k").exit_code == 0
    before = (tmp_path / "k").read_bytes()
    assert invoke("mapping-key", "-o", tmp_path / "k").exit_code == 1 and (tmp_path / "k").read_bytes() == before
    result = invoke("mapping-key", "-o", tmp_path / "missing" / "k")
    assert result.exit_code == 1 and "Cannot create" in result.output


def test_an_html_documents_mapping_restores_the_page_as_written(pipeline, tmp_path, key):
    """HTML input (session 73): the record's masks are the edits written into the page, escaped and around its tags,
    so its mapping restores the page byte for byte."""
    page = tmp_path / "page.html"
    page.write_text('<p>Mr <b>Ion</b> Rusu (no. 12345/06) lives in <i title="Balti">Balti</i> &amp; Orhei.</p>')
    out, mapping, restored = tmp_path / "page.out", tmp_path / "page.map", tmp_path / "page.restored"
    anonymize(pipeline, page, "-o", out, "--mapping-out", mapping, "--key-file", key)
    written = lines(out)[0]["anonymized_text"]
    assert "Rusu" not in written and "12345" not in written and "Balti" not in written
    assert written.startswith("<p>") and "<b>" in written and '<i title="' in written and written.endswith("</p>")
    result = invoke("-q", "deanonymize", out, "--mapping", mapping, "--key-file", key, "-o", restored)
    assert result.exit_code == 0, result.output
    assert lines(restored)[0]["text"] == page.read_text()
