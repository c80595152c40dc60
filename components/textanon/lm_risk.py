"""``textanon_lm_risk``: information content of entities and risky entity combinations.

For every span of ``doc.spans[spans_key]`` the language model gives ln p(span | context) (sum over
its sub-word tokens); ``span._.ic`` = -ln p in nats. An entity's log-probability is that of its
most informative mention. Combinations of up to ``max_combination_size`` entities whose summed
log10-probability is below ``threshold`` are written to ``doc._.risky_combinations``.
Unscored means risky: a span the model gave no score (no sub-word token, NaN, the model failed) keeps
``span._.ic = None`` and its entity is a risk on its own, also when the combinations are re-decided
later at another threshold (:func:`textanon.runner.redecide`, threshold sweeps); a warning says how many.
"""

import logging
import math
from typing import Dict, List, Optional

from spacy.language import Language
from spacy.tokens import Doc

from .extensions import DEFAULT_SPANS_KEY, add_warning, register_extensions
from .language_models.base import LanguageModel
from .risk_combinations import risky_combinations
from .serialization import SettingsRecord

logger = logging.getLogger(__name__)
LN10 = math.log(10.0)

DEFAULT_MODEL = {"@misc": "textanon.SmolLM2Scorer.v1"}
#: ``doc.user_data`` key: how many warnings the doc had when its first risk decision began
DECISION_MARK = "textanon.warnings_before_decision"
#: ``doc.user_data`` key: the threshold (log10) of the doc's latest risk decision (the optimizer's generalization rule)
THRESHOLD_KEY = "textanon.risk_threshold"


@Language.factory(
    "textanon_lm_risk",
    default_config={
        "model": DEFAULT_MODEL,
        "spans_key": DEFAULT_SPANS_KEY,
        "threshold": -2.0,
        "max_combination_size": 2,
        "max_combinations": 20000,
    },
    assigns=["span._.ic", "doc._.risky_combinations"],
    requires=["span._.entity_id"],
)
def make_lm_risk(
    nlp: Language,
    name: str,
    model: LanguageModel,
    spans_key: str,
    threshold: float,
    max_combination_size: int,
    max_combinations: int,
) -> "LMRiskScorer":
    """The ``textanon_lm_risk`` factory: an :class:`LMRiskScorer` with the settings of the config."""
    return LMRiskScorer(model, name, spans_key, threshold, max_combination_size, max_combinations)


class LMRiskScorer(SettingsRecord):
    """Scores entity surprisal with a language model and lists risky combinations.

    threshold: log10-probability below which an entity (or a combination) re-identifies.
    """

    SETTINGS = ("spans_key", "threshold", "max_combination_size", "max_combinations")

    def __init__(
        self,
        model: Optional[LanguageModel],
        name: str = "textanon_lm_risk",
        spans_key: str = DEFAULT_SPANS_KEY,
        threshold: float = -2.0,
        max_combination_size: int = 2,
        max_combinations: int = 20000,
    ):
        register_extensions()
        if max_combination_size < 1:
            raise ValueError("max_combination_size must be >= 1")
        self.model, self.name, self.spans_key = model, name, spans_key
        self.threshold, self.max_combination_size, self.max_combinations = (
            threshold,
            max_combination_size,
            max_combinations,
        )

    def __call__(self, doc: Doc) -> Doc:
        doc.user_data.pop(DECISION_MARK, None)  # a fresh scoring: the decision starts again below
        spans = list(doc.spans.get(self.spans_key, []))
        if not spans:
            doc._.risky_combinations = []
            return doc
        for span in spans:
            span._.ic = None
        try:
            token_lps = self.model.span_token_logprobs(doc.text, [(s.start_char, s.end_char) for s in spans])
            if len(token_lps) != len(spans):
                raise ValueError(f"{len(token_lps)} scores for {len(spans)} spans")
        except Exception as err:  # noqa: BLE001 — any model failure must fail closed
            logger.warning(
                "language model failed on a document (%s); treating every entity as risky", type(err).__name__
            )
            add_warning(
                doc, f"{self.name}: language model failed ({type(err).__name__}); every entity treated as a risk"
            )
            token_lps = [[] for _ in spans]
        for span, lps in zip(spans, token_lps):
            span._.ic = scored_ic(-float(sum(lps))) if len(lps) else None
        self.set_combinations(doc)
        return doc

    def set_combinations(self, doc: Doc, threshold: Optional[float] = None) -> Doc:
        """(Re)compute ``doc._.risky_combinations`` from the ``span._.ic`` values at ``threshold`` (default:
        the configured ``self.threshold``, which is never changed here: see ``runner.redecide``).

        An entity with an unscored mention (``ic`` None or NaN) is a risk on its own (fail closed)."""
        threshold = self.threshold if threshold is None else threshold
        # warnings recorded before the first decision (earlier components, the scoring): a re-decision
        # (runner.redecide) keeps them and replaces only what the decision itself wrote
        doc.user_data.setdefault(DECISION_MARK, len(doc._.anonymization_warnings or []))
        doc.user_data[THRESHOLD_KEY] = float(threshold)
        spans = list(doc.spans.get(self.spans_key, []))
        logprobs = entity_log10_probs(spans)
        unscored = sum(1 for lp in logprobs.values() if lp == -math.inf)
        if unscored:
            add_warning(
                doc,
                f"{self.name}: {unscored} of {len(logprobs)} entities have no information content "
                "(unscored); each is treated as a risk on its own",
            )
        combos, bounded = risky_combinations(logprobs, threshold, self.max_combination_size, self.max_combinations)
        if bounded:
            add_warning(
                doc, f"{self.name}: more than {self.max_combinations} risky combinations; their entities are masked"
            )
        doc._.risky_combinations = combos
        return doc

    def pipe(self, docs, batch_size: int = 8):
        """Score each doc in turn (one language-model call scores all the spans of a doc)."""
        for doc in docs:
            yield self(doc)


def warnings_before_decision(doc: Doc) -> List[str]:
    """The doc's warnings recorded before its first risk decision (all of them if it had none yet)."""
    warnings = list(doc._.anonymization_warnings or [])
    return warnings[: doc.user_data.get(DECISION_MARK, len(warnings))]


def scored_ic(ic) -> Optional[float]:
    """``ic`` as a float, or None when the span is unscored (None, NaN, infinite)."""
    if ic is None:
        return None
    try:
        value = float(ic)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def entity_log10_probs(spans) -> Dict[str, float]:
    """log10-probability of each entity: that of its most informative (highest-IC) mention;
    ``-inf`` (a certain risk) for an entity with an unscored mention (see :func:`scored_ic`). Occurrences of
    the protected name that the optimizer added (source ``target``) are skipped: they are always masked."""
    entity_lp: Dict[str, float] = {}
    for i, span in enumerate(spans):
        if span._.source == "target":
            continue
        eid = span._.entity_id or f"span_{i}"
        ic = scored_ic(span._.ic)
        lp = -math.inf if ic is None else -ic / LN10
        entity_lp[eid] = min(entity_lp.get(eid, 0.0), lp)
    return entity_lp
