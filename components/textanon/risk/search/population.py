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
from typing import Callable, Dict, FrozenSet, List, Sequence, Set, Tuple


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
