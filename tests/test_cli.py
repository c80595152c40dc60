"""The anonymize command: every input record yields an output or an error record."""
import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def test_anonymize_jsonl_with_bad_records(tmp_path):
    path = tmp_path / "in.jsonl"
    rows = [
        json.dumps({"id": "ok", "text": "The applicant, Mr Ion Rusu (no. 12345/06), lives in Balti.", "target": "Ion Rusu"}),
        '{"id": "broken", "text": ',
        json.dumps({"id": "notext"}),
        json.dumps({"id": "empty", "text": ""}),
        json.dumps({"id": "unknown-target", "text": "Andrei Petrescu met Ion Rusu.", "target": "Nobody Here"}),
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out, masks = tmp_path / "out.jsonl", tmp_path / "masks.json"
    result = subprocess.run(
        [sys.executable, "-m", "textanon", "anonymize", str(path), "--output", str(out), "--masks-out", str(masks),
         "--replacement", "numbered"],
        capture_output=True, text=True,
    )
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
