"""``textanon_optimizer``: the least informative masking that breaks every risky combination.

CP-SAT program (OR-Tools): one boolean per entity, minimize sum(IC(e) * masked(e)) subject to
``sum(masked(e) for e in c) >= 1`` for every risky combination ``c``. Direct identifiers are fixed
to masked: the protected person's mentions (``doc._.target`` or the ``target`` setting; if unknown,
every PERSON entity with a full name) and every CODE entity; spans of ``doc.spans["llm_pii"]`` too,
if present. On timeout or infeasibility the optimizer fails closed: every entity that occurs in an
unresolved combination is masked, and ``doc._.anonymization_warnings`` says so.
"""
import logging
import re
from typing import Dict, List, Optional, Set

import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import ensure_path

from .entity_linker import name_parts
from .extensions import add_warning, register_extensions
from .labels import CODE, PERSON
from .masking import REPLACEMENT_STYLES, apply, merge, propagate, replacement

logger = logging.getLogger(__name__)
IC_SCALE = 1000  # CP-SAT needs integer costs: IC in milli-nats
DEFAULT_IC = 10.0  # cost of a mention the risk scorer did not score


@Language.factory(
    "textanon_optimizer",
    default_config={
        "spans_key": "pii",
        "extra_spans_keys": ["llm_pii"],
        "target": None,
        "replacement": "suppression",
        "suppression_string": "***",
        "time_limit_s": 10.0,
        "mask_codes": True,
        "propagate_mentions": True,
    },
    assigns=["span._.masked", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"],
    requires=["span._.entity_id"],
)
def make_optimizer(nlp: Language, name: str, spans_key: str, extra_spans_keys: List[str], target: Optional[str],
                   replacement: str, suppression_string: str, time_limit_s: float, mask_codes: bool,
                   propagate_mentions: bool) -> "MaskingOptimizer":
    return MaskingOptimizer(name, spans_key, extra_spans_keys, target, replacement, suppression_string,
                            time_limit_s, mask_codes, propagate_mentions)


class MaskingOptimizer:
    """Chooses which entities to mask and writes the anonymized text."""

    def __init__(self, name="textanon_optimizer", spans_key="pii", extra_spans_keys=("llm_pii",), target=None,
                 replacement="suppression", suppression_string="***", time_limit_s=10.0, mask_codes=True,
                 propagate_mentions=True):
        register_extensions()
        if replacement not in REPLACEMENT_STYLES:
            raise ValueError(f"replacement must be one of {REPLACEMENT_STYLES}, got {replacement!r}")
        self.name, self.spans_key, self.extra_spans_keys = name, spans_key, list(extra_spans_keys)
        self.target, self.replacement, self.suppression_string = target, replacement, suppression_string
        self.time_limit_s, self.mask_codes, self.propagate_mentions = time_limit_s, mask_codes, propagate_mentions

    def __call__(self, doc: Doc) -> Doc:
        spans = list(doc.spans.get(self.spans_key, []))
        entities: Dict[str, List[Span]] = {}
        for i, span in enumerate(spans):
            entities.setdefault(span._.entity_id or f"span_{i}", []).append(span)
        combos = [c for c in (doc._.risky_combinations or []) if c]
        forced = self._direct_identifiers(doc, entities)
        # must-mask spans (e.g. the LLM anonymizer's) that overlap no entity are masked as they are
        for key in self.extra_spans_keys:
            for i, extra in enumerate(doc.spans.get(key, [])):
                if not any(m.start < extra.end and extra.start < m.end for ms in entities.values() for m in ms):
                    entities[f"{key}_{i}"] = [extra]
                    forced.add(f"{key}_{i}")
        masked = self._solve(doc, entities, combos, forced)
        for eid, mentions in entities.items():
            for span in mentions:
                span._.masked = eid in masked
        self._render(doc, entities, masked)
        return doc

    # -- decisions ---------------------------------------------------------------------------
    def _direct_identifiers(self, doc: Doc, entities: Dict[str, List[Span]]) -> Set[str]:
        forced: Set[str] = set()
        target = doc._.target or self.target
        target_parts = set(name_parts(target)) if target else set()
        found_target = False
        for eid, mentions in entities.items():
            label = mentions[0].label_
            if label == CODE and self.mask_codes:
                forced.add(eid)
            elif label == PERSON:
                parts = [name_parts(m.text) for m in mentions]
                if target_parts and any(set(p) & target_parts and _is_name_of(p, target_parts) for p in parts):
                    forced.add(eid)
                    found_target = True
                elif not target_parts and any(len(p) >= 2 for p in parts):
                    forced.add(eid)
        if target_parts and not found_target:
            add_warning(doc, f"{self.name}: target not found among PERSON entities; every full person name is masked")
            forced |= {e for e, ms in entities.items() if ms[0].label_ == PERSON and any(len(name_parts(m.text)) >= 2 for m in ms)}
        forced |= _same_surname(entities, forced)
        for key in self.extra_spans_keys:
            for extra in doc.spans.get(key, []):
                forced |= {e for e, ms in entities.items() if any(m.start < extra.end and extra.start < m.end for m in ms)}
        return forced

    def _solve(self, doc: Doc, entities: Dict[str, List[Span]], combos: List[List[str]], forced: Set[str]) -> Set[str]:
        unresolved = [c for c in combos if not forced.intersection(c)]
        if not unresolved:
            return set(forced)
        from ortools.sat.python import cp_model

        ids = sorted({e for c in unresolved for e in c})
        unknown = [e for e in ids if e not in entities]
        if unknown:
            add_warning(doc, f"{self.name}: {len(unknown)} risky entity ids have no mention; masked by default")
        model = cp_model.CpModel()
        x = {e: model.NewBoolVar(e) for e in ids}
        for c in unresolved:
            model.AddBoolOr([x[e] for e in c])
        model.Minimize(sum(self._cost(entities.get(e, [])) * x[e] for e in ids))
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = float(self.time_limit_s)
        solver.parameters.num_workers = 1
        status = solver.Solve(model)
        if status == cp_model.OPTIMAL or status == cp_model.FEASIBLE:
            if status == cp_model.FEASIBLE:
                add_warning(doc, f"{self.name}: solver stopped at the time limit with a feasible, possibly non-minimal masking")
            return set(forced) | {e for e in ids if solver.BooleanValue(x[e])}
        add_warning(doc, f"{self.name}: solver status {solver.StatusName(status)}; every entity in a risky combination is masked")
        return set(forced) | set(ids)

    @staticmethod
    def _cost(mentions: List[Span]) -> int:
        total = sum(m._.ic if m._.ic is not None else DEFAULT_IC for m in mentions) or DEFAULT_IC
        return max(1, int(round(total * IC_SCALE)))

    # -- output --------------------------------------------------------------------------------
    def _render(self, doc: Doc, entities: Dict[str, List[Span]], masked: Set[str]) -> None:
        masks, surfaces = [], {}
        for eid in masked:
            for span in entities.get(eid, []):
                rep = replacement(self.replacement, span.label_, eid, self.suppression_string)
                masks.append((span.start_char, span.end_char, rep))
                surfaces.setdefault(re.sub(r"\s+", " ", span.text.strip()), rep)
        masks = propagate(doc.text, masks, surfaces) if self.propagate_mentions else merge(masks)
        doc._.masks = [list(m) for m in masks]
        doc._.anonymized_text = apply(doc.text, masks)

    def _cfg(self) -> dict:
        return {"spans_key": self.spans_key, "extra_spans_keys": self.extra_spans_keys, "target": self.target,
                "replacement": self.replacement, "suppression_string": self.suppression_string,
                "time_limit_s": self.time_limit_s, "mask_codes": self.mask_codes, "propagate_mentions": self.propagate_mentions}

    def to_disk(self, path, *, exclude=tuple()) -> None:
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "cfg.json", self._cfg())

    def from_disk(self, path, *, exclude=tuple()) -> "MaskingOptimizer":
        """Settings live in the pipeline config; ``cfg.json`` is only a record of them."""
        return self


def _is_name_of(parts: List[str], target_parts: Set[str]) -> bool:
    """A mention names the target if its surname is one of the target's name words."""
    return parts[-1] in target_parts


def _same_surname(entities: Dict[str, List[Span]], forced: Set[str]) -> Set[str]:
    """PERSON entities sharing a surname with a masked full name ("Petrescu" beside "Mr Andrei Petrescu")."""
    surnames = {name_parts(m.text)[-1] for e in forced for m in entities.get(e, []) if m.label_ == PERSON and len(name_parts(m.text)) >= 2}
    return {e for e, ms in entities.items() if ms[0].label_ == PERSON and any(name_parts(m.text)[-1] in surnames for m in ms)}
