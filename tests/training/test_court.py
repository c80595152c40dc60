"""Court-case fine-tuning: TAB JSON -> training Docs, the hybrid recognizer, and the cross-validation run."""

import json
from pathlib import Path

import pytest
import spacy
from cli_runner import invoke
from input_files import write_json
from spacy.tokens import DocBin

from textanon.io.datasets.gold import folds, paragraphs, split_ids
from textanon.io.datasets.tab import GoldDocument, Mention
from textanon.io.datasets.tab import gold_to_ents_doc as gold_doc
from textanon.labels import TAB_LABELS
from textanon_eval.ner_eval import token_labels
from textanon_lab.training.crossval import FoldSettings, step_limit

CASE = (
    "PROCEDURE\n"
    "The case originated in an application (no. {no}) lodged by Mr {name}, a {job} of {nat} nationality.\n"
    "THE FACTS\n"
    "The applicant was born in {year} and lives in {city}. He worked as a {job} until {year2}.\n"
    "On 3 May {year2} he was diagnosed with a mental illness and paid {amount} euros.\n"
)
FILLERS = [
    dict(
        no="12345/01",
        name="Orvel Tansky",
        job="taxi driver",
        nat="Danish",
        year="1950",
        city="Aarhus",
        year2="1999",
        amount="500",
    ),
    dict(
        no="23456/02",
        name="Pim Vaskar",
        job="nurse",
        nat="Polish",
        year="1961",
        city="Gdansk",
        year2="2001",
        amount="750",
    ),
    dict(
        no="34567/03",
        name="Edo Marlund",
        job="teacher",
        nat="Swedish",
        year="1972",
        city="Malmo",
        year2="2003",
        amount="900",
    ),
    dict(
        no="45678/04",
        name="Lars Quint",
        job="lawyer",
        nat="Irish",
        year="1945",
        city="Cork",
        year2="1998",
        amount="120",
    ),
]


def _mentions(text, fill):
    wanted = [
        (fill["no"], "CODE"),
        ("Mr " + fill["name"], "PERSON"),
        (fill["nat"], "DEM"),
        (fill["year"], "DATETIME"),
        (fill["city"], "LOC"),
        ("3 May " + fill["year2"], "DATETIME"),
        ("mental illness", "DEM"),
        (fill["amount"] + " euros", "QUANTITY"),
    ]
    out = []
    for surface, label in wanted:
        start = text.index(surface)
        out.append(
            {"entity_type": label, "start_offset": start, "end_offset": start + len(surface), "span_text": surface}
        )
    start = text.index(fill["job"])  # first mention of the job only
    out.append(
        {"entity_type": "DEM", "start_offset": start, "end_offset": start + len(fill["job"]), "span_text": fill["job"]}
    )
    return out


@pytest.fixture(scope="module")
def court_json(tmp_path_factory):
    records = []
    for i, fill in enumerate(FILLERS):
        text = CASE.format(**fill)
        records.append(
            {
                "doc_id": f"case{i}",
                "text": text,
                "annotations": {"annotator1": {"entity_mentions": _mentions(text, fill)}},
            }
        )
    return write_json(tmp_path_factory.mktemp("court") / "cases.json", records)


def _gold(text, mentions, doc_id="d"):
    return GoldDocument(doc_id, text, {"a": [Mention(s, e, label) for s, e, label in mentions]}, {})


def test_gold_doc_turns_mentions_into_entities_and_expands_partial_tokens():
    nlp = spacy.blank("en")
    doc = gold_doc(nlp, _gold("Mr Tansky, a Danish driver.", [(3, 9, "PERSON"), (13, 17, "DEM")]))
    assert [(e.text, e.label_) for e in doc.ents] == [("Tansky", "PERSON"), ("Danish", "DEM")]


def test_gold_doc_rejects_unknown_labels_and_annotators():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match="'NAME'"):
        gold_doc(nlp, _gold("Mr Tansky.", [(3, 9, "NAME")], doc_id="case-7"))
    with pytest.raises(ValueError, match="case-7.*annotator 'b'"):
        gold_doc(nlp, _gold("Mr Tansky.", [(3, 9, "PERSON")], doc_id="case-7"), annotator="b")


def test_paragraphs_cut_at_newlines_but_never_inside_an_entity():
    nlp = spacy.blank("en")
    text = "First paragraph here.\nSecond one, Orvel\nTansky.\nok\nThird paragraph is here."
    start = text.index("Orvel")
    doc = gold_doc(nlp, _gold(text, [(start, start + len("Orvel\nTansky"), "PERSON")]))
    paras = paragraphs(doc)
    assert [p.text for p in paras] == [
        "First paragraph here.",
        "Second one, Orvel\nTansky.",
        "Third paragraph is here.",
    ]
    assert [e.text for e in paras[1].ents] == ["Orvel\nTansky"]


def test_folds_and_splits_partition_documents():
    ids = [f"c{i}" for i in range(10)]
    parts = folds(ids, 3, seed=4)
    assert sorted(i for p in parts for i in p) == sorted(ids) and all(parts)
    train, dev = split_ids(ids, 0.2, seed=1)
    assert len(dev) == 2 and not set(train) & set(dev) and set(train) | set(dev) == set(ids)
    with pytest.raises(ValueError):
        folds(ids, 11)


