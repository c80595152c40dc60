"""``textanon_lm_risk``: information content of entities and risky entity combinations.

For every span of ``doc.spans[spans_key]`` the language model gives ln p(span | context) (sum over
its sub-word tokens); ``span._.ic`` = -ln p in nats. An entity's log-probability is that of its
most informative mention. Combinations of up to ``max_combination_size`` entities whose summed
log10-probability is below ``threshold`` are written to ``doc._.risky_combinations``.
Unscored means risky: a span the model gave no score (no sub-word token, NaN, the model failed) keeps
``span._.ic = None`` and its entity is a risk on its own, also when the combinations are re-decided
later at another threshold (:func:`textanon.run.runner.redecide`, threshold sweeps); a warning says how many.
Entities the pipeline's optimizer masks whatever their risk (direct identifiers, the protected person's name:
``skip_forced``) are not scored at all: ``ic`` None as well, without a warning. The docs of ``nlp.pipe``
are scored together (the model batches their windows).
"""

import logging
import math
from typing import Callable, Iterable, Iterator, List, Optional, Set, Tuple, Union

from spacy.tokens import Doc, Span
from spacy.util import minibatch

from textanon.costs import LN10, THRESHOLD_KEY, entity_log10_probs, scored_ic  # noqa: F401  (also importable here)
from textanon.extensions import DEFAULT_SPANS_KEY, add_warning, register_extensions
from textanon.risk.combinations import risky_combinations
from textanon.risk.language_models.base import LanguageModel
from textanon.settings.serialization import SettingsRecord

logger = logging.getLogger(__name__)

DEFAULT_MODEL = {"@misc": "textanon.SmolLM2Scorer.v1"}
#: ``doc.user_data`` key: how many warnings the doc had when its first risk decision began
DECISION_MARK = "textanon.warnings_before_decision"
#: ``doc.user_data`` key: ids of the entities left unscored because the optimizer always masks them
NOT_SCORED = "textanon.entities_not_scored"


class LMRiskScorer(SettingsRecord):
    """Scores entity surprisal with a language model and lists risky combinations.

    threshold: log10-probability below which an entity (or a combination) re-identifies.
    skip_forced: leave unscored (``ic`` None: a risk on its own) the entities that the pipeline's optimizer
        masks whatever their risk (direct identifiers, the protected person's name): they need no forward pass.
    """

    SETTINGS = ("spans_key", "threshold", "max_combination_size", "max_combinations", "skip_forced")

    def __init__(
        self,
        model: Optional[LanguageModel],
        name: str = "textanon_lm_risk",
        spans_key: str = DEFAULT_SPANS_KEY,
        threshold: float = -2.0,
        max_combination_size: int = 2,
        max_combinations: int = 20000,
        skip_forced: bool = True,
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
        self.skip_forced = skip_forced
        #: ``doc -> entity ids always masked`` (set by the optimizer's factory); None: every span is scored
        self.forced_entities: Optional[Callable[[Doc], Iterable[str]]] = None

    def __call__(self, doc: Doc) -> Doc:
        self._score([doc])
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 8) -> Iterator[Doc]:
        """Score ``batch_size`` docs at a time: the language model batches the windows of all of them together
        (:meth:`~textanon.risk.language_models.base.LanguageModel.span_token_logprobs_many`); same values as one
        call per doc."""
        for batch in minibatch(docs, size=max(1, batch_size)):
            self._score(batch)
            yield from batch

    def _score(self, docs: List[Doc]) -> None:
        """Set ``span._.ic`` of the spans of ``docs`` that need a score and the docs' risky combinations."""
        todo = []  # (doc, spans to score)
        for doc in docs:
            doc.user_data.pop(DECISION_MARK, None)  # a fresh scoring: the decision starts again below
            doc.user_data.pop(NOT_SCORED, None)
            spans = list(doc.spans.get(self.spans_key, []))
            for span in spans:
                span._.ic = None
            if not spans:
                doc._.risky_combinations = []
                continue
            skipped = self._always_masked(doc)
            if skipped:
                doc.user_data[NOT_SCORED] = sorted(skipped)
            todo.append((doc, [s for i, s in enumerate(spans) if (s._.entity_id or f"span_{i}") not in skipped]))
        scoring = [(doc, spans) for doc, spans in todo if spans]
        for (doc, spans), token_lps in zip(scoring, self._logprobs(scoring)):
            if isinstance(token_lps, str):  # the model failed on this doc: every entity is a risk
                logger.warning("language model failed on a document (%s); treating every entity as risky", token_lps)
                add_warning(doc, f"{self.name}: language model failed ({token_lps}); every entity treated as a risk")
                continue
            for span, lps in zip(spans, token_lps):
                span._.ic = scored_ic(-float(sum(lps))) if len(lps) else None
        for doc, _ in todo:
            self.set_combinations(doc)

    def _logprobs(self, scoring: List[Tuple[Doc, List[Span]]]) -> List[Union[list, str]]:
        """Token log-probs of the spans of each doc from one language-model call; when that call fails, each doc
        alone, so that only a doc the model fails on gets, in place of its scores, the error's type name."""
        requests = [(doc.text, [(s.start_char, s.end_char) for s in spans]) for doc, spans in scoring]
        if not requests:
            return []
        many = getattr(self.model, "span_token_logprobs_many", None)
        try:
            if many is None:
                out = [self.model.span_token_logprobs(text, spans) for text, spans in requests]
            else:
                out = many(requests)
            if len(out) != len(requests) or any(len(o) != len(r[1]) for o, r in zip(out, requests)):
                raise ValueError(f"{sum(map(len, out))} scores for {sum(len(r[1]) for r in requests)} spans")
            return out
        except Exception as err:  # noqa: BLE001 — any model failure must fail closed
            if len(scoring) == 1:
                return [type(err).__name__]
        return [result for item in scoring for result in self._logprobs([item])]

    def _always_masked(self, doc: Doc) -> Set[str]:
        """Entity ids the pipeline's optimizer masks whatever their risk (``forced_entities``, set by the
        optimizer's factory), which need no score; none when ``skip_forced`` is off or that lookup fails."""
        if not self.skip_forced or self.forced_entities is None:
            return set()
        try:
            return set(self.forced_entities(doc))
        except Exception as err:  # noqa: BLE001 — score everything: scoring more never masks less
            logger.info("forced-entity lookup failed (%s); every span is scored", type(err).__name__)
            return set()

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
        not_scored = set(doc.user_data.get(NOT_SCORED, []))  # always masked: left unscored on purpose
        unscored = sum(1 for eid, lp in logprobs.items() if lp == -math.inf and eid not in not_scored)
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


def warnings_before_decision(doc: Doc) -> List[str]:
    """The doc's warnings recorded before its first risk decision (all of them if it had none yet)."""
    warnings = list(doc._.anonymization_warnings or [])
    return warnings[: doc.user_data.get(DECISION_MARK, len(warnings))]
