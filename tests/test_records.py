import json

from textanon.records import Record, RecordError, read_records


def test_jsonl_bad_lines_become_error_records(tmp_path):
    path = tmp_path / "in.jsonl"
    lines = [
        json.dumps({"id": "a", "text": "Mr Ion Rusu lives in Balti.", "target": "Ion Rusu"}).encode(),
        b'{"id": "b", "text": "unterminated',
        json.dumps({"id": "c", "txt": "no text field"}).encode(),
        b"",
        json.dumps({"id": "d", "text": "caf\u00e9"}).encode()[:-6] + b"\xff\xfe\"}",
        json.dumps({"id": "e", "text": ""}).encode(),
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    items = list(read_records(path))
    assert [type(i).__name__ for i in items] == ["Record", "RecordError", "RecordError", "RecordError", "Record"]
    assert items[0] == Record(id="a", text="Mr Ion Rusu lives in Balti.", target="Ion Rusu")
    assert items[1].line == 2 and "malformed JSON on line 2" in items[1].error
    assert items[2].id == "c" and "missing 'text'" in items[2].error
    assert items[3].line == 5 and "invalid UTF-8 at byte offset" in items[3].error
    assert items[4].text == ""


def test_txt_invalid_utf8_names_file_and_offset(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_bytes(b"Hello \xc3\x28 world")
    (item,) = read_records(path)
    assert isinstance(item, RecordError)
    assert str(path) in item.error and "byte offset 6" in item.error


def test_tab_json_and_id_map(tmp_path):
    tab = tmp_path / "tab.json"
    tab.write_text(json.dumps([{"doc_id": "001-1", "text": "Some text", "annotations": {}}, {"doc_id": "x"}]))
    items = list(read_records(tab))
    assert isinstance(items[0], Record) and items[0].id == "001-1"
    assert isinstance(items[1], RecordError) and "missing 'text'" in items[1].error
    mapping = tmp_path / "map.json"
    mapping.write_text(json.dumps({"k1": "text one", "k2": "text two"}))
    assert [i.id for i in read_records(mapping)] == ["k1", "k2"]