def test_silver_command_reads_tab_json_as_gold(court_json, tmp_path):
    result = invoke("lab", "silver", court_json, "--input-format", "tab", "--output-dir", tmp_path, "--dev-share", 0.25)
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "gold-stats.json").read_text())
    assert stats["documents"] == {"train": 3, "dev": 1}
    train = list(DocBin().from_disk(tmp_path / "gold-train.spacy").get_docs(spacy.blank("en").vocab))
    assert len(train) == 3 * 3  # three paragraphs per case; the one- and two-word headings are dropped
    assert stats["entities_by_label"]["train"]["CODE"] == 3
    assert {e.label_ for d in train for e in d.ents} == {"CODE", "PERSON", "DEM", "DATETIME", "LOC", "QUANTITY"}


def test_silver_command_names_the_bad_record(tmp_path):
    mention = {"entity_type": "NAME", "start_offset": 3, "end_offset": 9, "span_text": "Tansky"}
    record = {"doc_id": "x1", "text": "Mr Tansky.", "annotations": {"a": {"entity_mentions": [mention]}}}
    bad = write_json(tmp_path / "bad.json", [record])
    result = invoke("lab", "silver", bad, "--input-format", "tab", "--output-dir", tmp_path)
    assert result.exit_code == 1 and "x1" in result.output and "NAME" in result.output


@pytest.fixture(scope="module")
def base_model(tmp_path_factory, train_silver):
    """A silver model trained for a few steps on the fictional biographies (the fine-tuning start point)."""
    return train_silver(tmp_path_factory.mktemp("base"), "ner_cpu.cfg", 20, 10) / "model-best"


def test_cv_ner_scores_every_case_with_a_model_that_never_saw_it(court_json, base_model, tmp_path):
    out = tmp_path / "cv.json"
    options = ["--base-model", base_model, "--max-steps", 10]
    result = invoke("lab", "cv-ner", court_json, "--folds", 2, "--work-dir", tmp_path / "cv", "--output", out, *options)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    tested = [d for f in report["folds"] for d in f["test"]]
    assert sorted(tested) == [f"case{i}" for i in range(4)]
    for fold in report["folds"]:
        assert not set(fold["test"]) & (set(fold["train"]) | set(fold["dev"]))
    scores = report["scores"]
    assert "court-tuned: rules + NER + gazetteer" in scores and "silver only: trained model alone" in scores
    baseline = scores["court-tuned: rules + NER + gazetteer"]
    assert baseline["by_type"]["CODE"]["f1"] == 1.0  # the application-number rule
    records = json.loads(court_json.read_text())
    gold_tokens = sum(
        len(
            token_labels(
                r["text"],
                [
                    (m["start_offset"], m["end_offset"], m["entity_type"])
                    for m in r["annotations"]["annotator1"]["entity_mentions"]
                ],
            )
        )
        for r in records
    )
    assert baseline["micro"]["gold_tokens"] == gold_tokens  # every case scored exactly once
    assert "| DEM |" in out.with_suffix(".md").read_text()


def test_train_court_and_hybrid_pipeline_assembly(court_json, base_model, hybrid_pipeline, tmp_path):
    out = tmp_path / "court"
    options = ["--base-model", base_model, "--max-steps", 10]
    result = invoke("lab", "train-court", court_json, "--output", out, "--dev-share", 0.25, *options)
    assert result.exit_code == 0, result.output
    nlp = hybrid_pipeline(out / "model-best")
    assert nlp.pipe_names == ["textanon_ner", "textanon_ents_to_spans", "ner", "textanon_entity_recognizer"]
    assert set(nlp.get_pipe("textanon_ner").labels) <= set(TAB_LABELS)
    doc = nlp(CASE.format(**FILLERS[0]))
    assert doc.spans["pii"] and {s.label_ for s in doc.spans["pii"]} <= set(TAB_LABELS)
    assert "model" in doc.spans


def test_compare_picks_systems_out_of_cv_results(tmp_path):
    from textanon_lab.training.compare import load_runs

    cv = tmp_path / "cv.json"
    cv.write_text(json.dumps({"scores": {"court-tuned: x": {"micro": {"f1": 0.5}, "by_type": {}}}}))
    runs = load_runs([("tuned", Path(f"{cv}#court-tuned: x")), ("missing", tmp_path / "nope.json")])
    assert runs == {"tuned": {"micro": {"f1": 0.5}, "by_type": {}}}
    with pytest.raises(KeyError, match="no system"):
        load_runs([("bad", Path(f"{cv}#other"))])


def test_the_comparison_table_has_a_macro_row_over_the_types_scored():
    from textanon_lab.training.compare import table

    scores = {"x": {"micro": {"f1": 0.9}, "by_type": {"PERSON": {"f1": 0.8}, "CODE": {"f1": 0.6}}}}
    rows = table(scores).splitlines()
    assert rows[-2] == "| micro | 0.900 |" and rows[-1] == "| macro | 0.700 |"


def test_fold_settings_default_as_cv_ner_runs_and_the_step_limit_overrides_the_config():
    assert step_limit(None) is None and step_limit(0) is None
    assert step_limit(10) == {"training.max_steps": 10}
    settings = FoldSettings(Path("train.cfg"), Path("pipeline.cfg"), Path("base"), None, Path("work"))
    assert (settings.annotator, settings.dev_share, settings.seed, settings.overrides) == (None, 0.15, 0, None)
    with pytest.raises(AttributeError):
        settings.seed = 1  # frozen
