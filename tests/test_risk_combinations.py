import random

from textanon.risk.combinations import risky_combinations


def test_singletons_and_pairs_below_threshold():
    lp = {"a": -4.0, "b": -2.0, "c": -1.6, "d": -1.0}
    combos, bounded = risky_combinations(lp, -3.5, max_size=2)
    assert not bounded
    assert ["a"] in combos and ["b", "c"] in combos
    assert ["b", "d"] not in combos and ["c", "d"] not in combos


def test_supersets_of_risky_pairs_are_not_listed():
    lp = {"b": -2.0, "c": -1.6, "d": -1.0, "e": -0.9}
    combos, _ = risky_combinations(lp, -3.5, max_size=3)
    assert ["b", "c"] in combos
    assert all(not ({"b", "c"} < set(c)) for c in combos)
    assert ["b", "d", "e"] in combos  # -3.9 < -3.5, no risky pair inside


def test_every_listed_combination_is_risky_and_all_pairs_found():
    rng = random.Random(0)
    lp = {f"e{i}": -rng.random() * 3 for i in range(60)}
    combos, bounded = risky_combinations(lp, -3.5, max_size=2)
    assert not bounded
    listed = {tuple(c) for c in combos}
    for a in lp:
        for b in lp:
            if a < b:
                assert ((lp[a] + lp[b]) < -3.5) == ((a, b) in listed)


def test_bound_fails_closed_with_singletons():
    lp = {f"e{i}": -2.0 for i in range(100)}
    combos, bounded = risky_combinations(lp, -3.5, max_size=2, max_combinations=50)
    assert bounded
    assert sorted(c[0] for c in combos if len(c) == 1) == sorted(lp)
