"""A language model from a spec string (the ``--model`` option of the evaluators)."""

from spacy.util import registry

from textanon.risk.language_models import causal_lm, default_language_model, masked_lm, word_ic

#: the default spec: the offline SmolLM2 scorer
DEFAULT_MODEL = "textanon.SmolLM2Scorer.v1"


def resolve_model(spec=None):
    """A :class:`textanon.risk.language_models.LanguageModel` from a spec.

    ``None`` / ``"default"``: the offline default (SmolLM2); ``"wordfreq"`` / ``"wordfreq:LANG"``:
    word-frequency IC independent of the anonymizer (:mod:`textanon.risk.language_models.word_ic`); a spaCy ``misc``
    registry name such as ``"textanon.SmolLM2Scorer.v1"``; ``"masked:<hf name or path>"``;
    ``"causal:<hf name or path>"``; or an already built model.
    """
    if spec is None or spec == "default":
        return default_language_model()
    if not isinstance(spec, str):
        return spec
    if word_ic.is_word_frequency_spec(spec):
        return word_ic.from_spec(spec)
    if spec.startswith("masked:"):
        return masked_lm(spec[len("masked:") :])
    if spec.startswith("causal:"):
        return causal_lm(spec[len("causal:") :])

    try:
        factory = registry.misc.get(spec)
    except Exception as err:  # catalogue.RegistryError
        raise ValueError(
            f"unknown language model {spec!r}: use a registry name (e.g. {DEFAULT_MODEL}), "
            "'masked:NAME' or 'causal:NAME'"
        ) from err
    return factory()
