"""The spaCy factories of every textanon pipeline component, registered here and only here (as spaCy's own
``spacy/pipeline/factories.py``); the component modules hold the component classes.

Every factory is registered one way, by :func:`register`::

    @register(NAME, X, assigns=[...], requires=[...])
    def make_x(nlp: Language, name: str, **settings: Any) -> X:
        return X(name=name, **settings)

which is ``Language.factory(NAME, default_config=defaults(X, X.SETTINGS), ...)`` over ``settings_from(X)``.

The config's defaults and the factory's signature (the settings, their types and defaults, which spaCy and
confection validate a config against) are read from the component constructor (:mod:`textanon.settings.signatures`):
a setting is declared once, there. A factory names a parameter itself only where the config's type differs from the
constructor's (``model``: a promise the config must give; a list where the constructor takes any sequence), and a
``default_config`` entry that is no constructor default is a promise's (``model``). The ``make_*`` functions are the
entry points of ``[project.entry-points.spacy_factories]`` (``spacy.load`` finds the factories without an import);
importing this module registers them all.
"""

from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar

from spacy.language import Language
from spacy.util import registry

from textanon.llm.task import AnonymizeTask
from textanon.pipes.allow_deny import AllowDenyLists, Entry
from textanon.pipes.attribute_ruler import IndexedAttributeRuler, model_patterns
from textanon.pipes.entity_linker import EntityLinker
from textanon.pipes.entity_recognizer import EntityRecognizer
from textanon.pipes.ents_to_spans import EntsToSpans
from textanon.pipes.generalizer import Generalizer
from textanon.pipes.llm_anonymizer import CACHE_SETTINGS, TASK_ARGS, TASK_SETTINGS, LLMAnonymizer
from textanon.pipes.llm_anonymizer import DEFAULT_MODEL as LLM_MODEL
from textanon.pipes.lm_risk import DEFAULT_MODEL as LM_MODEL
from textanon.pipes.lm_risk import LMRiskScorer
from textanon.pipes.optimizer import MaskingOptimizer
from textanon.pipes.search_risk import SearchRisk
from textanon.risk.language_models.base import LanguageModel
from textanon.settings.signatures import defaults, settings_from

F = TypeVar("F", bound=Callable[..., Any])

