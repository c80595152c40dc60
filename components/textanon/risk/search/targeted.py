"""Targeted risk: the attacker in the loop.

The attacker ranks the indexed documents by BM25 with the anonymized text as the query (its distinct
query words, :mod:`textanon.risk.search.terms`). The protected person is re-identified when one of their
documents ranks within the top ``k_rank``: it does when fewer than ``k_rank`` other documents score
strictly higher (ties go to the target: pessimistic).

:func:`unlink` masks greedily until the target falls out of the top ``k_rank``: at each step, among the
candidate entities not masked yet, the one whose masking lowers the target's margin most per unit of
information lost (its cost) — margin = best target score minus the ``k_rank``-th best other score, both
recomputed from each query word's BM25 contribution (BM25 is a sum over query words; a word leaves the
query only when none of its occurrences stays visible). When no candidate lowers the margin, the one that
lowers the target's own score most per unit of cost is taken. Then the attacker queries again with what
is left (the real ranking, not the estimate), and so on. It stops when the target is out of the top
``k_rank`` or when no candidate lowers the target's score (``exhausted``: the caller warns).

**A stronger attacker than the index** (``prior``): the index holds only part of what is public about the
target (e.g. a quarter of each body), while the attacker may know all of it — and a document about a
person mostly repeats what their public record says. With a ``prior``, every visible query word that none
of the target's indexed documents contains is assumed to be in them anyway, contributing ``prior(word)``
(e.g. a share of its BM25 weight at one occurrence) to the target's score; the target's rank is then
computed from those pessimistic scores against the other documents' real ones.
"""

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from textanon.risk.search.base import Hit, SearchIndex


@dataclass
class Step:
    """One masking decision: the entity and the target's rank before and after it."""

    entity: str
    rank_before: Optional[int]
    rank_after: Optional[int]


@dataclass
class Unlinking:
    """The outcome of :func:`unlink` (ranks: 1 = first; None = not within the ranked results)."""

    rank_before: Optional[int]
    rank_after: Optional[int]
    steps: List[Step] = field(default_factory=list)
    exhausted: bool = False
    queries: int = 0


def target_rank(hits: Sequence[Hit], targets: Set[int]) -> Optional[int]:
    """1 + the number of other documents scoring strictly above the best target document; None when no
    target document is among ``hits``."""
    best = max((s for d, s in hits if d in targets), default=None)
    if best is None:
        return None
    return 1 + sum(1 for d, s in hits if d not in targets and s > best)


#: the most documents of one word whose scores are all fetched at once (more: only the documents asked for)
MAX_WORD_DOCUMENTS = 20_000
#: document numbers below this go into :meth:`Contributions.matrix`'s (word, document) keys
_STRIDE = 1 << 32


