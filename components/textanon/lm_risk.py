"""``textanon_lm_risk``: information content of entities and risky entity combinations.

For every span of ``doc.spans[spans_key]`` the language model gives ln p(span | context) (sum over
its sub-word tokens); ``span._.ic`` = -ln p in nats. An entity's log-probability is that of its
most informative mention. Combinations of up to ``max_combination_size`` entities whose summed
log10-probability is below ``threshold`` are written to ``doc._.risky_combinations``.
If the language model fails, every entity is treated as a risk on its own (fail closed).
"""
import logging
import math
from typing import Dict, Optional

import srsly
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import ensure_path

from .extensions import add_warning, register_extensions
from .lm.base import LanguageModel
from .risk_combinations import risky_combinations

logger = logging.getLogger(__name__)
LN10 = math.log(10.0)

DEFAULT_MODEL = {"@misc": "textanon.SmolLM2.v1"}


@Language.factory(
    "textanon_lm_risk",
    default_config={
        "model": DEFAULT_MODEL,
        "spans_key": "pii",
        "threshold": -3.5,
        "max_combination_size": 2,
        "max_combinations": 20000,
    },
    assigns=["span._.ic", "doc._.risky_combinations"],
    requires=["span._.entity_id"],
)
def make_lm_risk(nlp: Language, name: str, model: LanguageModel, spans_key: str, threshold: float,
                 max_combination_size: int, max_combinations: int) -> "LMRiskScorer":
    return LMRiskScorer(model, name, spans_key, threshold, max_combination_size, max_combinations)


class LMRiskScorer:
    """Scores entity surprisal with a language model and lists risky combinations.

    threshold: log10-probability below which an entity (or a combination) re-identifies.
    """

    def __init__(self, model: Optional[LanguageModel], name="textanon_lm_risk", spans_key="pii",
                 threshold=-3.5, max_combination_size=2, max_combinations=20000):
        register_extensions()
        if max_combination_size < 1:
            raise ValueError("max_combination_size must be >= 1")
        self.model, self.name, self.spans_key = model, name, spans_key
        self.threshold, self.max_combination_size, self.max_combinations = threshold, max_combination_size, max_combinations

    def __call__(self, doc: Doc) -> Doc:
        spans = list(doc.spans.get(self.spans_key, []))
        entity_ids = [s._.entity_id or f"span_{i}" for i, s in enumerate(spans)]
        if not spans:
            doc._.risky_combinations = []
            return doc
        try:
            logprobs = self.model.span_logprobs(doc.text, [(s.start_char, s.end_char) for s in spans], reduce="sum")
        except Exception as err:  # noqa: BLE001 — any model failure must fail closed
            logger.warning("language model failed on a document (%s); treating every entity as risky", type(err).__name__)
            add_warning(doc, f"{self.name}: language model failed ({type(err).__name__}); every entity treated as a risk")
            doc._.risky_combinations = [[e] for e in sorted(set(entity_ids))]
            return doc
        for span, lp in zip(spans, logprobs):
            span._.ic = -lp
        self.set_combinations(doc)
        return doc

    def set_combinations(self, doc: Doc) -> Doc:
        """(Re)compute ``doc._.risky_combinations`` from the ``span._.ic`` values and ``self.threshold``."""
        spans = list(doc.spans.get(self.spans_key, []))
        combos, bounded = risky_combinations(entity_log10_probs(spans), self.threshold, self.max_combination_size, self.max_combinations)
        if bounded:
            add_warning(doc, f"{self.name}: more than {self.max_combinations} risky combinations; their entities are masked")
        doc._.risky_combinations = combos
        return doc

    def pipe(self, docs, batch_size: int = 8):
        for doc in docs:
            yield self(doc)

    def _cfg(self) -> dict:
        return {"spans_key": self.spans_key, "threshold": self.threshold,
                "max_combination_size": self.max_combination_size, "max_combinations": self.max_combinations}

    def to_disk(self, path, *, exclude=tuple()) -> None:
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "cfg.json", self._cfg())

    def from_disk(self, path, *, exclude=tuple()) -> "LMRiskScorer":
        """Settings live in the pipeline config; ``cfg.json`` is only a record of them."""
        return self


def entity_log10_probs(spans) -> Dict[str, float]:
    """log10-probability of each entity: that of its most informative (highest-IC) mention."""
    entity_lp: Dict[str, float] = {}
    for i, span in enumerate(spans):
        eid = span._.entity_id or f"span_{i}"
        lp = -(span._.ic or 0.0) / LN10
        entity_lp[eid] = min(entity_lp.get(eid, 0.0), lp)
    return entity_lp
