"""Population risk: the neural text sanitizer's web-query risk (its Algorithm 1) with local hit counts.

An entity is disclosive when fewer than ``k`` indexed documents contain it; a combination of up to
``max_size`` entities, none disclosive alone, is disclosive when fewer than ``k`` documents contain all of
them (a quasi-identifier combination that singles out fewer than ``k`` people). An entity is looked up by
its most informative mention (the one with the fewest hits). Combinations are examined rarest first
(smallest summed hits); a combination that contains a smaller disclosive one is not looked up again.
At most ``max_queries`` combinations are looked up: past the bound, every entity of a combination left
unexamined is disclosive on its own (fail closed) and ``bounded`` says so.
"""

from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import numpy as np


@dataclass
class PopulationRisk:
    """Disclosive entities and combinations, with the hit counts that made them so."""

    hits: Dict[str, int] = field(default_factory=dict)  # entity id -> documents containing it
    phrase: Dict[str, str] = field(default_factory=dict)  # entity id -> the mention it was looked up by
    singles: List[str] = field(default_factory=list)
    combinations: List[Tuple[List[str], int]] = field(default_factory=list)  # (ids, documents with all of them)
    bounded: List[str] = field(default_factory=list)  # entities made risky by the query bound
    queries: int = 0


def population_risk(
    count: Callable[[Sequence[str]], int],
    mentions: Dict[str, Sequence[str]],
    k: int,
    max_size: int = 2,
    max_queries: int = 20000,
) -> PopulationRisk:
    """Algorithm 1 over ``mentions`` (entity id -> its mentions' surface forms); ``count(phrases)`` is the
    index's conjunctive document count. See the module docstring."""
    result = PopulationRisk()
    for eid in sorted(mentions):
        forms = list(dict.fromkeys(f for f in mentions[eid] if f.strip()))
        if not forms:
            continue
        counted = sorted((count([f]), f) for f in forms)
        result.queries += len(forms)
        result.hits[eid], result.phrase[eid] = counted[0]
        if counted[0][0] < k:
            result.singles.append(eid)
    rest = sorted((h, e) for e, h in result.hits.items() if h >= k)
    found: Set[FrozenSet[str]] = set()
    for size in range(2, max_size + 1):
        pool = rest
        while len(pool) > size and comb(len(pool), size) > 20 * max_queries:  # never materialize millions
            pool = pool[: len(pool) - 1]
        if size == 2:
            if _pairs(count, pool, k, max_queries, result, found if max_size > 2 else None):
                return result
            if len(pool) < len(rest):
                result.bounded = sorted({e for _, e in rest[len(pool) :]})
                return result
            continue
        combos = sorted(combinations(pool, size), key=lambda c: (sum(h for h, _ in c), [e for _, e in c]))
        for i, combo in enumerate(combos):
            ids = sorted(e for _, e in combo)
            if size > 2 and any(frozenset(sub) in found for n in range(2, size) for sub in combinations(ids, n)):
                continue
            if result.queries >= max_queries:
                left = {e for c in combos[i:] for _, e in c} - set(result.singles)
                result.bounded = sorted(left)
                return result
            hits = count([result.phrase[e] for e in ids])
            result.queries += 1
            if hits < k:
                found.add(frozenset(ids))
                result.combinations.append((ids, hits))
        if len(pool) < len(rest):  # combinations with the commonest entities were never looked up
            result.bounded = sorted({e for _, e in rest[len(pool) :]})
            return result
    return result


def _pairs(
    count: Callable[[Sequence[str]], int],
    pool: List[Tuple[int, str]],
    k: int,
    max_queries: int,
    result: PopulationRisk,
    found: Optional[Set[FrozenSet[str]]],
) -> bool:
    """The pairs of ``pool`` (``(hits, id)`` sorted) looked up rarest first, as the general loop would: in the order of
    (summed hits, the two ids in pool order), up to the query bound. A court case has up to half a million pairs, of
    which at most ``max_queries`` are looked up: their order comes from one array sort, not from sorting tuples.
    A count over independent phrases (``count.independent = (n_docs, share)``: the word-frequency prior) is
    computed for all of them at once; any other count is asked pair by pair. Past the query bound, every entity of a
    pair left unexamined goes to ``result.bounded`` and True is returned."""
    n = len(pool)
    if n < 2:
        return False
    ids = [e for _, e in pool]
    hits = np.array([h for h, _ in pool], dtype=np.int64)
    position = {e: r for r, e in enumerate(sorted(ids))}
    rank = np.array([position[e] for e in ids], dtype=np.int64)
    first, second = np.triu_indices(n, 1)
    order = np.lexsort((rank[second], rank[first], hits[first] + hits[second]))
    budget = max(0, max_queries - result.queries)
    examined = order[:budget]
    a, b = first[examined], second[examined]
    independent = getattr(count, "independent", None)
    if independent is not None:
        n_docs, share = independent
        shares = np.array([share(result.phrase[e]) for e in ids], dtype=np.float64)
        together = (n_docs * (shares[a] * shares[b])).astype(np.int64).tolist()  # int(): counts are not negative
    else:
        together = [count([result.phrase[e] for e in sorted((ids[x], ids[y]))]) for x, y in zip(a.tolist(), b.tolist())]
    together = np.asarray(together, dtype=np.int64)
    disclosive = np.flatnonzero(together < k)  # a court case has thousands: selected at once, read as Python ints
    x, y = a[disclosive], b[disclosive]
    swap = rank[x] > rank[y]  # each pair's ids in sorted order (rank: the position in sorted(ids))
    low, high = np.where(swap, y, x).tolist(), np.where(swap, x, y).tolist()
    pairs = list(map(list, zip(map(ids.__getitem__, low), map(ids.__getitem__, high))))
    if found is not None:  # read by combinations of three or more only
        found.update(map(frozenset, pairs))
    result.combinations.extend(zip(pairs, together[disclosive].tolist()))
    result.queries += len(examined)
    if len(order) > budget:
        rest = order[budget:]
        left = {ids[x] for x in np.unique(np.concatenate((first[rest], second[rest]))).tolist()}
        result.bounded = sorted(left - set(result.singles))
        return True
    return False