class Contributions:
    """Cached BM25 contribution of each query word to each document of interest. A backend that lists a word's
    scores for every document holding it (``term_scores_all``) is asked once per word; the others per new
    document (the same scores either way)."""

    def __init__(self, index: SearchIndex):
        self.index, self.cache, self.queries = index, {}, 0
        self.complete: Dict[str, Dict[int, float]] = {}
        self.listing = getattr(index, "term_scores_all", None)
        self.query_key = getattr(index, "query_key", None)
        self.keys: Dict[str, Optional[str]] = {}  # word -> its query term (asked of the backend once per word)
        self.arrays: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
        self.table_ids: Dict[str, int] = {}  # listed word -> its id in the sorted table of :meth:`matrix`
        self.table: Optional[Tuple[np.ndarray, np.ndarray]] = None
        self.fits: Dict[str, bool] = {}

    def ranking(self, words: Sequence[str], limit: int) -> Optional[List[Hit]]:
        """The index's BM25 ranking of ``words`` (:meth:`SearchIndex.search`) computed from the words' complete
        listings, None when one is not listed (or the backend does not say which words are one query term,
        ``query_key``). BM25 is a sum over the query's terms: each document's score is its terms' scores added in
        query order, as the backend adds them (the same floats; ties, which the rank ignores, by document number)."""
        if self.query_key is None:
            return None
        terms: Dict[str, str] = {}
        for w in words:
            if w not in self.keys:
                self.keys[w] = self.query_key(w)
            key = self.keys[w]
            if key is not None:
                terms.setdefault(key, w)
        if not terms:
            return []
        if any(w not in self.complete for w in terms.values()):
            return None
        parts = [self._arrays(w) for w in terms.values()]
        documents = np.concatenate([d for d, _ in parts])
        if not len(documents):
            return []
        if documents.min() < 0:
            return None
        totals = np.bincount(documents, weights=np.concatenate([s for _, s in parts]))  # in order, per document
        found = np.flatnonzero(np.bincount(documents))  # the documents holding a word, in order (np.unique's)
        scores = totals[found]
        if len(found) > limit:  # the best ``limit`` and every document tied with the last of them, then ordered
            kth = np.partition(-scores, limit - 1)[limit - 1]
            found = found[-scores <= kth]
            scores = totals[found]
        order = np.lexsort((found, -scores))[:limit]
        return [(int(found[i]), float(scores[i])) for i in order]

    def search(self, words: Sequence[str], limit: int) -> List[Hit]:
        """The BM25 ranking of ``words`` (:meth:`SearchIndex.search`): from the words' listings, asked for once per word
        and kept (the same floats, :meth:`ranking`), else one query to the index (a backend that does not list a
        word's scores, or a word held by more than :data:`MAX_WORD_DOCUMENTS` documents)."""
        if not words:
            return []
        self.fetch(words)
        listed = self.ranking(words, limit)
        return listed if listed is not None else self.index.search(list(words), limit)

    def _arrays(self, word: str) -> Tuple[np.ndarray, np.ndarray]:
        if word not in self.arrays:
            every = self.complete[word]
            self.arrays[word] = (
                np.fromiter(every.keys(), dtype=np.int64, count=len(every)),
                np.fromiter(every.values(), dtype=np.float64, count=len(every)),
            )
        return self.arrays[word]

    def matrix(self, words: Sequence[str], docs: Sequence[int]) -> np.ndarray:
        """:meth:`get` as an array, row ``i`` the scores of ``words[i]``, column ``j`` those of ``docs[j]`` (0.0 where a
        document lacks the word: the same floats). The listed words are looked up at once in one sorted table of
        (word, document) keys; the others as :meth:`get` does."""
        self.fetch(words)
        out = np.zeros((len(words), len(docs)), dtype=np.float64)
        if not len(docs) or not len(words):
            return out
        columns = np.asarray(docs, dtype=np.int64)
        listed = [i for i, w in enumerate(words) if w in self.complete and self._in_table(w)]
        if listed and columns.min() >= 0 and columns.max() < _STRIDE:
            keys, values = self._table([words[i] for i in listed])
            ids = np.array([self.table_ids[words[i]] for i in listed], dtype=np.int64)
            wanted = (ids[:, None] * _STRIDE + columns[None, :]).ravel()
            at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1) if len(keys) else None
            found = (
                np.where(keys[at] == wanted, values[at], 0.0) if at is not None else np.zeros(len(wanted))
            ).reshape(len(listed), len(docs))
            out[listed] = found
            rest = sorted(set(range(len(words))) - set(listed))
        else:
            rest = list(range(len(words)))
        if rest:
            scores = self.get([words[i] for i in rest], docs)
            for i in rest:
                row = scores[words[i]]
                out[i] = [row[d] for d in docs]
        return out

    def _in_table(self, word: str) -> bool:
        """Whether the listed ``word``'s document numbers fit the table's keys (0 ≤ number < the stride)."""
        if word not in self.fits:
            documents = self._arrays(word)[0]
            self.fits[word] = not len(documents) or (documents.min() >= 0 and documents.max() < _STRIDE)
        return self.fits[word]

    def _table(self, words: Sequence[str]) -> Tuple[np.ndarray, np.ndarray]:
        """The sorted (word id × stride + document) keys of every listed word's scores, and the scores; rebuilt when
        a word not in it yet is asked for."""
        new = [w for w in words if w not in self.table_ids]
        if new or self.table is None:
            for w in new:
                self.table_ids[w] = len(self.table_ids)
            parts = [(self.table_ids[w], *self._arrays(w)) for w in self.table_ids]
            keys = np.concatenate([wid * _STRIDE + d for wid, d, _ in parts]) if parts else np.zeros(0, np.int64)
            values = np.concatenate([v for _, _, v in parts]) if parts else np.zeros(0)
            order = np.argsort(keys, kind="stable")
            self.table = (keys[order], values[order])
        return self.table

    def fetch(self, words: Sequence[str]) -> None:
        """Ask the backend for the complete listing of every word not asked for yet (when it lists words)."""
        for w in words:
            if w not in self.complete and self.listing is not None and w not in self.cache:
                scores = self.listing(w, MAX_WORD_DOCUMENTS)
                self.queries += 1
                if scores is not None:
                    self.complete[w] = scores
                else:
                    self.cache.setdefault(w, {})  # asked once: its scores come document by document

    def get(self, words: Sequence[str], docs: Sequence[int]) -> Dict[str, Dict[int, float]]:
        out: Dict[str, Dict[int, float]] = {}
        self.fetch(words)
        for w in words:
            if w in self.complete:
                every = self.complete[w]
                out[w] = {d: every.get(d, 0.0) for d in docs}
                continue
            known = self.cache.setdefault(w, {})
            missing = [d for d in docs if (w, d) not in known]
            if missing:
                scores = self.index.term_scores(w, missing)
                self.queries += 1
                for d in missing:
                    known[(w, d)] = scores.get(d, 0.0)
            out[w] = {d: known[(w, d)] for d in docs}
        return out


