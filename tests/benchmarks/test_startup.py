"""bench-startup: fresh processes load a saved pipeline, anonymize one short document, run the CLI."""

import sys

import spacy

from textanon_lab.benchmarks.startup import measure_startup, startup_markdown


def test_start_up_of_a_saved_pipeline(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_entity_recognizer", config={"use_ner": False})
    nlp.add_pipe("textanon_entity_linker")
    nlp.add_pipe("textanon_optimizer")
    nlp.to_disk(tmp_path / "p")
    results = measure_startup(sys.executable, {"rules": str(tmp_path / "p")}, repeats=1)
    r = results["rules"]
    assert 0 < r["load_s"] <= r["first_record_s"] and r["cli_s"] > 0 and r["repeats"] == 1
    assert "| rules |" in startup_markdown(results, sys.executable)
