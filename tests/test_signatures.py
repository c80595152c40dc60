"""Settings declared once, in the constructor: every factory, registered in textanon.pipes.factories, takes its
signature and config defaults from it; the packaged configs load and save as before."""

import inspect
from pathlib import Path

import pytest
import spacy
import tomllib
from confection import ConfigValidationError
from fake_models import LENGTH_LM
from spacy.language import Language
from spacy.util import load_config

import textanon  # noqa: F401
from textanon.llm.local_model import LocalChatModel, smollm2_chat
from textanon.llm.task import AnonymizeTask
from textanon.pipes import factories
from textanon.pipes.allow_deny import AllowDenyLists
from textanon.pipes.entity_linker import EntityLinker
from textanon.pipes.entity_recognizer import EntityRecognizer
from textanon.pipes.ents_to_spans import EntsToSpans
from textanon.pipes.generalizer import Generalizer
from textanon.pipes.llm_anonymizer import CACHE_SETTINGS, TASK_SETTINGS, LLMAnonymizer
from textanon.pipes.lm_risk import LMRiskScorer
from textanon.pipes.optimizer import MaskingOptimizer
from textanon.pipes.search_risk import SearchRisk
from textanon.settings.signatures import defaults, settings_from

ROOT = Path(__file__).resolve().parents[1]
PIPES = ROOT / "components" / "textanon" / "pipes"