def unlink(
    index: SearchIndex,
    words: Sequence[str],
    entity_words: Dict[str, Sequence[int]],
    masked: Set[int],
    costs: Dict[str, float],
    targets: Sequence[int],
    k_rank: int,
    extra: int = 10,
    prior: Optional[Callable[[str], float]] = None,
    contributions: Optional[Contributions] = None,
) -> Unlinking:
    """Greedy masking against the BM25 attacker (see the module docstring).

    words: the text's query-word occurrences in order; entity_words: candidate entity id -> indices of the
    occurrences its mentions cover; masked: indices already masked (the target's name, entities masked
    anyway); costs: entity id -> information lost by masking it (> 0); targets: the target's documents;
    prior: word -> its assumed contribution to a target document that does not contain it (None: none);
    contributions: the words' BM25 scores already asked of ``index`` for this text (None: asked here)."""
    targets_set, masked = set(targets), set(masked)
    limit = k_rank + len(targets_set) + extra
    contributions = contributions if contributions is not None else Contributions(index)
    chosen: Set[str] = set()

    def visible() -> Counter:
        return Counter(w for i, w in enumerate(words) if i not in masked)

    def ranking(counts: Counter) -> List[Hit]:
        return contributions.search(list(counts), limit)

    target_docs = sorted(targets_set)
    target_rows: Dict[str, np.ndarray] = {}  # word -> its scores for the target documents, the prior's included

    def scored(counts: Counter, others: Sequence[int] = ()) -> np.ndarray:
        """Each visible word's contribution (rows, in ``counts`` order) to each target document, then to each of
        ``others`` (columns); with a ``prior``, a target document's missing word contributes ``prior(word)``. A word's
        target scores are looked up once (the targets do not change)."""
        words = list(counts)
        missing = [w for w in words if w not in target_rows]
        if missing:
            found = contributions.matrix(missing, target_docs)
            if prior is not None and len(target_docs):
                assumed = np.array([prior_of(w) for w in missing], dtype=np.float64)
                for j in range(len(target_docs)):
                    column = found[:, j]
                    absent = column <= 0.0
                    column[absent] = assumed[absent]
            target_rows.update(zip(missing, found))
        part = np.array([target_rows[w] for w in words], dtype=np.float64).reshape(len(words), len(target_docs))
        return np.hstack([part, contributions.matrix(words, others)]) if len(others) else part

    priors: Dict[str, float] = {}

    def prior_of(word: str) -> float:  # prior(word), asked once per word (a function of the word only)
        if word not in priors:
            priors[word] = prior(word)
        return priors[word]

    def rank_of(counts: Counter, hits: List[Hit]) -> Optional[int]:
        if prior is None:
            return target_rank(hits, targets_set)
        if not counts:
            return None
        best = float(_summed(scored(counts), range(len(counts)), len(target_docs)).max())
        above = sum(1 for d, s in hits if d not in targets_set and s > best)
        others = sum(1 for d, _ in hits if d not in targets_set)
        return None if best <= 0.0 or (above == others and len(hits) >= limit) else 1 + above

    counts = visible()
    hits = ranking(counts)
    result = Unlinking(rank_of(counts, hits), None, queries=1)
    rank = result.rank_before
    order = sorted(entity_words)
    covers = _Covers(words, [entity_words[e] for e in order])
    while rank is not None and rank <= k_rank:
        others = [d for d, _ in hits if d not in targets_set][: k_rank + extra]
        docs = target_docs + others
        matrix = scored(counts, others)
        score = _summed(matrix, range(len(counts)), len(docs))
        margin_now = _margins(score[None, :], len(targets_set), k_rank)[0]
        top_now = score[: len(targets_set)].max()
        taken = np.array([e in chosen for e in order], dtype=bool)
        found, removed = covers.removed(masked, taken, counts)
        entities = [order[n] for n in found]
        best_eid: Optional[str] = None
        if entities:  # as one array: each entity's gain and drop, the same float operations as one by one
            new = score[None, :] - _summed_rows(matrix, removed)
            cost = np.array([max(costs.get(eid, 1.0), 1e-6) for eid in entities])
            gain = (margin_now - _margins(new, len(targets_set), k_rank)) / cost
            drop = (top_now - new[:, : len(targets_set)].max(axis=1)) / cost
            for values, kind in ((gain, 1), (drop, 0)):  # a margin-lowering entity first, else the best drop
                eligible = values > 1e-12
                if eligible.any():
                    n = int(np.argmax(np.where(eligible, values, -np.inf)))  # the first best, in id order
                    best_eid = entities[n]
                    break
        if best_eid is None:
            result.exhausted = True
            break
        eid = best_eid
        chosen.add(eid)
        masked |= set(entity_words[eid])
        counts = visible()
        hits = ranking(counts)
        result.queries += 1
        new_rank = rank_of(counts, hits)
        result.steps.append(Step(eid, rank, new_rank))
        rank = new_rank
    result.rank_after = rank
    result.queries += contributions.queries
    return result


