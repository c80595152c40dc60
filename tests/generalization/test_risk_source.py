"""The generalizer scores its candidates with the risk components that RUN: a disabled language-model risk (as in
the search profile, ``nlp.disabled``) is not used, so the profile runs no language model at all."""

import spacy
from fake_models import LENGTH_LM  # noqa: F401  (registers the fake language model)

import textanon  # noqa: F401
import textanon.pipes.factories  # noqa: F401  (the factories, also without the entry points)


def _pipeline():
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_lm_risk", config={"model": {"@misc": LENGTH_LM}, "threshold": -2.0})
    gen = nlp.add_pipe("textanon_generalizer")
    nlp.add_pipe("textanon_optimizer", config={"replacement": "generalize"})
    return nlp, gen


def test_an_enabled_language_model_risk_is_the_generalizers_ic_source():
    nlp, gen = _pipeline()
    lm, search = gen.risk_components()
    assert lm is nlp.get_pipe("textanon_lm_risk") and search is None


def test_a_disabled_language_model_risk_is_not_used():
    nlp, gen = _pipeline()
    nlp.disable_pipe("textanon_lm_risk")
    assert gen.risk_components() == (None, None)
    nlp.enable_pipe("textanon_lm_risk")
    assert gen.risk_components()[0] is nlp.get_pipe("textanon_lm_risk")
