"""``textanon_search_risk``: re-identification risk decided by a search index of public knowledge.

For a document (and its protected person, ``doc._.target``) the component asks an index of the public
knowledge an attacker would search (:mod:`textanon.risk.search`):

1. **candidates** (``candidates = true``): quasi-identifiers beyond the recognizer's entities — quoted
   titles, numbers, noun phrases, their content words (:mod:`textanon.risk.search.candidates`) — are added to
   ``doc.spans[spans_key]`` when the index says they are informative about the person;
2. **information content** (``ic_from_index = true``): every span the language model did not score gets
   ``span._.ic = -ln((df + 0.5) / (N + 1))`` from its document frequency: the optimizer's cost when no LM
   is in the pipeline;
3. **population risk** (:mod:`textanon.risk.search.population`): an entity found in fewer than ``k`` indexed
   documents, or a combination of up to ``max_combination_size`` entities found together in fewer than
   ``k``, is a risky combination;
4. **targeted risk** (:mod:`textanon.risk.search.targeted`): when the index holds documents about the target,
   entities are masked greedily, re-querying a BM25 attacker each time, until none of the target's
   documents ranks within the top ``k_rank`` for the text that stays visible.

Everything it decides goes to ``doc._.risky_combinations`` (appended to what an LM risk scorer wrote); the
optimizer then masks as usual. ``doc._.reid_rank`` records the target's rank before (the name masked) and
after (the masks this component requires); ``span._.risk_reasons`` says why each entity is a risk (counts
and ids, never text). The protected name itself is the optimizer's (always masked) and is not scored here.

Fail closed: when the index is missing, incompatible or fails while a document is processed, every
candidate is proposed unfiltered, every entity is a risk on its own and a warning says so (a failure half
way first undoes what the failed pass wrote, so the document fails closed as it came in). The component
keeps the index *source* (its path), never the index: ``to_disk`` writes only settings.

The index is the config's ``index`` block (a registered source: ``textanon.FrequencyPrior.v1``, the package's, or
``textanon.LocalIndex.v1``), or the folder ``index_path`` when it is set, which then replaces that block: one value,
which the search profile and ``--index`` set (``textanon.profiles``). A config override cannot swap a registered block
for another in every confection version (confection 0.1, which spaCy 3.8.7 installs, merges the new block's settings
into the old one's, and the prior's do not fit an index folder), so the index folder is its own setting.
"""

import logging
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import numpy as np
from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from textanon.costs import IC_SCALE, mask_cost
from textanon.detect.target import find_target_mentions, fold
from textanon.doc_text import text_of
from textanon.extensions import DEFAULT_SPANS_KEY, add_warning, register_extensions
from textanon.labels import MISC
from textanon.risk.search import registry  # noqa: F401  (textanon.LocalIndex.v1, which use_index names)
from textanon.risk.search.backends import open_index
from textanon.risk.search.base import IndexUnavailable, SearchIndex, memo_count
from textanon.risk.search.candidates import Candidate, informative, propose
from textanon.risk.search.information import bm25_idf, index_ic
from textanon.risk.search.population import PopulationRisk, population_risk
from textanon.risk.search.source import IndexSource, LocalIndex
from textanon.risk.search.targeted import Contributions, target_rank, unlink
from textanon.risk.search.terms import is_clitic_piece, query_word_spans
from textanon.settings.serialization import SettingsRecord

logger = logging.getLogger(__name__)
Char = Tuple[int, int]


