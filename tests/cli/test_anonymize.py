"""The anonymize command: every input record yields an output or an error record."""

import json

import pytest
from cli_runner import one_line, run_textanon
from input_files import write_jsonl

pytestmark = pytest.mark.slow


def test_anonymize_jsonl_with_bad_records(tmp_path):
    rows = [
        json.dumps(
            {"id": "ok", "text": "The applicant, Mr Ion Rusu (no. 12345/06), lives in Balti.", "target": "Ion Rusu"}
        ),
        '{"id": "broken", "text": ',
        json.dumps({"id": "notext"}),
        json.dumps({"id": "empty", "text": ""}),
        json.dumps({"id": "unknown-target", "text": "Andrei Petrescu met Ion Rusu.", "target": "Nobody Here"}),
    ]
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    out, masks = tmp_path / "out.jsonl", tmp_path / "masks.json"
    options = ["--replacement", "numbered", "--n-process", 2, "--batch-size", 2]
    result = run_textanon("anonymize", path, "--output", out, "--masks-out", masks, *options)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    by_id = {r["id"]: r for r in records}
    assert set(by_id) == {"ok", "line2", "notext", "empty", "unknown-target"}
    assert "error" in by_id["line2"] and by_id["line2"]["line"] == 2
    assert "missing 'text'" in by_id["notext"]["error"]
    ok = by_id["ok"]
    assert "12345/06" not in ok["anonymized_text"] and "Rusu" not in ok["anonymized_text"]
    assert "[PERSON_1]" in ok["anonymized_text"]
    assert {"start", "end", "label", "entity_id", "ic", "masked", "source"} <= set(ok["spans"][0])
    assert by_id["empty"]["anonymized_text"] == ""
    assert any("target not found" in w for w in by_id["unknown-target"]["warnings"])
    offsets = json.loads(masks.read_text())
    assert set(offsets) == {"ok", "empty", "unknown-target"}
    text = json.loads(rows[0])["text"]
    assert all(0 <= s < e <= len(text) for s, e, _ in offsets["ok"])


def test_huge_record_bad_line_and_duplicate_id_keep_input_order(tmp_path):
    """A record over spaCy's max_length (1,000,001 characters) is anonymized; every record comes out, in order."""
    path = tmp_path / "in.jsonl"
    big = ("The court heard the appeal. " * 35715)[:1_000_001]  # no entity: no language-model pass over 1 MB
    rows = [
        json.dumps({"id": "a", "text": "Mr Ion Rusu lives in Balti.", "target": "Ion Rusu"}),
        json.dumps({"id": "big", "text": big, "target": "Ion Rusu"}),
        '{"id": "broken", ',
        json.dumps({"id": "c", "text": "Ms Ana Popa lives in Chisinau."}),
        json.dumps({"id": "a", "text": "Another Mr Ion Rusu text."}),
    ]
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(rows).encode("utf-8"))
    out, masks = tmp_path / "out.jsonl", tmp_path / "masks.json"
    result = run_textanon("anonymize", path, "--output", out, "--masks-out", masks)
    assert result.returncode == 0, result.stderr[-2000:]
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == ["a", "big", "line3", "c", "a"]
    assert ["error" in r for r in records] == [False, False, True, False, True]
    assert "duplicate id 'a'" in records[4]["error"] and "line 1" in records[4]["error"]
    assert records[1]["anonymized_text"] == big
    offsets = json.loads(masks.read_text())
    assert set(offsets) == {"a", "big", "c"} and offsets["a"] == records[0]["masks"]


def test_full_disk_is_an_error_not_a_partial_success(tmp_path):
    path = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "Mr Ion Rusu lives in Balti."}])
    result = run_textanon("anonymize", path, "--output", "/dev/full")
    assert result.returncode != 0
    assert "No space left on device" in one_line(result.stdout + result.stderr)
    assert "documents anonymized" not in result.stdout
    assert "Traceback" not in result.stderr and "I/O error after" in one_line(result.stdout)


def test_output_folder_is_checked_before_any_work(tmp_path):
    path = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "x"}])
    result = run_textanon(
        "anonymize", path, "--output", tmp_path / "missing" / "out.jsonl", "--model", tmp_path / "nope"
    )
    said = one_line(result.stdout)
    assert result.returncode == 1
    assert "does not exist" in said and "Cannot load pipeline" not in said
    result = run_textanon("anonymize", path, "--output", tmp_path, "--model", tmp_path / "nope")
    assert result.returncode == 1 and "is a directory" in one_line(result.stdout)


def test_an_html_file_is_read_as_html_and_keeps_its_tags(tmp_path):
    """A page as users save it (session 73): its tags had been read as text ("<p>" a chat speaker, a mask swallowing
    "</b", "Tromsø" inside <i> kept); read as HTML, the names go and every tag stays."""
    page = (
        "<html><body><h1>Referral</h1><p>Contact <b>Jane Q Doe</b> at "
        '<a href="mailto:jdoe@acme.io">jdoe@acme.io</a> or +44 7911 123456.</p>'
        "<p>She lives in <i>Troms&oslash;</i> with her brother <b>Lars Doe</b>.</p></body></html>"
    )
    path = tmp_path / "referral.html"
    path.write_text(page, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = run_textanon("anonymize", path, "--output", out, "--target", "Jane Q Doe")
    assert result.returncode == 0, result.stderr
    record = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    text = record["anonymized_text"]
    for gone in ("Jane", "Doe", "jdoe", "7911", "Troms"):
        assert gone not in text, gone
    for tag in (
        "<html><body><h1>Referral</h1><p>",
        "<b>",
        "</b>",
        '<a href="',
        "</a>",
        "<i>",
        "</i>",
        "</body></html>",
    ):
        assert tag in text, tag
    assert not any("markup" in w for w in record["warnings"])
    assert all(0 <= s < e <= len(page) for s, e, _ in record["masks"])
