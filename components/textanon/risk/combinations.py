"""Search for entity combinations whose joint log-probability falls below a threshold.

An entity with log-probability ``lp`` (log10) is a risk on its own if ``lp < t``; a combination of up
to ``max_size`` entities is a risk if the sum of their log-probabilities is below ``t`` while none of
its proper subsets is. Enumeration is bounded by ``max_combinations``: when the bound is hit, every
entity that takes part in some risky combination is returned as a singleton risk (fail closed).
"""

from itertools import combinations
from typing import Dict, List, Tuple


def risky_combinations(
    logprobs: Dict[str, float], threshold: float, max_size: int = 2, max_combinations: int = 20000
) -> Tuple[List[List[str]], bool]:
    """Return (risky combinations as lists of entity ids, whether the bound was hit)."""
    singles = sorted([e for e, lp in logprobs.items() if lp < threshold])
    combos: List[List[str]] = [[e] for e in singles]
    rest = sorted((lp, e) for e, lp in logprobs.items() if lp >= threshold)
    if max_size < 2 or len(rest) < 2:
        return combos, False
    found: List[List[str]] = []
    found_sets = set()
    for size in range(2, max_size + 1):
        candidates = [(lp, e) for lp, e in rest if _can_take_part(lp, e, rest, size, threshold)]
        for combo in _bounded_combinations(candidates, size, threshold):
            ids = sorted(e for _, e in combo)
            if any(frozenset(sub) in found_sets for k in range(2, size) for sub in combinations(ids, k)):
                continue  # a smaller risky combination already covers it
            found.append(ids)
            found_sets.add(frozenset(ids))
            if len(found) > max_combinations:
                singles_all = [
                    [e]
                    for lp, e in rest
                    if any(_can_take_part(lp, e, rest, k, threshold) for k in range(2, max_size + 1))
                ]
                return combos + singles_all, True
    return combos + found, False


def _can_take_part(lp: float, entity: str, rest, size: int, threshold: float) -> bool:
    """True if ``entity`` plus the ``size - 1`` most probable-to-be-risky others pass the threshold."""
    others = [v for v, e in rest[:size] if e != entity][: size - 1]
    return lp + sum(others) < threshold


def _bounded_combinations(candidates, size: int, threshold: float):
    """Combinations of ``size`` candidates (sorted by log-prob) with sum below threshold, pruned early."""
    n = len(candidates)
    values = [lp for lp, _ in candidates]

    def extend(start: int, chosen: list, total: float):
        remaining = size - len(chosen)
        if remaining == 0:
            if total < threshold:
                yield list(chosen)
            return
        for i in range(start, n - remaining + 1):
            # candidates are sorted ascending: the smallest possible completion uses the next ones
            best = total + sum(values[i : i + remaining])
            if best >= threshold:
                break
            chosen.append(candidates[i])
            yield from extend(i + 1, chosen, total + values[i])
            chosen.pop()

    yield from extend(0, [], 0.0)