class SearchRisk(SettingsRecord):
    """Population and targeted re-identification risk from a public-knowledge index (module docstring)."""

    SETTINGS = (
        "spans_key",
        "k",
        "max_combination_size",
        "max_queries",
        "k_rank",
        "candidates",
        "candidate_max_df",
        "candidate_rare_df",
        "candidate_max_words",
        "candidate_verbs_apart",
        "candidate_unseen",
        "ic_from_index",
        "assume_unindexed",
        "population_risk",
        "targeted_risk",
        "index_path",
    )

    def __init__(
        self,
        index: IndexSource,
        name: str = "textanon_search_risk",
        spans_key: str = DEFAULT_SPANS_KEY,
        k: int = 5,
        max_combination_size: int = 2,
        max_queries: int = 20000,
        k_rank: int = 30,
        candidates: bool = True,
        candidate_max_df: float = 0.25,
        candidate_rare_df: float = 0.02,
        candidate_max_words: int = 4,
        candidate_verbs_apart: bool = True,
        candidate_unseen: bool = False,
        ic_from_index: bool = True,
        assume_unindexed: float = 0.125,
        population_risk: bool = True,
        targeted_risk: bool = True,
        index_path: Optional[str] = None,
    ):
        register_extensions()
        if k < 1 or k_rank < 1 or max_combination_size < 1:
            raise ValueError("k, k_rank and max_combination_size must be >= 1")
        if assume_unindexed < 0:
            raise ValueError("assume_unindexed must be >= 0")
        self.index_path = None if index_path is None else str(index_path)
        if self.index_path is not None:
            index = LocalIndex(self.index_path)  # the index folder replaces the ``index`` block (module docstring)
        self.index, self.name, self.spans_key = index, name, spans_key
        self.k, self.max_combination_size, self.max_queries, self.k_rank = k, max_combination_size, max_queries, k_rank
        self.candidates, self.candidate_max_df, self.candidate_rare_df = candidates, candidate_max_df, candidate_rare_df
        self.candidate_max_words, self.candidate_unseen = candidate_max_words, candidate_unseen
        self.candidate_verbs_apart = candidate_verbs_apart
        self.ic_from_index = ic_from_index
        self.assume_unindexed = assume_unindexed
        self.population_risk, self.targeted_risk = population_risk, targeted_risk

    def __call__(self, doc: Doc) -> Doc:
        try:
            index = self.index.open()
        except IndexUnavailable as err:
            logger.warning("search index unavailable (%s); every candidate is a risk", type(err).__name__)
            return self._fail_closed(doc, f"search index unavailable ({type(err).__name__})")
        restore = self._snapshot(doc)
        try:
            return self._decide(doc, index)
        except Exception as err:  # noqa: BLE001 — any index failure mid-document must fail closed
            logger.warning("search index failed on a document (%s); every candidate is a risk", type(err).__name__)
            restore()
            return self._fail_closed(doc, f"search index failed ({type(err).__name__})")

    def pipe(self, docs, batch_size: int = 8):
        """Decide each doc in turn."""
        for doc in docs:
            yield self(doc)

    # -- decisions -----------------------------------------------------------------------------
    def _decide(self, doc: Doc, index: SearchIndex) -> Doc:
        count = memo_count(index)
        n_docs = index.n_docs
        target = doc._.target
        names = find_target_mentions(text_of(doc), target) if target else []
        target_docs = index.documents_of(target) if target else []
        if self.candidates:
            self._add_candidates(doc, index, count, names, target_docs)
        entities = self._entities(doc, names)
        if self.ic_from_index:
            for mentions in entities.values():
                for span in mentions:
                    if span._.ic is None:
                        span._.ic = index_ic(count([span.text]), n_docs)
        population = (
            population_risk(
                count,
                {e: [m.text for m in ms] for e, ms in entities.items()},
                self.k,
                self.max_combination_size,
                self.max_queries,
            )
            if self.population_risk
            else PopulationRisk()
        )
        reasons: Dict[str, List[str]] = {}
        combos: List[List[str]] = []
        for eid in population.singles:
            combos.append([eid])
            reasons.setdefault(eid, []).append(f"population: in {population.hits[eid]} indexed documents (k={self.k})")
        k = self.k
        for ids, hits in population.combinations:  # thousands of pairs in a court case: the pair's two reasons directly
            combos.append(ids)
            if len(ids) == 2 and ids[0] != ids[1]:
                first, second = ids
                reasons.setdefault(first, []).append(f"population: in {hits} indexed documents with {second} (k={k})")
                reasons.setdefault(second, []).append(f"population: in {hits} indexed documents with {first} (k={k})")
                continue
            for eid in ids:
                others = ", ".join(e for e in ids if e != eid)
                reasons.setdefault(eid, []).append(f"population: in {hits} indexed documents with {others} (k={k})")
        for eid in population.bounded:
            combos.append([eid])
            reasons.setdefault(eid, []).append(f"population: combinations past the bound of {self.max_queries} queries")
        if population.bounded:
            add_warning(
                doc,
                f"{self.name}: more than {self.max_queries} index queries for combinations; "
                f"{len(population.bounded)} entities left unexamined are masked",
            )
        forced = set(population.singles) | set(population.bounded)
        if self.targeted_risk:
            doc._.reid_rank = self._targeted(doc, index, count, entities, names, target_docs, forced, combos, reasons)
        else:
            doc._.reid_rank = None
        for eid, mentions in entities.items():
            for span in mentions:
                span._.risk_reasons = reasons.get(eid)
        doc._.risky_combinations = list(doc._.risky_combinations or []) + combos
        return doc

    def _targeted(
        self,
        doc: Doc,
        index: SearchIndex,
        count,
        entities: Dict[str, List[Span]],
        names: List[Char],
        target_docs: List[int],
        forced: Set[str],
        combos: List[List[str]],
        reasons: Dict[str, List[str]],
    ) -> Optional[dict]:
        """Greedy unlinking against the BM25 attacker; ``doc._.reid_rank`` (None without target documents)."""
        if not target_docs:
            return None
        text = text_of(doc)
        occurrences = query_word_spans(text)
        words = [w for _, _, w in occurrences]
        starts = np.array([s for s, _, _ in occurrences], dtype=np.int64)
        ends = np.array([e for _, e, _ in occurrences], dtype=np.int64)

        def covering(chars: Sequence[Char]) -> Set[int]:
            """The occurrences that overlap one of ``chars`` (character ranges)."""
            if not chars or not len(starts):
                return set()
            lo = np.array([a for a, _ in chars], dtype=np.int64)[:, None]
            hi = np.array([b for _, b in chars], dtype=np.int64)[:, None]
            return set(np.flatnonzero(((lo < ends) & (starts < hi)).any(axis=0)).tolist())

        in_entities = {(m.start_char, m.end_char) for ms in entities.values() for m in ms}
        protected = [
            (s.start_char, s.end_char)
            for s in doc.spans.get(self.spans_key, [])
            if (s.start_char, s.end_char) not in in_entities
        ]
        name_words = covering(names)  # the name, and the entities around it (the optimizer masks both)
        entity_words = {eid: sorted(covering([(m.start_char, m.end_char) for m in ms])) for eid, ms in entities.items()}
        limit = self.k_rank + len(target_docs) + 10
        visible = [w for i, w in enumerate(words) if i not in name_words]
        contributions = Contributions(index)  # each word's BM25 scores, asked once for this text and the attacker
        before = target_rank(contributions.search(list(dict.fromkeys(visible)), limit), set(target_docs))
        masked = set(name_words) | covering(protected)
        masked = masked.union(*(entity_words[e] for e in forced if e in entity_words))
        costs = {eid: mask_cost(ms) / IC_SCALE for eid, ms in entities.items()}
        candidates = {eid: ws for eid, ws in entity_words.items() if eid not in forced and ws}
        covered = set(masked).union(*candidates.values()) if candidates else set(masked)
        loose: Dict[str, List[int]] = {}  # visible words no entity covers: the attacker's last resort
        for i, w in enumerate(words):
            # a piece of a contraction ("m" of "I'm", "t" of "won't") stays: the attacker still counts it
            if i not in covered and not is_clitic_piece(text, int(starts[i]), int(ends[i])):
                loose.setdefault(w, []).append(i)
        word_ids = {f"MISC_w{n}": w for n, w in enumerate(loose)}
        for wid, w in word_ids.items():
            candidates[wid] = loose[w]
            costs[wid] = index_ic(count([w]), index.n_docs) * len(loose[w])
        prior = self.attacker_prior(index, count)
        result = unlink(
            index, words, candidates, masked, costs, target_docs, self.k_rank, prior=prior, contributions=contributions
        )
        group = _Group(doc, self.spans_key) if result.steps else None
        for n, step in enumerate(result.steps, start=1):
            if step.entity in word_ids:
                made, inside = self._add_word_spans(
                    doc, group, step.entity, [occurrences[i][:2] for i in candidates[step.entity]], costs[step.entity]
                )
                for eid in sorted(inside):  # an occurrence inside a detected span: that entity is masked
                    combos.append([eid])
                    reasons.setdefault(eid, []).append(f"targeted: step {n}, holds a word to mask")
                if not made:
                    continue
            combos.append([step.entity])
            reasons.setdefault(step.entity, []).append(
                f"targeted: step {n}, the target's BM25 rank {_rank_str(step.rank_before)} -> "
                f"{_rank_str(step.rank_after)} (k_rank={self.k_rank})"
            )
            for span, entity_id in group.entries:
                if entity_id == step.entity:
                    entities.setdefault(step.entity, [])
                    if span not in entities[step.entity]:
                        entities[step.entity].append(span)
        if group is not None and group.changed:
            doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=[s for s, _ in group.entries])
        if result.exhausted:
            add_warning(
                doc,
                f"{self.name}: the target's documents still rank {_rank_str(result.rank_after)} (within "
                f"the top {self.k_rank}) once every candidate that lowers their score is masked",
            )
        return {
            "before": before,
            "after": result.rank_after,
            "k_rank": self.k_rank,
            "ranked": limit,
            "target_documents": len(target_docs),
            "steps": len(result.steps),
        }

    def attacker_prior(self, index: SearchIndex, count) -> Optional[Callable[[str], float]]:
        """The stronger attacker's prior of :func:`textanon.risk.search.targeted.unlink` (``assume_unindexed`` times a
        word's BM25 weight at one occurrence), None when ``assume_unindexed`` is 0."""
        if self.assume_unindexed <= 0:
            return None
        weight, n_docs = self.assume_unindexed, index.n_docs
        return lambda w: weight * bm25_idf(count([w]), n_docs)

    def _add_word_spans(
        self, doc: Doc, group: "_Group", eid: str, chars: List[Char], cost: float
    ) -> Tuple[int, Set[str]]:
        """Spans (label MISC, source ``candidate:word``) for the occurrences of a word the targeted risk masks, added
        to ``group`` (the span group as it stands, written back once by the caller): (spans made, ids of the detected
        entities whose spans hold an occurrence that could not be one)."""
        taken = {(s.start_char, s.end_char): e or f"span_{i}" for i, (s, e) in enumerate(group.entries)}
        new, inside, lost = [], set(), 0
        for start, end in chars:
            span = doc.char_span(start, end, label=MISC, alignment_mode="expand")
            if span is None or any(s < span.end_char and span.start_char < e for s, e in taken):
                span = doc.char_span(start, end, label=MISC, alignment_mode="contract")
            if span is None or not len(span) or any(s < span.end_char and span.start_char < e for s, e in taken):
                holders = {i for (s, e), i in taken.items() if s < end and start < e}
                inside |= holders
                lost += not holders
                continue
            span._.source, span._.entity_id, span._.ic = "candidate:word", eid, cost / max(1, len(chars))
            taken[(span.start_char, span.end_char)] = eid
            new.append(span)
        if lost:
            add_warning(
                doc, f"{self.name}: {lost} occurrences of a word to mask could not be made spans; they may stay visible"
            )
        group.add(new, eid)
        return len(new), inside

    def _entities(self, doc: Doc, names: List[Char]) -> Dict[str, List[Span]]:
        """Entity id -> mentions (the optimizer's grouping), without the protected name's entities."""
        entities: Dict[str, List[Span]] = {}
        for i, span in enumerate(doc.spans.get(self.spans_key, [])):
            entities.setdefault(span._.entity_id or f"span_{i}", []).append(span)
        return {
            eid: ms
            for eid, ms in entities.items()
            if not any(m._.source == "target" or any(m.start_char < e and s < m.end_char for s, e in names) for m in ms)
        }

    def _add_candidates(
        self, doc: Doc, index: Optional[SearchIndex], count, names: List[Char], target_docs: List[int]
    ) -> int:
        """Add the informative candidates (all of them when ``index`` is None) to the span group."""
        spans = list(doc.spans.get(self.spans_key, []))
        taken = [(s.start_char, s.end_char) for s in spans] + list(names)
        proposed = propose(doc, taken, self.candidate_max_words, self.candidate_verbs_apart)
        n_docs = index.n_docs if index is not None else 0
        text = text_of(doc)

        def keep(start: int, end: int, word: bool) -> bool:
            if index is None:
                return True
            phrase = text[start:end]
            df = count([phrase])
            if df == 0:  # the index cannot tell: a single word the index never saw is rare (candidate_unseen)
                return word and self.candidate_unseen
            in_target = bool(index.term_scores(phrase, target_docs)) if target_docs else None
            return informative(df, n_docs, in_target, self.candidate_max_df, self.candidate_rare_df)

        kept: List[Tuple[int, int, Candidate]] = []

        def consider(cand: Candidate) -> None:  # whole, else its fall-back candidates, else its single words
            if keep(cand.start, cand.end, len(cand.words) <= 1 and not cand.fallback):
                kept.append((cand.start, cand.end, cand))
            elif cand.fallback:
                for other in cand.fallback:
                    consider(other)
            elif len(cand.words) > 1:
                kept.extend((s, e, cand) for s, e in cand.words if keep(s, e, True))

        for cand in proposed:
            consider(cand)
        ids = {fold(" ".join(s.text.split())): s._.entity_id for s in spans if s._.entity_id}
        new = []
        for start, end, cand in kept:
            span = doc.char_span(start, end, label=cand.label, alignment_mode="contract")
            if span is None or not len(span):
                continue
            key = fold(" ".join(span.text.split()))
            span._.source = f"candidate:{cand.kind}"
            span._.entity_id = ids.setdefault(key, f"{cand.label}_c{len(ids)}")
            new.append(span)
        if new:
            group = sorted(spans + new, key=lambda s: (s.start, s.end))
            doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=group)
        return len(new)

    def _snapshot(self, doc: Doc) -> Callable[[], None]:
        """A function that puts back what :meth:`_decide` writes on ``doc`` (the span group, the spans' IC, the
        risk extensions, the warnings): after a failure half way the document fails closed as it came in, not
        from a part-filtered group (whose split phrases would no longer be proposed whole)."""
        had_group = self.spans_key in doc.spans
        spans = list(doc.spans.get(self.spans_key, []))
        values = [(span._.ic, span._.risk_reasons) for span in spans]
        combos, rank, warnings = doc._.risky_combinations, doc._.reid_rank, doc._.anonymization_warnings
        warnings = list(warnings) if warnings is not None else None

        def restore() -> None:
            kept = {(s.start_char, s.end_char, s.label_) for s in spans}
            for span in doc.spans.get(self.spans_key, []):
                if (span.start_char, span.end_char, span.label_) not in kept:  # added by the failed decision
                    span._.ic = span._.source = span._.entity_id = span._.risk_reasons = None
            for span, (ic, reasons) in zip(spans, values):
                span._.ic, span._.risk_reasons = ic, reasons
            if had_group:
                doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=spans)
            elif self.spans_key in doc.spans:
                del doc.spans[self.spans_key]
            doc._.risky_combinations, doc._.reid_rank, doc._.anonymization_warnings = combos, rank, warnings

        return restore

    def _fail_closed(self, doc: Doc, why: str) -> Doc:
        """Every candidate proposed unfiltered, every entity a risk on its own (once), a warning."""
        names = find_target_mentions(text_of(doc), doc._.target) if doc._.target else []
        if self.candidates:
            self._add_candidates(doc, None, None, names, [])
        entities = self._entities(doc, names)
        for mentions in entities.values():
            for span in mentions:
                span._.risk_reasons = [f"fail closed: {why}"]
        combos = list(doc._.risky_combinations or [])
        doc._.risky_combinations = combos + [[e] for e in sorted(entities) if [e] not in combos]
        doc._.reid_rank = None
        add_warning(doc, f"{self.name}: {why}; every candidate ({len(entities)} entities) treated as a risk")
        return doc

    # -- serialization -------------------------------------------------------------------------
    def _cfg(self) -> dict:
        """The settings and the index source's (its path): never the index."""
        return {"index": self.index.settings(), **super()._cfg()}