#: factory -> (component class, the config parameters the factory names itself, with the config's type)
COMPONENTS = {
    "textanon_entity_recognizer": (EntityRecognizer, {"label_map", "model_labels"}),
    "textanon_ents_to_spans": (EntsToSpans, set()),
    "textanon_allow_deny": (AllowDenyLists, {"allow", "deny"}),
    "textanon_entity_linker": (EntityLinker, set()),
    "textanon_lm_risk": (LMRiskScorer, {"model"}),
    "textanon_search_risk": (SearchRisk, set()),
    "textanon_generalizer": (Generalizer, set()),
    "textanon_optimizer": (MaskingOptimizer, set()),
}
#: factory -> (assigns, requires), as the components declared them
METADATA = {
    "textanon_entity_recognizer": (["doc.spans"], []),
    "textanon_ents_to_spans": (["doc.spans", "doc.ents"], []),
    "textanon_allow_deny": (["doc.spans", "doc._.anonymization_warnings"], []),
    "textanon_entity_linker": (["span._.entity_id"], ["doc.spans"]),
    "textanon_lm_risk": (["span._.ic", "doc._.risky_combinations"], ["span._.entity_id"]),
    "textanon_search_risk": (
        ["span._.ic", "span._.risk_reasons", "doc._.risky_combinations", "doc._.reid_rank"],
        ["span._.entity_id"],
    ),
    "textanon_generalizer": (["span._.generalizations", "doc._.generalization_risk"], ["span._.entity_id"]),
    "textanon_optimizer": (
        ["span._.masked", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"],
        ["span._.entity_id"],
    ),
    "textanon_llm_anonymizer": (
        ["doc.spans", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"],
        [],
    ),
    "textanon_attribute_ruler": ([], []),  # as spaCy's attribute_ruler: what it sets is what its patterns say
}


def _params(func):
    return {n: (p.annotation, p.default) for n, p in inspect.signature(func).parameters.items()}


@pytest.mark.parametrize("factory", sorted(COMPONENTS))
def test_a_component_factory_takes_its_constructor_settings(factory):
    cls, own = COMPONENTS[factory]
    meta = Language.get_factory_meta(factory)
    promises = {"textanon_lm_risk": {"model": {"@misc": "textanon.SmolLM2Scorer.v1"}}}.get(factory, {})
    assert meta.default_config == {**promises, **defaults(cls, cls.SETTINGS)}
    params = _params(spacy.registry.factories.get(factory))
    assert list(params)[:2] == ["nlp", "name"]
    constructor = _params(cls)
    settings = {n: v for n, v in params.items() if n not in ("nlp", "name")}
    assert set(settings) == set(meta.default_config) | ({"index"} if cls is SearchRisk else set())
    assert {n: v for n, v in settings.items() if n not in own} == {n: constructor[n] for n in settings if n not in own}
    assert all(params[n][1] is inspect.Parameter.empty for n in own)  # their defaults: the default_config's


def test_the_attribute_ruler_factory_takes_spacy_s_settings():
    nlp = spacy.blank("en")
    nlp.add_pipe("attribute_ruler", name="spacy_s")
    nlp.add_pipe("textanon_attribute_ruler", name="textanon_s")
    spacy_config, config = nlp.config["components"]["spacy_s"], nlp.config["components"]["textanon_s"]
    assert {**spacy_config, "factory": "textanon_attribute_ruler"} == config
    assert list(_params(spacy.registry.factories.get("textanon_attribute_ruler"))) == [
        "nlp",
        "name",
        "validate",
        "scorer",
    ]


def test_the_recognizer_and_list_defaults_are_config_values_copied_from_the_constructor():
    from textanon.labels import ONTONOTES_TO_TAB

    config = Language.get_factory_meta("textanon_entity_recognizer").default_config
    assert config["label_map"] == ONTONOTES_TO_TAB and config["label_map"] is not ONTONOTES_TO_TAB
    assert Language.get_factory_meta("textanon_allow_deny").default_config["allow"] == []  # the constructor's ()


@pytest.mark.parametrize("factory", sorted(METADATA))
def test_every_factory_is_registered_in_factories_with_its_metadata(factory):
    meta = Language.get_factory_meta(factory)
    assert (meta.assigns, meta.requires) == METADATA[factory]
    func = spacy.registry.factories.get(factory)
    assert func is getattr(factories, "make_" + factory.removeprefix("textanon_"))
    assert func.__module__ == "textanon.pipes.factories"


def test_the_entry_points_name_the_factories_module_and_no_component_module_registers():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    entry_points = project["project"]["entry-points"]["spacy_factories"]
    assert entry_points == {f: "textanon.pipes.factories:make_" + f.removeprefix("textanon_") for f in METADATA}
    for module in PIPES.glob("*.py"):
        if module.name != "factories.py":
            source = module.read_text(encoding="utf-8")
            assert "Language.factory" not in source and "def make_" not in source, module.name


def test_config_values_are_validated_against_the_constructor_types():
    nlp = spacy.blank("en")
    assert nlp.add_pipe("textanon_optimizer", config={"extra_spans_keys": ["a"]}).extra_spans_keys == ["a"]
    for bad in ({"extra_spans_keys": "ab"}, {"time_limit_s": "soon"}, {"no_such_setting": 1}):
        with pytest.raises(ConfigValidationError):
            spacy.blank("en").add_pipe("textanon_optimizer", config=bad)
    with pytest.raises(ConfigValidationError):  # the config's type, a list, where the constructor takes a sequence
        spacy.blank("en").add_pipe("textanon_allow_deny", config={"allow": "lawyer"})
    with pytest.raises(ConfigValidationError):  # a model is required, not the constructor's Optional
        spacy.blank("en").add_pipe("textanon_lm_risk", config={"model": None})


def test_the_optimizer_factory_leaves_what_it_always_masks_unscored():
    nlp = spacy.blank("en")
    scorer = nlp.add_pipe("textanon_lm_risk", config={"model": {"@misc": LENGTH_LM}})
    optimizer = nlp.add_pipe("textanon_optimizer")
    assert scorer.forced_entities == optimizer.forced_entity_ids
    other = nlp.add_pipe("textanon_lm_risk", name="other", config={"model": {"@misc": LENGTH_LM}, "spans_key": "x"})
    nlp.add_pipe("textanon_optimizer", name="again")
    assert other.forced_entities is None  # another spans_key: not this optimizer's


def test_the_llm_anonymizer_and_smollm2_take_the_settings_of_the_task_and_the_chat_model():
    params = _params(spacy.registry.factories.get("textanon_llm_anonymizer"))
    task = _params(AnonymizeTask)
    assert all(params[n] == task[n] for n in ("design", "template_path", "chunk_size", "floor_labels"))
    assert "component_name" not in params and "template" not in params
    meta = Language.get_factory_meta("textanon_llm_anonymizer").default_config
    assert meta == {
        **defaults(AnonymizeTask, ("design", "template_path")),
        "model": {"@llm_models": "textanon.SmolLM2Chat.v1", "max_new_tokens": 256},
        **defaults(AnonymizeTask, TASK_SETTINGS),
        **defaults(LLMAnonymizer, CACHE_SETTINGS),
    }
    assert list(meta)[:3] == ["design", "template_path", "model"]
    chat = _params(LocalChatModel)
    assert _params(smollm2_chat) == {
        n: v for n, v in chat.items() if n not in ("name_or_path", "gguf_file", "context_length")
    }


def test_defaults_and_signatures_refuse_what_they_cannot_give():
    class Settings:
        def __init__(self, required: int, keys: tuple = ("a",), table: dict = {"a": [1]}):  # noqa: B006
            pass

    assert defaults(Settings, ["keys"]) == {"keys": ["a"]}  # tuples as config lists
    table = defaults(Settings, ["table"])["table"]
    assert table == {"a": [1]} and table is not inspect.signature(Settings).parameters["table"].default
    with pytest.raises(KeyError):
        defaults(Settings, ["required"])
    with pytest.raises(TypeError):
        settings_from(Settings)(lambda nlp: None)  # no **settings to take them
    with pytest.raises(TypeError):
        settings_from(Settings, names=["missing"])(lambda **settings: None)


def _rules_config():
    """configs/textanon_rules.cfg without the sourced NER, scoring with the length stand-in LM."""
    config = load_config(ROOT / "configs" / "textanon_rules.cfg", interpolate=False)
    config["nlp"]["pipeline"].remove("ner")
    del config["components"]["ner"]
    config["components"]["textanon_lm_risk"]["model"] = {"@misc": LENGTH_LM}
    return config


def test_the_rules_config_loads_saves_and_loads_again_the_same(tmp_path):
    nlp = spacy.util.load_model_from_config(_rules_config(), auto_fill=True, validate=True)
    nlp.initialize()
    assert nlp.pipe_names == [
        "textanon_entity_recognizer",
        "textanon_allow_deny",
        "textanon_entity_linker",
        "textanon_lm_risk",
        "textanon_optimizer",
    ]
    assert nlp.get_pipe_config("textanon_entity_recognizer")["label_map"] == dict(
        Language.get_factory_meta("textanon_entity_recognizer").default_config["label_map"]
    )
    nlp.to_disk(tmp_path / "model")
    assert (tmp_path / "model" / "textanon_optimizer" / "cfg.json").is_file()
    loaded = spacy.load(tmp_path / "model")
    assert loaded.config.to_str() == nlp.config.to_str()
    text = "Mr Ion Rusu, born on 3 March 1961, is a lawyer in Balti; his application no. 12345/06 was heard."
    doc, again = nlp(text), loaded(text)
    assert doc._.anonymized_text == again._.anonymized_text and "12345/06" not in doc._.anonymized_text
