"""``choice.choose`` against brute force: random small instances (entities with generalization levels, risky
combinations and the levels that break them, the index's bans of options and pairs of options, entities
suppressed anyway), every keep / generalize / suppress assignment enumerated. The solver's choice must be
feasible and as cheap as the cheapest feasible assignment (ties may pick another one)."""

import itertools
import random

import pytest
import spacy

import textanon  # noqa: F401
from textanon.costs import IC_SCALE
from textanon.decide.generalization.choice import choose


def _instance(seed: int):
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    ids = [f"E{i}" for i in range(n)]
    doc = spacy.blank("en").make_doc(" ".join(f"w{i}" for i in range(n)))
    entities, levels = {}, {}
    for i, e in enumerate(ids):
        span = doc[i : i + 1]
        k = rng.randint(0, 2)
        span._.generalizations = [
            {"text": f"g{e}{m}", "level": m, "kind": "test", "ic": rng.choice([0.5, 1.0, 2.0, 3.0])}
            for m in range(1, k + 1)
        ] or None
        entities[e], levels[e] = [span], list(range(1, k + 1))
    combos, combo_breaks = [], []
    for _ in range(rng.randint(1, 3)):
        combo = sorted(rng.sample(ids, rng.randint(1, min(2, n))))
        combos.append(combo)
        # every level: the entity's own list, shared by its combinations, as the generalizer's record has it
        picked = {e: sorted(rng.sample(levels[e], rng.randint(0, len(levels[e])))) for e in combo}
        combo_breaks.append({e: levels[e] if picked[e] == levels[e] else picked[e] for e in combo})
    options = [(e, m) for e in ids for m in [0] + levels[e]] + [("OUT", rng.randint(0, 2))]
    banned = []
    for _ in range(rng.randint(1, 10)):
        if rng.random() < 0.25:
            banned.append(((rng.choice(options)),))
        else:
            first = rng.choice([o for o in options if o[1] > 0] or options)
            banned.append((first, rng.choice(options)))
    anyway = {e for e in ids if rng.random() < 0.15} | ({"OUT"} if rng.random() < 0.3 else set())
    costs = {e: rng.randint(5, 40) * 100 for e in ids}
    return ids, entities, levels, combos, combo_breaks, banned, anyway, costs


def _cost_of(entities, levels, e, choice, costs):
    """The objective's term of entity ``e`` under ``choice`` (None: suppressed, 0: kept, m: level m), as choose()
    states it."""
    if choice == 0:
        return 0
    full = costs[e]
    if choice is None:
        return full
    c = next(g for g in entities[e][0]._.generalizations if g["level"] == choice)
    return max(0, min(full - 1, full - int(round(c["ic"] * IC_SCALE * 1)) + int(choice)))


def _feasible(assign, combos, combo_breaks, banned, anyway):
    for combo, broken in zip(combos, combo_breaks):
        if not any(assign[e] is None or (assign[e] and assign[e] in broken.get(e, [])) for e in combo):
            return False
    for ban in banned:
        if not any(n > 0 for _, n in ban):
            continue  # only kept originals: the search risk's own combinations say that
        if all(_holds(assign, anyway, e, n) for e, n in ban):
            return False
    return True


def _holds(assign, anyway, e, n):
    if e not in assign:  # outside the combinations: kept, unless suppressed anyway
        return n == 0 and e not in anyway
    return assign[e] == n


@pytest.mark.parametrize("seed", range(300))
def test_choose_is_as_cheap_as_the_cheapest_feasible_assignment(seed):
    ids, entities, levels, combos, combo_breaks, banned, anyway, costs = _instance(seed)
    in_combos = sorted({e for c in combos for e in c})
    ents = {e: entities[e] for e in ids}
    cost = lambda mentions: costs[next(e for e in ids if entities[e] == mentions)]  # noqa: E731
    suppressed, generalized, status = choose(ents, combos, combo_breaks, cost, 5.0, banned, anyway)

    best = None
    for values in itertools.product(*[[None, 0] + levels[e] for e in in_combos]):
        assign = dict(zip(in_combos, values))
        if _feasible(assign, combos, combo_breaks, banned, anyway):
            total = sum(_cost_of(entities, levels, e, assign[e], costs) for e in in_combos)
            best = total if best is None else min(best, total)
    if best is None:
        assert suppressed is None and status == "INFEASIBLE"
        return
    assert status == "OPTIMAL"
    assign = {e: None if e in suppressed else generalized[e][0] if e in generalized else 0 for e in in_combos}
    assert _feasible(assign, combos, combo_breaks, banned, anyway)
    assert sum(_cost_of(entities, levels, e, assign[e], costs) for e in in_combos) == best
