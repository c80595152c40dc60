"""Silver corpus and entity-model training, end to end on a tiny fictional corpus (minutes on CPU)."""

import json
from pathlib import Path

import spacy
from cli_runner import invoke
from core_fixtures import FIXTURES, ROOT
from spacy.tokens import DocBin
from tab_fixture import TAB_SMALL

from textanon.labels import TAB_LABELS
from textanon_lab.training.silver import build_silver, label_rows, paragraphs, read_bodies, silver_summary, write_silver

FIXTURE = FIXTURES / "wikiactors_tiny.json"


def test_evaluated_individuals_are_excluded():
    names = [name for name, _ in read_bodies([FIXTURE])]
    assert "Edda Varnholt" not in names  # her abstract is evaluated
    assert names == ["Milo Castraven", "Teodor Lisk", "Rosa Quenby"]
    assert len(read_bodies([FIXTURE], exclude_evaluated=False)) == 4


def test_paragraphs_split_and_cut():
    text = "short\n" + "A sentence here. " * 300
    paras = list(paragraphs(text, min_chars=10, max_chars=1000))
    assert all(len(p) <= 1000 for p in paras) and len(paras) >= 5
    assert "short" not in paras


def test_silver_corpus_has_tab_entities_and_splits_by_individual(recognizer_nlp, tmp_path):
    bodies = read_bodies([FIXTURE])
    result = build_silver(recognizer_nlp, bodies, dev_share=0.34, seed=1)
    paths = write_silver(result, tmp_path)
    train = list(DocBin().from_disk(paths["train"]).get_docs(recognizer_nlp.vocab))
    dev = list(DocBin().from_disk(paths["dev"]).get_docs(recognizer_nlp.vocab))
    assert len(train) == 6 and len(dev) == 3  # 3 paragraphs per individual; 1 individual in dev
    labels = {e.label_ for d in train + dev for e in d.ents}
    assert labels <= set(TAB_LABELS)
    assert {"PERSON", "LOC", "DATETIME", "DEM"} <= labels
    stats = json.loads(Path(paths["stats"]).read_text())
    assert stats["individuals"] == {"train": 2, "dev": 1}
    assert sum(stats["entities_by_label"]["train"].values()) == sum(len(d.ents) for d in train)


def test_train_ner_runs_end_to_end(train_silver, tmp_path):
    nlp = spacy.load(train_silver(tmp_path, "ner_cpu.cfg", 30, 10) / "model-last")
    assert nlp.pipe_names == ["tok2vec", "ner"]
    assert set(nlp.get_pipe("ner").labels) <= set(TAB_LABELS)
    assert len(nlp.get_pipe("ner").labels) >= 4
    nlp("Rosa Quenby moved to Chicago in 1975.")  # runs


def test_packaged_recognizer_labels_are_the_eight_tab_types(recognizer_nlp):
    assert tuple(recognizer_nlp.get_pipe("textanon_entity_recognizer").labels) == TAB_LABELS


def test_transformer_config_trains_on_the_local_minilm(train_silver, hybrid_pipeline, tmp_path):
    model = train_silver(tmp_path, "ner_trf.cfg", 4, 2) / "model-last"
    nlp = spacy.load(model)
    assert nlp.pipe_names == ["transformer", "ner"]
    assert set(nlp.get_pipe("ner").labels) <= set(TAB_LABELS)
    # court fine-tuning of the transformer model, then the hybrid pipeline built around it
    court = tmp_path / "court"
    config = ROOT / "configs" / "ner_court_trf.cfg"
    result = invoke(
        "lab", "train-court", TAB_SMALL, "--output", court, "--base-model", model, "--config", config, "--max-steps", 2
    )
    assert result.exit_code == 0, result.output
    hybrid = hybrid_pipeline(court / "model-last")
    doc = hybrid("Mr John Smith was born in Oslo on 3 May 1970.")
    assert "model" in doc.spans and {s.label_ for s in doc.spans["pii"]} <= set(TAB_LABELS)


def test_the_silver_command_reports_the_corpus_and_its_entities_per_label():
    stats = {
        "paragraphs": 3,
        "tokens": 40,
        "entities_by_label": {"train": {"PERSON": 2, "LOC": 1}, "dev": {"PERSON": 1, "LOC": 0}},
    }
    paths = {"train": "c/s-train.spacy", "dev": "c/s-dev.spacy"}
    assert silver_summary(stats, paths) == "Silver corpus: 3 paragraphs, 40 tokens -> c/s-train.spacy, c/s-dev.spacy"
    assert label_rows(stats) == [("PERSON", 2, 1), ("LOC", 1, 0)]
