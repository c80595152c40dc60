"""The LLM design benchmark (textanon_lab.benchmarks.llm_designs) with a canned model: metrics, table and texts."""

import json

import pytest
from fake_llms import CANNED_LLM, CANNED_TEXT
from input_files import write_json

from textanon_lab.benchmarks.llm_designs import run_bench


def test_bench_llm_writes_metrics_table_and_texts(tmp_path, monkeypatch):
    records = [
        {"name": "Ada Quint", "original_abstract": CANNED_TEXT},
        {"name": "Rob Hale", "original_abstract": "Rob Hale is a poet from Cork."},
    ]
    data = write_json(tmp_path / "actors.json", records)
    monkeypatch.chdir(tmp_path)
    summary = run_bench(data, ["tokens_zero_shot", "deidentification_one_shot"], model={"@llm_models": CANNED_LLM})
    s = summary["tokens_zero_shot"]
    assert s["docs"] == 2 and s["strings_returned_per_doc"] == 5
    assert s["hallucinated_share"] == pytest.approx(5 / 10)  # 1 of 5 in CANNED_TEXT, 4 of 5 in the poet's text
    assert (s["fallback_chunks"], s["truncated_replies"], s["unmatched_replies"], s["parse_failures"]) == (0, 0, 0, 0)
    texts = json.loads((tmp_path / "corpus/llm_anonymizations_wikiactors_50.json").read_text())
    assert set(texts) == {"tokens_zero_shot", "deidentification_one_shot"}
    assert texts["tokens_zero_shot"]["Rob Hale"] == "*** is a poet from ***."  # target masked, adjacent masks merged
    table = (tmp_path / "metrics/llm_designs.md").read_text()
    assert "| tokens_zero_shot | 2 |" in table and "| deidentification_one_shot | 2 |" in table
    assert "| 0 | 0 | 0 | 0 |" in table.split("| tokens_zero_shot")[1].splitlines()[0]  # failures, cuts, ...
    metrics = (tmp_path / "metrics/llm_tokens_zero_shot.json").read_text()
    assert "poet" not in metrics and "Quint" not in metrics  # counts only, no document text
