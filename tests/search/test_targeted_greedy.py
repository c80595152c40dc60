"""The BM25 attacker's greedy unlinking (:func:`textanon.risk.search.targeted.unlink`) takes, step by step, the entity
that the plain rule of its docstring takes: scored one candidate at a time in Python, against an index that ranks
every query anew. Randomized: indexes, texts, costs, priors."""

import math
import random
from collections import Counter

from textanon.risk.search.targeted import target_rank, unlink


class ToyIndex:
    """BM25 over a few documents of bag-of-words; a query's score is the sum of its distinct terms' scores, added in
    query order (as FTS5's bm25 adds them)."""

    def __init__(self, docs, listed=True):
        self.docs = docs
        self.n_docs = len(docs)
        self.avgdl = sum(sum(d.values()) for d in docs) / len(docs)
        if listed:
            self.term_scores_all = self._all
            self.query_key = lambda w: w or None

    def _term(self, word, doc):
        tf = self.docs[doc].get(word, 0)
        if not tf:
            return 0.0
        n = sum(1 for d in self.docs if word in d)
        idf = max(math.log((self.n_docs - n + 0.5) / (n + 0.5)), 1e-6)
        return idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * sum(self.docs[doc].values()) / self.avgdl))

    def search(self, words, limit):
        terms = list(dict.fromkeys(w for w in words if w))
        scores = {}
        for d in range(self.n_docs):
            if any(w in self.docs[d] for w in terms):
                total = 0.0
                for w in terms:
                    total += self._term(w, d)
                scores[d] = total
        return sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:limit]

    def term_scores(self, word, docs):
        return {d: self._term(word, d) for d in docs if word in self.docs[d]}

    def _all(self, word, limit):
        return {d: self._term(word, d) for d in range(self.n_docs) if word in self.docs[d]}


def reference(index, words, entity_words, masked, costs, targets, k_rank, extra=10, prior=None):
    """The greedy rule, one candidate at a time (the steps' entities)."""
    targets, masked, chosen, steps = set(targets), set(masked), set(), []
    limit = k_rank + len(targets) + extra

    def visible():
        return Counter(w for i, w in enumerate(words) if i not in masked)

    def contribution(w, d):
        c = index._term(w, d)
        return prior(w) if prior is not None and d in targets and c <= 0.0 else c

    def rank_of(counts, hits):
        if prior is None:
            return target_rank(hits, targets)
        if not counts:
            return None
        best = max(sum(contribution(w, t) for w in counts) for t in targets)
        above = sum(1 for d, s in hits if d not in targets and s > best)
        others = sum(1 for d, _ in hits if d not in targets)
        return None if best <= 0.0 or (above == others and len(hits) >= limit) else 1 + above

    def margin(score, others):
        ranked = sorted((score[d] for d in others), reverse=True)
        return max(score[t] for t in targets) - (ranked[k_rank - 1] if len(ranked) >= k_rank else 0.0)

    counts = visible()
    hits = index.search(list(counts), limit) if counts else []
    rank = rank_of(counts, hits)
    while rank is not None and rank <= k_rank:
        others = [d for d, _ in hits if d not in targets][: k_rank + extra]
        docs = sorted(targets) + others
        score = {d: sum(contribution(w, d) for w in counts) for d in docs}
        best_key, best = None, None
        for eid in sorted(entity_words):
            if eid in chosen:
                continue
            covered = Counter(words[i] for i in entity_words[eid] if i not in masked)
            removed = [w for w, n in covered.items() if counts[w] <= n]
            if not removed:
                continue
            new = {d: score[d] - sum(contribution(w, d) for w in removed) for d in docs}
            cost = max(costs.get(eid, 1.0), 1e-6)
            gain = (margin(score, others) - margin(new, others)) / cost
            drop = (max(score[t] for t in targets) - max(new[t] for t in targets)) / cost
            key = (1, gain) if gain > 1e-12 else (0, drop) if drop > 1e-12 else None
            if key is not None and (best_key is None or key > best_key):
                best_key, best = key, eid
        if best is None:
            break
        chosen.add(best)
        masked |= set(entity_words[best])
        counts = visible()
        hits = index.search(list(counts), limit) if counts else []
        steps.append(best)
        rank = rank_of(counts, hits)
    return steps, rank


def test_the_greedy_attacker_takes_the_entities_the_plain_rule_takes():
    rng = random.Random(5)
    vocabulary = [f"w{n}" for n in range(30)]
    compared = 0
    for trial in range(120):
        docs = [Counter(rng.choices(vocabulary, k=rng.randint(3, 25))) for _ in range(rng.randint(8, 30))]
        targets = sorted(rng.sample(range(len(docs)), rng.randint(1, 2)))
        words = rng.choices(vocabulary, k=rng.randint(5, 40))
        entity_words = {f"E{n}": rng.sample(range(len(words)), rng.randint(1, 3)) for n in range(6)}
        if trial % 2:  # occurrences in text order; else in any order (a word's rows are added where first named)
            entity_words = {e: sorted(occ) for e, occ in entity_words.items()}
        costs = {e: rng.choice([0.5, 1.0, 2.0, 3.5]) for e in entity_words}
        weight = rng.choice([0.0, 0.1, 0.5])
        prior = (lambda w: weight * 1.7) if weight else None
        k_rank = rng.randint(1, 3)
        expected, rank = reference(ToyIndex(docs), words, entity_words, set(), costs, targets, k_rank, prior=prior)
        for listed in (True, False):
            got = unlink(ToyIndex(docs, listed), words, entity_words, set(), costs, targets, k_rank, prior=prior)
            assert [s.entity for s in got.steps] == expected, (trial, listed)
            assert got.rank_after == rank, (trial, listed)
        compared += bool(expected)
    assert compared > 30  # most draws need at least one step


def test_scores_are_summed_word_after_word_bit_for_bit():
    """The attacker's document scores add each word's contribution in query order, as BM25 adds them (and as the
    index's own ranking does): a reduction in another order could move a tie and so the greedy choice."""
    import numpy as np

    from textanon.risk.search.targeted import _summed, _summed_rows

    rng = np.random.default_rng(3)
    matrix = rng.random((40, 7)) * 10.0 ** rng.integers(-8, 8, size=(40, 7))
    for rows in ([], [5], list(range(40)), [39, 0, 17, 17, 3]):
        expected = np.zeros(7)
        for r in rows:
            expected = expected + matrix[r]
        assert _summed(matrix, rows, 7).tobytes() == expected.tobytes()
        assert _summed(matrix, range(len(rows)), 7).shape == (7,)
    assert (
        _summed_rows(matrix, [[1, 2], [2, 1]]).tobytes()
        == np.stack([_summed(matrix, [1, 2], 7), _summed(matrix, [2, 1], 7)]).tobytes()
    )
