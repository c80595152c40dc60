"""``index build`` and ``anonymize --index`` end to end, offline, on a tiny index and configs/textanon_search.cfg."""

import json

import pytest
import spacy
from cli_runner import run_textanon
from core_fixtures import FIXTURES, ROOT
from input_files import write_jsonl

import textanon_lab.testing.faults  # noqa: F401  (textanon.testing.FailingLM.v1)
from textanon.pipes.search_risk import use_index
from textanon.risk.search.base import IndexMissing

pytestmark = pytest.mark.slow
FIXTURE = FIXTURES / "search_public.json"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """An index of the fixture (through the CLI) and the search pipeline assembled from its config."""
    from textanon.pipeline import assemble

    root = tmp_path_factory.mktemp("cli")
    result = run_textanon("index", "build", FIXTURE, "--output", root / "idx")
    assert result.returncode == 0, result.stderr
    nlp = assemble(ROOT / "configs" / "textanon_search.cfg", overrides={"paths.index": str(root / "elsewhere")})
    nlp.to_disk(root / "pipe")
    return root


def test_index_build_writes_meta(built):
    meta = json.loads((built / "idx" / "meta.json").read_text())
    assert meta["documents"] == 8 and meta["backend"] == "sqlite-fts5"


def test_anonymize_with_index_end_to_end(built, tmp_path):
    rows = [
        {
            "id": "milo",
            "text": "Milo Castraven is an Irish actor who grew up in Cork and played a lawyer for "
            "the BBC. Castraven married the writer Ann Dowell.",
            "target": "Milo Castraven",
        },
        {"id": "nobody", "text": "A quiet day in Lyon.", "target": "Someone Else"},
    ]
    out = tmp_path / "out.jsonl"
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    result = run_textanon("anonymize", path, "--output", out, "--model", built / "pipe", "--index", built / "idx")
    assert result.returncode == 0, result.stderr
    records = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    milo = records["milo"]
    assert "Castraven" not in milo["anonymized_text"] and "Cork" not in milo["anonymized_text"]
    assert milo["reid_rank"]["before"] == 1 and milo["reid_rank"]["target_documents"] == 1
    assert any(s.get("risk_reasons") for s in milo["spans"])
    assert not any("unavailable" in w for w in milo["warnings"])  # the --index path replaced the config's
    assert "reid_rank" not in records["nobody"]


def test_anonymize_with_a_missing_index_stops_with_a_clear_error(built, tmp_path):
    path = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "text": "Mr Ion Rusu."}])
    model = ["--model", built / "pipe", "--index", tmp_path / "nothing"]
    result = run_textanon("anonymize", path, "--output", tmp_path / "out.jsonl", *model)
    assert result.returncode == 1
    assert "Cannot use the search index" in result.stdout + result.stderr
    assert "index build" in result.stdout + result.stderr


def test_use_index_replaces_the_language_model_risk(built):
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_lm_risk", config={"model": {"@misc": "textanon.testing.FailingLM.v1"}})
    nlp.add_pipe("textanon_optimizer")
    assert "in place of the language-model risk" in use_index(nlp, built / "idx")
    assert nlp.pipe_names == ["textanon_search_risk", "textanon_optimizer"]
    assert nlp.get_pipe("textanon_search_risk").index.path == str(built / "idx")
    with pytest.raises(IndexMissing):
        use_index(nlp, built / "nothing")
