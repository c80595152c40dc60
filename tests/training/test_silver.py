"""Silver corpus and entity-model training, end to end on a tiny fictional corpus (minutes on CPU)."""

import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin

from textanon.labels import TAB_LABELS
from textanon.training.silver import build_silver, paragraphs, read_bodies, write_silver

FIXTURE = Path(__file__).parent / "fixtures" / "wikiactors_tiny.json"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def recognizer_nlp():
    return spacy.load("en_textanon")


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


def train(recognizer_nlp, tmp_path, config, steps, eval_every):
    """Silver corpus from the fixture, then ``train-ner`` for a few steps; returns the model-last pipeline."""
    from typer.testing import CliRunner

    from textanon.cli import app

    paths = write_silver(build_silver(recognizer_nlp, read_bodies([FIXTURE]), dev_share=0.34, seed=1), tmp_path)
    out = tmp_path / "model"
    result = CliRunner().invoke(
        app,
        [
            "train-ner",
            str(ROOT / "configs" / config),
            "--output",
            str(out),
            "--train",
            paths["train"],
            "--dev",
            paths["dev"],
            "--training.max_steps",
            str(steps),
            "--training.eval_frequency",
            str(eval_every),
        ],
    )
    assert result.exit_code == 0, result.output
    return spacy.load(out / "model-last")


def test_train_ner_runs_end_to_end(recognizer_nlp, tmp_path):
    nlp = train(recognizer_nlp, tmp_path, "ner_cpu.cfg", 30, 10)
    assert nlp.pipe_names == ["tok2vec", "ner"]
    assert set(nlp.get_pipe("ner").labels) <= set(TAB_LABELS)
    assert len(nlp.get_pipe("ner").labels) >= 4
    nlp("Rosa Quenby moved to Chicago in 1975.")  # runs


def test_packaged_recognizer_labels_are_the_eight_tab_types(recognizer_nlp):
    assert tuple(recognizer_nlp.get_pipe("textanon_entity_recognizer").labels) == TAB_LABELS


def test_transformer_config_trains_on_the_local_minilm(recognizer_nlp, tmp_path):
    nlp = train(recognizer_nlp, tmp_path, "ner_trf.cfg", 4, 2)
    assert nlp.pipe_names == ["transformer", "ner"]
    assert set(nlp.get_pipe("ner").labels) <= set(TAB_LABELS)
    # court fine-tuning of the transformer model, then the hybrid pipeline built around it
    from typer.testing import CliRunner

    from textanon.cli import app
    from textanon.pipeline import assemble

    court = tmp_path / "court"
    result = CliRunner().invoke(
        app,
        [
            "train-court",
            str(Path(__file__).parent / "fixtures" / "tab_small.json"),
            "--output",
            str(court),
            "--base-model",
            str(tmp_path / "model" / "model-last"),
            "--config",
            str(ROOT / "configs" / "ner_court_trf.cfg"),
            "--max-steps",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    hybrid = assemble(
        ROOT / "configs" / "textanon_trained.cfg",
        overrides={"paths.ner_model": str(court / "model-last")},
        last_component="textanon_entity_recognizer",
    )
    doc = hybrid("Mr John Smith was born in Oslo on 3 May 1970.")
    assert "model" in doc.spans and {s.label_ for s in doc.spans["pii"]} <= set(TAB_LABELS)
