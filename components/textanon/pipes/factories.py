"""The spaCy factories of every textanon pipeline component, registered here and only here (as spaCy's own
``spacy/pipeline/factories.py``); the component modules hold the component classes.

Every factory is registered one way::

    @Language.factory(NAME, default_config=defaults(X, X.SETTINGS), assigns=[...], requires=[...])
    @settings_from(X)
    def make_x(nlp: Language, name: str, **settings: Any) -> X:
        return X(name=name, **settings)

The config's defaults and the factory's signature (the settings, their types and defaults, which spaCy and
confection validate a config against) are read from the component constructor (:mod:`textanon.settings.signatures`):
a setting is declared once, there. A factory names a parameter itself only where the config's type differs from the
constructor's (``model``: a promise the config must give; a list where the constructor takes any sequence), and a
``default_config`` entry that is no constructor default is a promise's (``model``). The ``make_*`` functions are the
entry points of ``[project.entry-points.spacy_factories]`` (``spacy.load`` finds the factories without an import);
importing this module registers them all.
"""

from typing import Any, Callable, Dict, List, Optional

from spacy.language import Language

from textanon.llm.task import AnonymizeTask
from textanon.pipes.allow_deny import AllowDenyLists, Entry
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

# -- detect ------------------------------------------------------------------------------------------------------


@Language.factory(
    "textanon_entity_recognizer",
    default_config=defaults(EntityRecognizer, EntityRecognizer.SETTINGS),
    assigns=["doc.spans"],
)
@settings_from(EntityRecognizer, names=EntityRecognizer.SETTINGS)
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


@Language.factory(
    "textanon_ents_to_spans",
    default_config=defaults(EntsToSpans, EntsToSpans.SETTINGS),
    assigns=["doc.spans", "doc.ents"],
)
@settings_from(EntsToSpans, names=EntsToSpans.SETTINGS)
def make_ents_to_spans(nlp: Language, name: str, **settings: Any) -> EntsToSpans:
    """The ``textanon_ents_to_spans`` factory: an :class:`EntsToSpans` with the settings of the config."""
    return EntsToSpans(name, **settings)


@Language.factory(
    "textanon_allow_deny",
    default_config=defaults(AllowDenyLists, AllowDenyLists.SETTINGS),
    assigns=["doc.spans", "doc._.anonymization_warnings"],
)
@settings_from(AllowDenyLists, names=AllowDenyLists.SETTINGS)
def make_allow_deny(nlp: Language, name: str, allow: List[Entry], deny: List[Entry], **settings: Any) -> AllowDenyLists:
    """The ``textanon_allow_deny`` factory: an :class:`AllowDenyLists` with the settings of the config (``allow``,
    ``deny``: lists in the config)."""
    return AllowDenyLists(name, allow=allow, deny=deny, **settings)


# -- link --------------------------------------------------------------------------------------------------------


@Language.factory(
    "textanon_entity_linker",
    default_config=defaults(EntityLinker, EntityLinker.SETTINGS),
    assigns=["span._.entity_id"],
    requires=["doc.spans"],
)
@settings_from(EntityLinker, names=EntityLinker.SETTINGS)
def make_entity_linker(nlp: Language, name: str, **settings: Any) -> EntityLinker:
    """The ``textanon_entity_linker`` factory: an :class:`EntityLinker` with the settings of the config."""
    return EntityLinker(name, **settings)


# -- score risk --------------------------------------------------------------------------------------------------


@Language.factory(
    "textanon_lm_risk",
    default_config={"model": LM_MODEL, **defaults(LMRiskScorer, LMRiskScorer.SETTINGS)},
    assigns=["span._.ic", "doc._.risky_combinations"],
    requires=["span._.entity_id"],
)
@settings_from(LMRiskScorer, names=LMRiskScorer.SETTINGS)
def make_lm_risk(nlp: Language, name: str, model: LanguageModel, **settings: Any) -> LMRiskScorer:
    """The ``textanon_lm_risk`` factory: an :class:`LMRiskScorer` with the settings of the config, scoring with
    ``model`` (a promise: the config's ``[components.textanon_lm_risk.model]`` block)."""
    return LMRiskScorer(model, name, **settings)


@Language.factory(
    "textanon_search_risk",
    default_config=defaults(SearchRisk, SearchRisk.SETTINGS),
    assigns=["span._.ic", "span._.risk_reasons", "doc._.risky_combinations", "doc._.reid_rank"],
    requires=["span._.entity_id"],
)
@settings_from(SearchRisk)
def make_search_risk(nlp: Language, name: str, **settings: Any) -> SearchRisk:
    """The ``textanon_search_risk`` factory: a :class:`SearchRisk` with the settings of the config (its ``index``, a
    promise without a default, included: the config must give it)."""
    return SearchRisk(name=name, **settings)


# -- decide ------------------------------------------------------------------------------------------------------


@Language.factory(
    "textanon_generalizer",
    default_config=defaults(Generalizer, Generalizer.SETTINGS),
    assigns=["span._.generalizations", "doc._.generalization_risk"],
    requires=["span._.entity_id"],
)
@settings_from(Generalizer)
def make_generalizer(nlp: Language, name: str, **settings: Any) -> Generalizer:
    """The ``textanon_generalizer`` factory: a :class:`Generalizer` with the settings of the config, reading the
    risk models of ``nlp``."""
    return Generalizer(nlp=nlp, name=name, **settings)


@Language.factory(
    "textanon_optimizer",
    default_config=defaults(MaskingOptimizer, MaskingOptimizer.SETTINGS),
    assigns=["span._.masked", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"],
    requires=["span._.entity_id"],
)
@settings_from(MaskingOptimizer)
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


@Language.factory(
    "textanon_llm_anonymizer",
    default_config={
        **defaults(AnonymizeTask, ("design", "template_path")),
        "model": LLM_MODEL,
        **defaults(AnonymizeTask, TASK_SETTINGS),
        **defaults(LLMAnonymizer, CACHE_SETTINGS),
    },
    assigns=["doc.spans", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"],
)
@settings_from(AnonymizeTask, names=TASK_ARGS)
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