class _Group:
    """The span group of the targeted steps, kept as (span, entity id) pairs while words' spans are added: each
    addition sorts it by token offsets (stably), as writing it back each time would; the caller writes it back once."""

    def __init__(self, doc: Doc, key: str):
        self.entries: List[Tuple[Span, Optional[str]]] = [(s, s._.entity_id) for s in doc.spans.get(key, [])]
        self.changed = False

    def add(self, spans: List[Span], eid: str) -> None:
        self.entries = sorted(self.entries + [(s, eid) for s in spans], key=lambda e: (e[0].start, e[0].end))
        self.changed = True


def _rank_str(rank: Optional[int]) -> str:
    return "beyond the ranked results" if rank is None else str(rank)


#: the factory name, for pointing a loaded pipeline at an index (``textanon anonymize --index DIR``)
COMPONENT = "textanon_search_risk"


def use_index(nlp: Language, path: Union[str, Path]) -> str:
    """Make ``nlp`` decide with the search risk over the index at ``path``; returns what was done.

    The index is opened first: a missing or incompatible one raises
    :class:`~textanon.risk.search.base.IndexUnavailable` before any document is read. A pipeline that has the
    search risk gets the new index path (its other settings kept); otherwise the search risk, with its
    default settings, takes the place of ``textanon_lm_risk`` (no language model runs), or is added before
    ``textanon_optimizer``."""
    index = open_index(path)
    n_docs = index.n_docs
    if COMPONENT in nlp.pipe_names:
        configure(nlp, {"index_path": str(path)})
        return f"search risk over {path} ({n_docs} documents)"
    if "textanon_optimizer" not in nlp.pipe_names:
        raise ValueError("the pipeline has no textanon_optimizer: the search risk's decisions would not be applied")
    replaced = "textanon_lm_risk" in nlp.pipe_names
    if replaced:
        nlp.remove_pipe("textanon_lm_risk")
    source = {"@misc": "textanon.LocalIndex.v1", "path": str(path)}
    nlp.add_pipe(COMPONENT, before="textanon_optimizer", config={"index": source})
    how = "in place of the language-model risk" if replaced else "added before the optimizer"
    return f"search risk over {path} ({n_docs} documents) {how}"


def configure(nlp: Language, settings: Dict[str, object]) -> Dict[str, object]:
    """Replace ``nlp``'s search risk by one with ``settings`` changed (its other settings, its index source and
    its place kept); returns the settings it had before (to restore them the same way)."""
    config = dict(nlp.get_pipe_config(COMPONENT))
    config.pop("factory", None)
    before = {k: config.get(k) for k in settings}
    nlp.replace_pipe(COMPONENT, COMPONENT, config=dict(config, **settings))
    return before
