"""Fixtures of the training tests: the packaged pipeline that annotates silver data, a short ``train-ner`` run on
the silver corpus of the fictional biographies, and the hybrid pipeline around a trained NER."""

import pytest
import spacy
from cli_runner import invoke
from core_fixtures import FIXTURES, ROOT

#: fictional WikiActors records: 1 evaluated actor, 1 with an empty abstract, 2 background-only
WIKIACTORS_TINY = FIXTURES / "wikiactors_tiny.json"


@pytest.fixture(scope="session")
def recognizer_nlp():
    """The packaged pipeline (en_textanon): its recognizer annotates the silver corpus."""
    return spacy.load("en_textanon")


@pytest.fixture(scope="session")
def train_silver(recognizer_nlp):
    """``train(folder, config, steps, eval_every) -> Path``: the silver corpus of :data:`WIKIACTORS_TINY` written to
    ``folder``, then ``train-ner`` with ``configs/<config>`` for ``steps`` steps; returns its output folder."""
    from textanon_lab.training.silver import build_silver, read_bodies, write_silver

    def train(folder, config, steps, eval_every):
        silver = build_silver(recognizer_nlp, read_bodies([WIKIACTORS_TINY]), dev_share=0.34, seed=1)
        paths = write_silver(silver, folder)
        out = folder / "model"
        result = invoke(
            "lab",
            "train-ner",
            ROOT / "configs" / config,
            "--output",
            out,
            "--train",
            paths["train"],
            "--dev",
            paths["dev"],
            "--training.max_steps",
            steps,
            "--training.eval_frequency",
            eval_every,
        )
        assert result.exit_code == 0, result.output
        return out

    return train


@pytest.fixture(scope="session")
def hybrid_pipeline():
    """``hybrid(ner_model) -> Language``: configs/textanon.cfg around the trained NER in ``ner_model``, up
    to the entity recognizer."""
    from textanon.pipeline import assemble

    def hybrid(ner_model):
        return assemble(
            ROOT / "configs" / "textanon.cfg",
            overrides={"paths.ner_model": str(ner_model)},
            last_component="textanon_entity_recognizer",
        )

    return hybrid