def _summed(matrix: np.ndarray, rows: Sequence[int], width: int) -> np.ndarray:
    """The sum of ``rows`` of ``matrix``, added one row after the other (bit for bit what adding each document's
    contributions word by word in Python gives; a numpy reduction may add in another order)."""
    rows = list(rows)
    if not rows:
        return np.zeros(width, dtype=np.float64)
    # a running sum from 0.0, row after row (``np.add.accumulate`` adds in order; a reduction may not)
    return np.add.accumulate(np.concatenate([np.zeros((1, width)), matrix[rows]]), axis=0)[-1]


def _summed_rows(matrix: np.ndarray, rows: List[List[int]]) -> np.ndarray:
    """Row ``i``: :func:`_summed` of ``rows[i]`` (each list added in its order, all lists at once: the same floats)."""
    total = np.zeros((len(rows), matrix.shape[1]), dtype=np.float64)
    for depth in range(max((len(r) for r in rows), default=0)):
        which = [i for i, r in enumerate(rows) if len(r) > depth]
        total[which] += matrix[[rows[i][depth] for i in which]]
    return total


class _Covers:
    """Which query words masking each candidate entity removes from the query: those of its visible occurrences whose
    every visible occurrence it covers. ``occurrences[e]``: the word indices of entity ``e`` (in its order)."""

    def __init__(self, words: Sequence[str], occurrences: Sequence[Sequence[int]]):
        ids: Dict[str, int] = {}
        self.word = np.array([ids.setdefault(w, len(ids)) for w in words], dtype=np.int64)
        self.names = list(ids)
        self.n_words = max(len(ids), 1)
        self.owner = np.array([e for e, occ in enumerate(occurrences) for _ in occ], dtype=np.int64)
        self.at = np.array([i for occ in occurrences for i in occ], dtype=np.int64)

    def removed(self, masked: Set[int], taken: np.ndarray, counts: Counter) -> Tuple[List[int], List[List[int]]]:
        """(the entities, in their order, not ``taken`` whose masking removes a word; for each, the removed words' rows
        in the order the entity's visible occurrences first name them). ``counts``: each visible word's number of
        visible occurrences, in the order of the score matrix's rows."""
        if not len(self.at):
            return [], []
        hidden = np.zeros(len(self.word), dtype=bool)
        if masked:
            hidden[[i for i in masked if 0 <= i < len(self.word)]] = True
        live = np.flatnonzero(~hidden[self.at] & ~taken[self.owner])  # incidences in entity order, then their order
        if not len(live):
            return [], []
        word = self.word[self.at[live]]
        keys = self.owner[live] * self.n_words + word
        unique, first, n = np.unique(keys, return_index=True, return_counts=True)
        total = np.array([counts[self.names[w]] for w in (unique % self.n_words).tolist()], dtype=np.int64)
        gone = total <= n
        if not gone.any():
            return [], []
        pick = first[gone][np.argsort(first[gone], kind="stable")]  # entity-major, then first occurrence
        owners, words = self.owner[live[pick]].tolist(), word[pick].tolist()
        row = {w: n for n, w in enumerate(counts)}
        found: List[int] = []
        rows: List[List[int]] = []
        for e, w in zip(owners, words):
            if not found or found[-1] != e:
                found.append(e)
                rows.append([])
            rows[-1].append(row[self.names[w]])
        return found, rows


def _margins(scores: np.ndarray, n_targets: int, k_rank: int) -> np.ndarray:
    """Per row of ``scores`` (columns: the target documents, then the others): best target score minus the
    ``k_rank``-th best other score (0 when there are fewer others)."""
    others = scores[:, n_targets:]
    if others.shape[1] >= k_rank:
        kth = -np.partition(-others, k_rank - 1, axis=1)[:, k_rank - 1]
    else:
        kth = np.zeros(scores.shape[0])
    return scores[:, :n_targets].max(axis=1) - kth
