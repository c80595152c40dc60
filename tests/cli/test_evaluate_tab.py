"""CLI: evaluate-tab, evaluate-ner (tiny rule-based pipeline), convert."""

import json

import pytest
import spacy
from cli_runner import invoke, one_line
from input_files import write_json
from tab_fixture import TAB_METRIC_KEYS, TAB_SMALL, TAB_SMALL_MASKS

from textanon_eval.ner_eval import score_tokens, token_labels


def test_evaluate_tab_cli(tmp_path):
    out = tmp_path / "metrics.json"
    res = invoke("evaluate-tab", TAB_SMALL, TAB_SMALL_MASKS, "--output", out)
    assert res.exit_code == 0, res.output
    metrics = json.loads(out.read_text())
    assert set(metrics) == TAB_METRIC_KEYS | {"provenance"}
    assert metrics["token_recall"] == pytest.approx(24 / 27)
    assert "1 gold document(s) have no entry" in res.output


def test_evaluate_tab_cli_scores_overlapping_masks_with_a_warning(tmp_path):
    masks, out = write_json(tmp_path / "m.json", {"d2": [[0, 8], [5, 22]]}), tmp_path / "metrics.json"
    res = invoke("evaluate-tab", TAB_SMALL, masks, "--output", out)
    assert res.exit_code == 0, res.output
    assert "1 overlapping span(s) in 1 document(s)" in one_line(res.output)
    assert json.loads(out.read_text())["token_precision"] == pytest.approx(5 / 6)


def test_evaluate_tab_cli_bad_masks(tmp_path):
    masks = write_json(tmp_path / "m.json", {"d1": [[10, 5]]})
    res = invoke("evaluate-tab", TAB_SMALL, masks, "-o", tmp_path / "o.json")
    assert res.exit_code == 1 and "reversed or empty span [10, 5]" in res.output


TEXT = "Jane Roe works at Acme Corp in Oslo since 2001."
GOLD = [
    {
        "doc_id": "n1",
        "text": TEXT,
        "annotations": {
            "annotator1": {
                "entity_mentions": [
                    {"start_offset": 0, "end_offset": 8, "entity_type": "PERSON"},
                    {"start_offset": 18, "end_offset": 27, "entity_type": "ORG"},
                    {"start_offset": 31, "end_offset": 35, "entity_type": "LOC"},
                    {"start_offset": 42, "end_offset": 46, "entity_type": "DATETIME"},
                ]
            }
        },
    }
]


@pytest.fixture()
def ruler_model(tmp_path):
    """Predicts Jane PERSON (not Roe), 'works' ORG, Acme Corp GPE (-> LOC), Oslo GPE (-> LOC)."""
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(
        [
            {"label": "PERSON", "pattern": "Jane"},
            {"label": "ORG", "pattern": "works"},
            {"label": "GPE", "pattern": [{"ORTH": "Acme"}, {"ORTH": "Corp"}]},
            {"label": "GPE", "pattern": "Oslo"},
        ]
    )
    nlp.to_disk(tmp_path / "ruler")
    return tmp_path / "ruler"


@pytest.mark.parametrize("org_loc", [False, True])
def test_evaluate_ner_cli(tmp_path, ruler_model, org_loc):
    gold, out = write_json(tmp_path / "gold.json", GOLD), tmp_path / "ner.json"
    flags = ["--org-loc-interchangeable"] if org_loc else []
    res = invoke("lab", "evaluate-ner", gold, "--model", ruler_model, "--output", out, *flags)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    # gold tokens: Jane Roe (PERSON) Acme Corp (ORG) Oslo (LOC) 2001 (DATETIME); predicted:
    # Jane PERSON, works ORG, Acme Corp LOC, Oslo LOC
    assert r["by_type"]["PERSON"]["precision"] == 1.0 and r["by_type"]["PERSON"]["recall"] == 0.5
    assert r["by_type"]["DATETIME"]["recall"] == 0.0 and r["by_type"]["ORG"]["precision"] == 0.0
    assert r["untyped"]["precision"] == pytest.approx(4 / 5) and r["untyped"]["recall"] == pytest.approx(4 / 6)
    if org_loc:  # Acme Corp counts for ORG recall and LOC precision
        assert r["by_type"]["ORG"]["recall"] == 1.0 and r["by_type"]["LOC"]["precision"] == 1.0
        assert r["micro"]["precision"] == pytest.approx(4 / 5) and r["micro"]["recall"] == pytest.approx(4 / 6)
    else:
        assert r["by_type"]["ORG"]["recall"] == 0.0 and r["by_type"]["LOC"]["precision"] == pytest.approx(1 / 3)
        assert r["micro"]["precision"] == pytest.approx(2 / 5) and r["micro"]["recall"] == pytest.approx(2 / 6)
        assert r["micro"]["f1"] == pytest.approx(2 * 0.4 * (1 / 3) / (0.4 + 1 / 3))


def test_token_labels_first_mention_wins():
    labels = token_labels("a b c", [(0, 3, "X"), (2, 5, "Y")])
    assert labels == {(0, 1): "X", (2, 3): "X", (4, 5): "Y"}
    assert score_tokens([(labels, {})])["micro"]["recall"] == 0.0


def test_convert_cli(tmp_path):
    out = tmp_path / "tab.spacy"
    res = invoke("lab", "convert", TAB_SMALL, out, "--format", "tab")
    assert res.exit_code == 0 and out.exists(), res.output
    bad = invoke("lab", "convert", TAB_SMALL_MASKS, out, "--format", "tab")
    assert bad.exit_code == 1 and "expected a JSON list" in bad.output


def test_evaluate_tab_cli_weighted(tmp_path, monkeypatch):
    import textanon_eval.tab_metrics as tab

    monkeypatch.setattr(
        tab, "lm_information_content", lambda model=None: lambda text, spans: [float(e - s) for s, e in spans]
    )
    out = tmp_path / "w.json"
    res = invoke("evaluate-tab", TAB_SMALL, TAB_SMALL_MASKS, "--weighted", "--output", out)
    assert res.exit_code == 0, res.output
    metrics = json.loads(out.read_text())
    assert set(metrics) == TAB_METRIC_KEYS | {"weighted_token_precision", "weighted_mention_precision", "provenance"}
    assert metrics["weighted_token_precision"] == pytest.approx(0.8)


def test_ner_errors_cli(tmp_path):
    import textanon  # noqa: F401

    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([{"label": "PERSON", "pattern": "Jane"}])
    nlp.add_pipe("textanon_entity_recognizer", config={"use_gazetteer": False})
    nlp.to_disk(tmp_path / "model")
    gold, out = write_json(tmp_path / "gold.json", GOLD), tmp_path / "errors.json"
    res = invoke("lab", "ner-errors", gold, "--model", tmp_path / "model", "--output", out)
    assert res.exit_code == 0, res.output
    person = json.loads(out.read_text())["by_type"]["PERSON"]
    assert person["gold_tokens"] == 2 and person["missed_by_cause"] == {"undetected": 1}
    assert "Roe" not in out.with_suffix(".md").read_text() and "provenance" in out.read_text()
