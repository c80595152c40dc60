"""The word-frequency prior: document counts without an index (textanon.risk.search.prior)."""

import pickle

import pytest
from spacy.util import registry

from textanon.risk.search.prior import FrequencyPrior, PriorSource


def test_counts_follow_word_frequencies():
    prior = FrequencyPrior(n_docs=10_000_000)
    the, film, award, rare = (prior.count([w]) for w in ("the", "film", "award", "Petrescu"))
    assert the == prior.n_docs  # in every document
    assert the > film > rare and film > 0
    assert prior.count(["film", "award"]) <= min(film, award)  # a conjunction is rarer than each term
    assert prior.count(["Petrescu", "Harrogate"]) < 5  # two rare terms single a person out
    assert prior.count(["Xyzzyqwv"]) < prior.count(["Petrescu"])  # unseen: rarer than any listed word
    assert prior.count(["Academy Award"]) < prior.count(["award"])  # a phrase is rarer than its words
    assert prior.count_any([["film", "award"]]) >= film
    assert prior.count(["FILM"]) == film  # case does not matter


def test_no_documents_so_no_targeted_risk():
    prior = FrequencyPrior()
    assert prior.search(["film"], 10) == [] and prior.documents_of("Anyone") == [] and prior.term_scores("a", []) == {}


def test_bad_settings_and_the_registered_source():
    with pytest.raises(ValueError):
        FrequencyPrior(n_docs=0)
    source = registry.misc.get("textanon.FrequencyPrior.v1")(n_docs=1000)
    assert isinstance(source, PriorSource) and source.open().n_docs == 1000
    assert source.settings()["n_docs"] == 1000
    copy = pickle.loads(pickle.dumps(source))  # worker processes
    assert copy.open().count(["film"]) == source.open().count(["film"])
