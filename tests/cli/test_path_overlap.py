"""Every command that writes files refuses, before it writes anything, an output that is one of its inputs (links
resolved), an output inside an input folder, or an input inside a folder it fills (``_util.check_distinct``)."""

import pytest
import typer
from cli_runner import invoke, one_line

from textanon.cli import app
from textanon_lab.cli import lab


@pytest.fixture
def paths(tmp_path):
    """f, g: input files; d: a folder holding f; m: a model folder inside d; c: a config inside d."""
    d = tmp_path / "d"
    d.mkdir()
    (d / "m").mkdir()
    f, g, c = d / "f.json", tmp_path / "g.json", d / "c.cfg"
    for p in (f, g, c, d / "dev.json", d / "x-stats.json"):
        p.write_text("{}\n")
    return {"f": f, "g": g, "d": d, "m": d / "m", "c": c, "t": tmp_path}


CASES = {
    "index build": "index build {f} -o {d}",
    "index bench": "index bench {f} -o {f}",
    "index tune": "index tune {g} --exclude {f} --pipeline x -o {f}",
    "index dev-set": "index dev-set {g} --exclude {t}/d/dev.json -o {d}",
    "evaluate-tab": "evaluate-tab {f} {g} -o {g}",
    "evaluate-trir": "evaluate-trir {f} -o {g} --anonymized a={g}",
    "evaluate-tpi": "evaluate-tpi {f} -o {f}",
    "evaluate-tps": "evaluate-tps {f} -o {g} --extra {g}",
    "evaluate-nmi": "evaluate-nmi {f} -o {f}",
    "evaluate": "evaluate {g} --out-dir {d} --name x --metrics tpi --extra {d}/tpi_x.json",
    "convert": "lab convert {f} {f} -f jsonl",
    "build-gazetteer": "lab build-gazetteer -o {d}/gaz.jsonl --nltk-data {d}",
    "build-word-classes": "lab build-word-classes -o {d}/words.txt --nltk-data {d}",
    "build-eponyms": "lab build-eponyms -o {d}/terms.txt --nltk-data {d}",
    "build-pipeline": "lab build-pipeline {c} {d}",
    "evaluate-ner": "lab evaluate-ner {f} -o {f}",
    "ner-errors": "lab ner-errors {f} -o {t}/d/f.md",
    "bench-tpi": "lab bench-tpi {f} -o {f}",
    "bench-speed": "lab bench-speed --wikiactors {f} --echr {g} --output {g}",
    "bench-startup": "lab bench-startup --output {t}/s.md",
    "bench-long": "lab bench-long --echr {f} --output {f}",
    "bench-batch": "lab bench-batch {f} --background {g} --exclude {g} --index {d} --output {f}",
    "bench-scale": "lab bench-scale {f} --output {t}/s.json --outputs {d}",
    "bench-engines": "lab bench-engines --echr {f} --wikiactors {g} --output {f}",
    "benchmark": "lab benchmark {f} --output {g} --trir-from {g}",
    "bench-llm": "lab bench-llm --input {f} --anonymizations {f}",
    "select-prior": "lab select-prior {f} --output {f}",
    "select-search-profile": "lab select-search-profile {f} --index {d} --output {f}",
    "profiles": "lab profiles {f} --output {t}/p.json --readme {f}",
    "reliability": "lab reliability --output {t}/r.md",
    "select-threshold": "lab select-threshold {g} --exclude {f} --output {f}",
    "silver": "lab silver {t}/d/x-stats.json --output-dir {d} --prefix x",
    "train-ner": "lab train-ner {c} --output {d} --train {g} --dev {g}",
    "compare-ner": "lab compare-ner --run a={f} --output {f}",
    "train-court": "lab train-court {g} --output {d} --base-model {m} --config {g}",
    "cv-ner": "lab cv-ner {g} --work-dir {d} --base-model {m} --config {c} --pipeline-config {g}",
    "export-ner": "lab export-ner {m} --output {d}",
    "peer-suite": "lab peer-suite --presidio-tests {d} --output {f}",
    "benchmark-echr": "lab benchmark-echr {d} --output {t}/d/f.json",
    "run-log": "lab run-log --output {t}/runs.md",
    "benchmark --generalizations-out": "lab benchmark {f} --output {g} --generalizations-out {f}",
    "truth-audit sample": "lab truth-audit sample --generalizations {f} --row x --output {f}",
    "truth-audit": "lab truth-audit summarize {f} --output {f}",
    "architecture": "lab architecture --no-wheel --output {t}/a.md",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_writing_command_refuses_overlapping_paths(paths, name):
    before = {p: p.read_bytes() for p in paths["t"].rglob("*") if p.is_file()}
    result = invoke(*CASES[name].format(**paths).split())
    text = one_line(result.output)
    assert result.exit_code == 2, (name, result.output, result.exception)
    assert "would be overwritten" in text or "inside" in text or "read back" in text, text
    assert {p: p.read_bytes() for p in paths["t"].rglob("*") if p.is_file()} == before


def test_the_cases_cover_every_command_with_a_path_output():
    """A new command that writes files gets a case here (and a check_distinct call)."""
    covered = {name.split()[-1] for name in CASES} | {"anonymize", "demo", "report", "deanonymize", "mapping-key"}
    without_outputs = {"verify-asset"}
    names = set(typer.main.get_command(app).commands) | set(typer.main.get_command(lab).commands)
    index = typer.main.get_command(app).commands["index"]
    names |= set(index.commands) - {"index"}
    assert names - {"lab", "index"} - without_outputs <= covered
