"""output.write_output into a Parquet file (``anonymize --output x.parquet``)."""

import io
import json

import pytest

from textanon.render.output import ParquetOutput, write_output

RECORDS = [
    {"id": "a", "anonymized_text": "Mr *** lives in Balti.", "spans": [], "masks": [[3, 11, "***"]], "warnings": []},
    {"id": "line2", "error": "in.jsonl: malformed JSON on line 2", "source": "in.jsonl", "line": 2},
    {"id": "c", "anonymized_text": "caf\u00e9 ***", "spans": [], "masks": [[5, 8, "***"]], "warnings": []},
]


def test_parquet_output_holds_the_jsonl_lines_in_order_with_id_error_and_text_columns(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    jsonl = io.StringIO()
    jsonl.close = lambda: None  # keep the text readable after write_output closes it
    assert write_output(RECORDS, jsonl) == (2, 1)
    path = tmp_path / "out.parquet"
    assert write_output(RECORDS, ParquetOutput(path, rows_per_group=2)) == (2, 1)
    table = pq.read_table(path)
    assert table.column_names == ["id", "error", "anonymized_text", "record"]
    assert pq.ParquetFile(path).metadata.num_row_groups == 2
    rows = table.to_pylist()
    assert [r["record"] for r in rows] == jsonl.getvalue().splitlines()
    assert [r["id"] for r in rows] == ["a", "line2", "c"]
    assert [r["error"] is None for r in rows] == [True, False, True]
    assert rows[1]["anonymized_text"] is None and rows[2]["anonymized_text"] == "caf\u00e9 ***"
    assert json.loads(rows[0]["record"]) == RECORDS[0]
