"""Settings declared once, in the constructor: the factories' signatures and config defaults are read from it."""

import inspect

import pytest
import spacy
from confection import ConfigValidationError
from spacy.language import Language

import textanon  # noqa: F401
import textanon.pipes.llm_anonymizer  # noqa: F401  (the LLM anonymizer's factory, also without the entry points)
import textanon.pipes.search_risk  # noqa: F401
from textanon.llm.local_model import LocalChatModel, smollm2_chat
from textanon.llm.task import AnonymizeTask
from textanon.pipes.optimizer import MaskingOptimizer
from textanon.pipes.search_risk import SearchRisk
from textanon.settings.signatures import defaults, settings_from


def _params(func):
    return {n: (p.annotation, p.default) for n, p in inspect.signature(func).parameters.items()}


@pytest.mark.parametrize(
    "factory, cls", [("textanon_optimizer", MaskingOptimizer), ("textanon_search_risk", SearchRisk)]
)
def test_a_component_factory_takes_its_constructor_settings(factory, cls):
    meta = Language.get_factory_meta(factory)
    assert meta.default_config == defaults(cls, cls.SETTINGS)
    params = _params(spacy.registry.factories.get(factory))
    assert list(params)[:2] == ["nlp", "name"]
    assert {n: v for n, v in params.items() if n not in ("nlp", "name")} == {
        n: v for n, v in _params(cls).items() if n not in ("name", "nlp")
    }


def test_config_values_are_validated_against_the_constructor_types():
    nlp = spacy.blank("en")
    assert nlp.add_pipe("textanon_optimizer", config={"extra_spans_keys": ["a"]}).extra_spans_keys == ["a"]
    for bad in ({"extra_spans_keys": "ab"}, {"time_limit_s": "soon"}, {"no_such_setting": 1}):
        with pytest.raises(ConfigValidationError):
            spacy.blank("en").add_pipe("textanon_optimizer", config=bad)


def test_the_llm_anonymizer_and_smollm2_take_the_settings_of_the_task_and_the_chat_model():
    params = _params(spacy.registry.factories.get("textanon_llm_anonymizer"))
    task = _params(AnonymizeTask)
    assert all(params[n] == task[n] for n in ("design", "template_path", "chunk_size", "floor_labels"))
    assert "component_name" not in params and "template" not in params
    meta = Language.get_factory_meta("textanon_llm_anonymizer").default_config
    assert meta["chunk_size"] == task["chunk_size"][1] and meta["design"] == task["design"][1]
    chat = _params(LocalChatModel)
    assert _params(smollm2_chat) == {
        n: v for n, v in chat.items() if n not in ("name_or_path", "gguf_file", "context_length")
    }


def test_defaults_and_signatures_refuse_what_they_cannot_give():
    class Settings:
        def __init__(self, required: int, keys: tuple = ("a",)):
            pass

    assert defaults(Settings, ["keys"]) == {"keys": ["a"]}  # tuples as config lists
    with pytest.raises(KeyError):
        defaults(Settings, ["required"])
    with pytest.raises(TypeError):
        settings_from(Settings)(lambda nlp: None)  # no **settings to take them
    with pytest.raises(TypeError):
        settings_from(Settings, names=["missing"])(lambda **settings: None)
