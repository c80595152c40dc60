import json

import pytest

from textanon.io.datasets.records import Record, RecordError, read_records


def test_jsonl_bad_lines_become_error_records(tmp_path):
    path = tmp_path / "in.jsonl"
    lines = [
        json.dumps({"id": "a", "text": "Mr Ion Rusu lives in Balti.", "target": "Ion Rusu"}).encode(),
        b'{"id": "b", "text": "unterminated',
        json.dumps({"id": "c", "txt": "no text field"}).encode(),
        b"",
        json.dumps({"id": "d", "text": "caf\u00e9"}).encode()[:-6] + b'\xff\xfe"}',
        json.dumps({"id": "e", "text": ""}).encode(),
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    items = list(read_records(path))
    assert [type(i).__name__ for i in items] == ["Record", "RecordError", "RecordError", "RecordError", "Record"]
    assert (items[0].id, items[0].text, items[0].target) == ("a", "Mr Ion Rusu lives in Balti.", "Ion Rusu")
    assert isinstance(items[0], Record)
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


def test_bom_does_not_turn_the_first_record_into_an_error(tmp_path):
    rows = [{"id": "a", "text": "caf\u00e9 one"}, {"id": "b", "text": "two"}]
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_bytes(b"\xef\xbb\xbf" + "\n".join(json.dumps(r) for r in rows).encode("utf-8"))
    as_json = tmp_path / "in.json"
    as_json.write_bytes(b"\xef\xbb\xbf" + json.dumps(rows).encode("utf-8"))
    txt = tmp_path / "doc.txt"
    txt.write_bytes(b"\xef\xbb\xbfHello")
    for path in (jsonl, as_json):
        items = list(read_records(path))
        assert [type(i).__name__ for i in items] == ["Record", "Record"], items
        assert [i.text for i in items] == ["caf\u00e9 one", "two"]
    (doc,) = read_records(txt)
    assert isinstance(doc, Record) and doc.text == "Hello"


def test_null_id_is_treated_like_a_missing_id(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text(
        "\n".join(json.dumps(r) for r in [{"id": None, "text": "x"}, {"text": "y"}, {"id": 7, "text": "z"}])
    )
    assert [i.id for i in read_records(path)] == ["line1", "line2", "7"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": None}))
    (err,) = read_records(bad)
    assert isinstance(err, RecordError) and err.id == "line1"


def test_duplicate_id_becomes_an_error_record_naming_both_lines(tmp_path):
    path = tmp_path / "in.jsonl"
    rows = [{"id": "a", "text": "one"}, {"id": "b", "text": "two"}, {"id": "a", "text": "three"}]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    items = list(read_records(path))
    assert [type(i).__name__ for i in items] == ["Record", "Record", "RecordError"]
    assert items[2].id == "a" and items[2].line == 3
    assert "duplicate id 'a'" in items[2].error and "line 1" in items[2].error and "line 3" in items[2].error


def test_folder_of_txt_files_gives_one_record_per_file_in_name_order(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "b.txt").write_text("Second document.", encoding="utf-8")
    (folder / "a.txt").write_bytes(b"\xef\xbb\xbfFirst document.")
    (folder / "c.txt").write_bytes(b"bad \xc3\x28 bytes")
    (folder / "notes.md").write_text("not a record", encoding="utf-8")
    (folder / "sub").mkdir()
    (folder / "sub" / "d.txt").write_text("in a subfolder", encoding="utf-8")
    items = list(read_records(folder))
    assert [i.id for i in items] == ["a", "b", "c"]
    assert items[0].text == "First document." and items[1].text == "Second document."
    assert isinstance(items[2], RecordError) and "invalid UTF-8" in items[2].error


def test_parquet_rows_are_records_with_the_json_rules(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "in.parquet"
    rows = {
        "id": ["a", None, "c", "a"],
        "text": ["Mr Ion Rusu lives in Balti.", "no id", None, "again a"],
        "target": ["Ion Rusu", None, None, None],
        "court": ["ECHR", "ECHR", "ECHR", "ECHR"],
    }
    pq.write_table(pa.table(rows), path, row_group_size=2)
    items = list(read_records(path))
    assert [(type(i).__name__, i.id) for i in items] == [
        ("Record", "a"),
        ("Record", "row1"),
        ("RecordError", "row2"),  # as in a .json list: the default id, the error names "c"
        ("RecordError", "a"),
    ]
    assert (items[0].target, items[0].meta, items[0].source) == ("Ion Rusu", {"court": "ECHR"}, f"{path} row 0")
    assert "(id c): 'text' must be a string" in items[2].error and "duplicate id 'a'" in items[3].error


def test_unreadable_parquet_file_is_one_error_record(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"not parquet at all")
    (item,) = read_records(path)
    assert isinstance(item, RecordError) and item.id == "broken" and "cannot read Parquet" in item.error
