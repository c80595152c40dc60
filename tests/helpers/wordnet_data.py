"""The offline WordNet of the generalization tests: ``NLTK_DATA`` (the Makefile's ``assets/nltk_data``), else the
repository's ``assets/nltk_data``; tests that need it are marked :data:`needs_wordnet` (skipped without it, as the
gazetteer's WordNet tests are)."""

import os
from pathlib import Path

import pytest

DEFAULT = Path(__file__).parents[2] / "assets" / "nltk_data"
if not os.environ.get("NLTK_DATA") and (DEFAULT / "corpora/wordnet/lexnames").exists():
    os.environ["NLTK_DATA"] = str(DEFAULT)

needs_wordnet = pytest.mark.skipif(
    not (os.environ.get("NLTK_DATA") and (Path(os.environ["NLTK_DATA"]) / "corpora/wordnet/lexnames").exists()),
    reason="WordNet data not prepared (python -m textanon.detect.gazetteer.wordnet_data assets/nltk_data)",
)
