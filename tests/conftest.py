"""Test session set-up and the fixtures shared across folders.

The runtime must work offline, so only loopback sockets may connect (tests/helpers/offline.py). Shared helpers
(paths, fake models, CLI runners, input files) are modules of tests/helpers, on the path through pyproject.toml.
"""

import os

import offline
import pytest

import textanon_lab.testing.faults  # noqa: F401  (the fault plugins: registered for the tests only, no entry point)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# the measuring lab commands refuse a checkout with uncommitted code (cli/__init__.py); tests run them on purpose
os.environ.setdefault("TEXTANON_ALLOW_DIRTY", "1")


@pytest.fixture(scope="session", autouse=True)
def block_network():
    """Block every non-loopback connection and DNS lookup for the whole session."""
    offline.block_network()
    yield
    offline.unblock_network()


@pytest.fixture
def llm_then_optimizer():
    """``run(nlp, text) -> Doc``: add the optimizer after the LLM anonymizer of ``nlp`` and run both on ``text``,
    whose first nine characters ("Ada Quint") are a detected PERSON entity ``P1``, with no risky combination
    and no target: what the optimizer masks beyond that comes from the LLM spans."""

    def run(nlp, text):
        nlp.add_pipe("textanon_optimizer")
        doc = nlp.make_doc(text)
        ada = doc.char_span(0, 9, label="PERSON")
        ada._.entity_id = "P1"
        doc.spans["pii"] = [ada]
        doc._.risky_combinations = []
        doc._.target = None
        return nlp(doc)

    return run


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory):
    """A randomly initialised one-layer BERT masked LM (seed 0) with the local MiniLM tokenizer, saved to a folder."""
    torch = pytest.importorskip("torch")
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    from textanon.risk.language_models import minilm_path

    folder = tmp_path_factory.mktemp("tiny-bert")
    tokenizer = AutoTokenizer.from_pretrained(str(minilm_path()))
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    BertForMaskedLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