#: what the components after the linker require
ENTITY_IDS = ["span._.entity_id"]
#: what the search risk and the optimizer set
SEARCH_RISK_ASSIGNS = ["span._.ic", "span._.risk_reasons", "doc._.risky_combinations", "doc._.reid_rank"]
OPTIMIZER_ASSIGNS = ["span._.masked", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"]


def register(
    name: str,
    component: type,
    assigns: Sequence[str],
    requires: Sequence[str] = (),
    names: Optional[Sequence[str]] = None,
    default_config: Optional[Dict[str, Any]] = None,
    signature_of: Optional[type] = None,
) -> Callable[[F], F]:
    """The one way a textanon factory is registered: ``Language.factory(name)`` whose ``default_config`` is the
    defaults of ``component``'s settings (``component.SETTINGS``; ``default_config`` given: that, for promises and
    settings of two classes), over :func:`~textanon.settings.signatures.settings_from` (the signature: the settings
    ``names`` of ``signature_of`` or ``component``, all its constructor's parameters when None)."""
    config = defaults(component, component.SETTINGS) if default_config is None else default_config

    def decorate(make: F) -> F:
        signed = settings_from(signature_of or component, names=names)(make)
        factory = Language.factory(name, default_config=config, assigns=list(assigns), requires=list(requires))
        return factory(signed)

    return decorate


# -- detect ------------------------------------------------------------------------------------------------------


@Language.factory(
    "textanon_attribute_ruler",
    default_config={"validate": False, "scorer": {"@scorers": "spacy.attribute_ruler_scorer.v1"}},
)
def make_attribute_ruler(nlp: Language, name: str, validate: bool, scorer: Optional[Callable]) -> IndexedAttributeRuler:
    """The ``textanon_attribute_ruler`` factory: spaCy's ``attribute_ruler`` (its settings, patterns and scorer) whose
    matches come from an index of its patterns (:class:`IndexedAttributeRuler`): the same attributes, faster. Not
    :func:`register`'s: its settings are spaCy's."""
    return IndexedAttributeRuler(nlp.vocab, name, validate=validate, scorer=scorer)


@registry.misc("textanon.model_attribute_patterns.v1")
def model_attribute_patterns(model: str) -> List[dict]:
    """``[initialize.components.attribute_ruler] patterns``: the attribute ruler patterns of the installed pipeline
    ``model`` (en_core_web_sm's), read when the pipeline is assembled (:func:`model_patterns`)."""
    return model_patterns(model)


@register("textanon_entity_recognizer", EntityRecognizer, ["doc.spans"], names=EntityRecognizer.SETTINGS)
def make_entity_recognizer(
    nlp: Language,
    name: str,
    label_map: Dict[str, Optional[str]],
    model_labels: Optional[List[str]],
    **settings: Any,
) -> EntityRecognizer:
    """The ``textanon_entity_recognizer`` factory: an :class:`EntityRecognizer` with the settings of the config
    (``label_map``, ``model_labels``: a dict and a list in the config)."""
    return EntityRecognizer(nlp, name, label_map=label_map, model_labels=model_labels, **settings)


@register("textanon_ents_to_spans", EntsToSpans, ["doc.spans", "doc.ents"], names=EntsToSpans.SETTINGS)
def make_ents_to_spans(nlp: Language, name: str, **settings: Any) -> EntsToSpans:
    """The ``textanon_ents_to_spans`` factory: an :class:`EntsToSpans` with the settings of the config."""
    return EntsToSpans(name, **settings)


@register(
    "textanon_allow_deny", AllowDenyLists, ["doc.spans", "doc._.anonymization_warnings"], names=AllowDenyLists.SETTINGS
)
def make_allow_deny(nlp: Language, name: str, allow: List[Entry], deny: List[Entry], **settings: Any) -> AllowDenyLists:
    """The ``textanon_allow_deny`` factory: an :class:`AllowDenyLists` with the settings of the config (``allow``,
    ``deny``: lists in the config)."""
    return AllowDenyLists(name, allow=allow, deny=deny, **settings)


# -- link --------------------------------------------------------------------------------------------------------


@register("textanon_entity_linker", EntityLinker, ["span._.entity_id"], ["doc.spans"], names=EntityLinker.SETTINGS)
def make_entity_linker(nlp: Language, name: str, **settings: Any) -> EntityLinker:
    """The ``textanon_entity_linker`` factory: an :class:`EntityLinker` with the settings of the config."""
    return EntityLinker(name, **settings)


# -- score risk --------------------------------------------------------------------------------------------------


@register(
    "textanon_lm_risk",
    LMRiskScorer,
    ["span._.ic", "doc._.risky_combinations"],
    ENTITY_IDS,
    names=LMRiskScorer.SETTINGS,
    default_config={"model": LM_MODEL, **defaults(LMRiskScorer, LMRiskScorer.SETTINGS)},
)
def make_lm_risk(nlp: Language, name: str, model: LanguageModel, **settings: Any) -> LMRiskScorer:
    """The ``textanon_lm_risk`` factory: an :class:`LMRiskScorer` with the settings of the config, scoring with
    ``model`` (a promise: the config's ``[components.textanon_lm_risk.model]`` block)."""
    return LMRiskScorer(model, name, **settings)


@register("textanon_search_risk", SearchRisk, SEARCH_RISK_ASSIGNS, ENTITY_IDS)
def make_search_risk(nlp: Language, name: str, **settings: Any) -> SearchRisk:
    """The ``textanon_search_risk`` factory: a :class:`SearchRisk` with the settings of the config (its ``index``, a
    promise without a default, included: the config must give it)."""
    return SearchRisk(name=name, **settings)


# -- decide ------------------------------------------------------------------------------------------------------


@register("textanon_generalizer", Generalizer, ["span._.generalizations", "doc._.generalization_risk"], ENTITY_IDS)
def make_generalizer(nlp: Language, name: str, **settings: Any) -> Generalizer:
    """The ``textanon_generalizer`` factory: a :class:`Generalizer` with the settings of the config, reading the
    risk models of ``nlp``."""
    return Generalizer(nlp=nlp, name=name, **settings)


@register("textanon_optimizer", MaskingOptimizer, OPTIMIZER_ASSIGNS, ENTITY_IDS)
def make_optimizer(nlp: Language, name: str, **settings: Any) -> MaskingOptimizer:
    """The ``textanon_optimizer`` factory: a :class:`MaskingOptimizer` with the settings of the config; ``nlp``:
    where ``replacement = "generalize"`` finds the search risk that checks its output; the pipeline's risk scorer
    (``textanon_lm_risk`` before it, same ``spans_key``) leaves the entities this optimizer always masks unscored."""
    optimizer = MaskingOptimizer(name, nlp=nlp, **settings)
    for _, proc in nlp.components:
        if isinstance(proc, LMRiskScorer) and proc.spans_key == optimizer.spans_key:
            proc.forced_entities = optimizer.forced_entity_ids
    return optimizer


# -- the LLM detector --------------------------------------------------------------------------------------------


@register(
    "textanon_llm_anonymizer",
    LLMAnonymizer,
    ["doc.spans", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"],
    names=TASK_ARGS,
    default_config={
        **defaults(AnonymizeTask, ("design", "template_path")),
        "model": LLM_MODEL,
        **defaults(AnonymizeTask, TASK_SETTINGS),
        **defaults(LLMAnonymizer, CACHE_SETTINGS),
    },
    signature_of=AnonymizeTask,
)
def make_llm_anonymizer(
    nlp: Language,
    name: str,
    model: Callable,
    cache_dir: Optional[str],
    cache_batch_size: int,
    save_io: bool,
    validate_types: bool,
    **task_settings: Any,
) -> LLMAnonymizer:
    """The ``textanon_llm_anonymizer`` factory: the anonymization task built from its settings (``design``,
    ``template_path`` and ``TASK_SETTINGS``: :class:`AnonymizeTask`'s, with their types and defaults), around
    ``model``; ``cache_dir`` ... ``validate_types``: :class:`LLMAnonymizer`'s (defaults from its constructor)."""
    task = AnonymizeTask(component_name=name, **task_settings)
    return LLMAnonymizer(
        nlp,
        name,
        task,
        model,
        cache_dir=cache_dir,
        cache_batch_size=cache_batch_size,
        save_io=save_io,
        validate_types=validate_types,
    )
