"""Which generalizations break a risky combination: the risk recomputed with the *remaining* information.

A combination is broken when one of its entities is suppressed, or generalized to a level whose recomputed risk
clears it while every other entity of the combination stays at its riskiest visible option:

* language-model risk (``textanon_lm_risk``, threshold ``t`` in log10): the combination's IC with the candidate's
  IC in place of the entity's is at most ``-t ln 10`` (the other entities at their original, highest IC: a
  generalization's IC is capped at its entity's, so generalizing them too only lowers the sum);
* index risk (``textanon_search_risk``, population risk with ``k``): at least ``k`` indexed documents hold the
  candidate's content words together with the other entities' phrases, for *every* visible option of those
  entities (document counts are not monotone under generalization, so each is counted). A combination the
  index does not find in fewer than ``k`` documents comes from the targeted risk or a bound: only suppression
  breaks it.

Unscored entities, and combinations naming entities without candidates, are broken by suppression only.
"""

import math
from itertools import product
from typing import Callable, Dict, List, Optional, Sequence

LN10 = math.log(10.0)
Breaks = Dict[str, List[int]]  # entity id -> the levels (1-based) that break the combination


def lm_breaks(
    combination: Sequence[str],
    entity_ic: Dict[str, Optional[float]],
    candidate_ic: Dict[str, List[Optional[float]]],
    threshold: float,
) -> Breaks:
    """The levels that break ``combination`` under the language-model risk at ``threshold`` (module docstring)."""
    budget = -threshold * LN10
    ics = [entity_ic.get(e) for e in combination]
    if any(ic is None for ic in ics):
        return {}
    total = float(sum(ics))
    out: Breaks = {}
    for e, ic in zip(combination, ics):
        levels = [n for n, c in enumerate(candidate_ic.get(e, []), 1) if c is not None and total - ic + c <= budget]
        if levels:
            out[e] = levels
    return out


def lm_risky(combination: Sequence[str], entity_ic: Dict[str, Optional[float]], threshold: float) -> bool:
    """Whether the language-model risk finds ``combination`` risky (an unscored entity always is)."""
    ics = [entity_ic.get(e) for e in combination]
    return any(ic is None for ic in ics) or sum(ics) > -threshold * LN10


def index_breaks(
    combination: Sequence[str],
    count: Callable[[Sequence[str]], int],
    k: int,
    phrases: Dict[str, str],
    candidate_words: Dict[str, List[List[str]]],
) -> Optional[Breaks]:
    """The levels that break ``combination`` under the index's population risk (module docstring); None when the
    combination is not a population risk (it is then broken by suppression only). ``phrases``: each entity's
    rarest mention form; ``candidate_words``: each entity's candidates' content words, level 1 first."""
    if any(e not in phrases for e in combination):
        return {}
    if count([phrases[e] for e in combination]) >= k:
        return None
    out: Breaks = {}
    for e in combination:
        others = [[[phrases[f]]] + list(candidate_words.get(f, [])) for f in combination if f != e]
        for n, words in enumerate(candidate_words.get(e, []), 1):
            if all(count(list(words) + [w for ws in choice for w in ws]) >= k for choice in product(*others)):
                out.setdefault(e, []).append(n)
    return out


def intersect(a: Breaks, b: Breaks) -> Breaks:
    """The levels both rules accept."""
    out = {e: [n for n in levels if n in set(b.get(e, []))] for e, levels in a.items()}
    return {e: levels for e, levels in out.items() if levels}
