"""render.deanonymize: one restored or error record per record of an anonymize output, in input order; refused
records counted and named, input error records not refused."""

import json

from core_fixtures import decision_pipeline

from textanon.render.deanonymize import deanonymize_file, refusal_warnings
from textanon.render.mapping import NOTHING_TO_RESTORE, Mapping
from textanon.render.output import doc_to_record

KEY = "correct horse battery staple"


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _restore(tmp_path, records, mapping=None, key=None):
    out = tmp_path / "restored.jsonl"
    with out.open("w", encoding="utf-8") as f:
        n_ok, refused = deanonymize_file(_write(tmp_path / "out.jsonl", records), f, mapping, key)
    return n_ok, refused, [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_mapping_restores_matching_records_and_refuses_the_others(tmp_path):
    mapping = Mapping()
    text = "Ion Rusu lives in Balti."
    masked = {"id": "a", "anonymized_text": "*** lives in Balti.", "masks": [[0, 8, "***"]]}
    mapping.add({**masked, "run": mapping.run}, text)
    records = [
        {**masked, "run": mapping.run},
        {"id": "e", "error": "bad line", "line": 2},
        {**masked, "run": mapping.run, "anonymized_text": "*** lives in Chisinau."},
    ]
    n_ok, refused, out = _restore(tmp_path, records, mapping)
    assert n_ok == 1 and out[0] == {"id": "a", "text": text}
    assert out[1] == {"id": "e", "error": NOTHING_TO_RESTORE, "line": 2}
    assert [r["id"] for r in refused] == ["a"] and refused[0] == out[2] and out[2]["line"] == 3


def test_without_mapping_the_encrypt_tokens_are_decrypted_with_the_key(tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTANON_MAPPING_KEY", KEY)
    text = "Mr Andrei Petrescu (application no. 48213/09) lives in Balti."
    nlp = decision_pipeline(operators={"default": {"@misc": "textanon.operators.encrypt.v1"}})
    doc = nlp.make_doc(text)
    doc._.target = "Andrei Petrescu"
    record = doc_to_record(nlp(doc), "a")
    assert "[enc:" in record["anonymized_text"]
    n_ok, refused, out = _restore(tmp_path, [record, {"id": "e", "error": "bad"}], key=KEY)
    assert (n_ok, refused) == (1, []) and out == [{"id": "a", "text": text}, {"id": "e", "error": NOTHING_TO_RESTORE}]
    n_ok, refused, out = _restore(tmp_path, [record], key="another key, long enough")
    assert n_ok == 0 and refused == out and "does not decrypt" in out[0]["error"]


def test_refusal_warnings_name_the_first_and_count_the_rest():
    refused = [{"id": "a", "error": "none", "line": 1}, {"id": "b", "error": "changed"}, {"id": "c", "error": "?"}]
    assert refusal_warnings(refused, "out.jsonl", max_named=2) == [
        "Not restored (line 1, id a): none",
        "Not restored (id b): changed",
        "... and 1 more records not restored (see out.jsonl)",
    ]
    assert refusal_warnings([], "out.jsonl") == []
