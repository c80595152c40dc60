"""The optimizer's choice among keep / generalize / suppress (``replacement = "generalize"``), with hand-placed
entities, information content, candidates and risky combinations (no model runs)."""

import math

import spacy
from core_fixtures import spans_at

import textanon  # noqa: F401
from textanon.pipes.lm_risk import THRESHOLD_KEY

LN10 = math.log(10)


def decide(text, mentions, combos, ics, candidates, threshold=-2.0, risk=None, replacement="generalize", target=None):
    """Doc with pii spans [(substring, label, entity_id)], their IC, candidates {entity: [(text, ic)]} and the risky
    combinations, decided by the optimizer at the language-model ``threshold`` (``risk``: the index's record). A
    person's name is left to the risk (``mask_labels`` empty; the default masks every name: test_optimizer)."""
    nlp = spacy.blank("en")
    opt = nlp.add_pipe("textanon_optimizer", config={"replacement": replacement, "mask_labels": []})
    doc = nlp.make_doc(text)
    spans = spans_at(doc, [(sub, label) for sub, label, _ in mentions])
    for span, (_, _, eid) in zip(spans, mentions):
        span._.entity_id, span._.ic, span._.source = eid, ics[eid], "ner"
        found = candidates.get(eid, [])
        span._.generalizations = [
            {"text": t, "level": n, "kind": "test", "ic": ic} for n, (t, ic) in enumerate(found, 1)
        ] or None
    doc.spans["pii"] = spans
    doc._.risky_combinations = combos
    doc._.target = target
    if threshold is not None:
        doc.user_data[THRESHOLD_KEY] = threshold
    doc._.generalization_risk = risk
    return opt(doc)


BUDGET = 2 * LN10  # -threshold * ln 10 at t = -2: 4.6 nats


def test_a_generalization_below_the_risk_budget_replaces_suppression():
    text = "He moved in 1961 to Balti."
    doc = decide(text, [("1961", "DATETIME", "T1")], [["T1"]], {"T1": 10.0}, {"T1": [("the 1960s", 3.0)]})
    assert doc._.anonymized_text == "He moved in the 1960s to Balti."
    assert doc.spans["pii"][0]._.treatment == "generalize:1"
    assert doc._.masks == [[12, 16, "the 1960s"]]
    suppressed = decide(text, [("1961", "DATETIME", "T1")], [["T1"]], {"T1": 10.0}, {}, replacement="suppression")
    assert suppressed._.anonymized_text == "He moved in *** to Balti."


def test_the_most_specific_level_whose_remaining_risk_is_low_enough_is_chosen():
    levels = [("the 1960s", BUDGET + 1.0), ("the 20th century", 2.0), ("a date", 0.5)]
    doc = decide("Left in 1961.", [("1961", "DATETIME", "T1")], [["T1"]], {"T1": 10.0}, {"T1": levels})
    assert doc._.anonymized_text == "Left in the 20th century."  # level 1 is still too informative


def test_no_breaking_generalization_means_suppression_and_a_warning():
    doc = decide("Left in 1961.", [("1961", "DATETIME", "T1")], [["T1"]], {"T1": 10.0}, {"T1": [("1961s", 9.0)]})
    assert doc._.anonymized_text == "Left in ***."
    assert any("no generalization that breaks" in w for w in doc._.anonymization_warnings)


def test_unscored_candidates_are_never_chosen():
    doc = decide("Left in 1961.", [("1961", "DATETIME", "T1")], [["T1"]], {"T1": 10.0}, {"T1": [("the 1960s", None)]})
    assert doc._.anonymized_text == "Left in ***."


def test_a_pair_is_broken_by_generalizing_one_entity_and_keeping_the_other():
    text = "A surgeon from Balti."
    mentions = [("surgeon", "DEM", "D1"), ("Balti", "LOC", "L1")]
    ics = {"D1": 3.0, "L1": 3.0}  # together 6 > 4.6: risky; alone not
    doc = decide(text, mentions, [["D1", "L1"]], ics, {"L1": [("a city in Moldova", 1.0)]})
    assert doc._.anonymized_text == "A surgeon from a city in Moldova."


def test_every_mention_of_an_entity_gets_the_same_replacement():
    text = "Rusu lives in Balti. Balti is small."
    mentions = [("Balti", "LOC", "L1"), ("Balti", "LOC", "L1")]
    doc = decide(text, mentions, [["L1"]], {"L1": 9.0}, {"L1": [("a city in Moldova", 2.0)]})
    assert doc._.anonymized_text == "Rusu lives in a city in Moldova. A city in Moldova is small."  # fitted
    assert {s._.treatment for s in doc.spans["pii"]} == {"generalize:1"}


def test_without_a_risk_rule_only_suppression_breaks_a_combination():
    doc = decide(
        "Left in 1961.", [("1961", "DATETIME", "T1")], [["T1"]], {"T1": 10.0}, {"T1": [("the 1960s", 0.5)]}, None
    )
    assert doc._.anonymized_text == "Left in ***."


def test_the_index_record_forbids_options_found_in_too_few_documents():
    text = "Left in 1961 for Balti."
    mentions = [("1961", "DATETIME", "T1"), ("Balti", "LOC", "L1")]
    candidates = {"T1": [("the 1960s", 1.0)], "L1": [("a city in Moldova", 1.0), ("a city", 0.5)]}
    risk = {
        "breaks": [[["T1"], {"T1": [1]}], [["L1"], {"L1": [1, 2]}]],
        "forbidden": [[["L1", 1]], [["T1", 1], ["L1", 2]]],  # Moldova alone too rare; the 1960s with "a city" too
    }
    doc = decide(text, mentions, [["T1"], ["L1"]], {"T1": 10.0, "L1": 10.0}, candidates, None, risk)
    # the 1960s + a city is forbidden, a city in Moldova is forbidden: one of the two is suppressed
    assert doc._.anonymized_text in ("Left in the 1960s for ***.", "Left in *** for a city.")


def test_an_index_combination_without_a_record_is_broken_by_suppression_only():
    risk = {"breaks": [[["T1"], None]], "forbidden": []}  # made by the query bound
    doc = decide(
        "Left in 1961.", [("1961", "DATETIME", "T1")], [["T1"]], {"T1": 10.0}, {"T1": [("x", 0.1)]}, None, risk
    )
    assert doc._.anonymized_text == "Left in ***."


def test_suppression_style_ignores_candidates():
    doc = decide(
        "Left in 1961.",
        [("1961", "DATETIME", "T1")],
        [["T1"]],
        {"T1": 10.0},
        {"T1": [("the 1960s", 1.0)]},
        replacement="suppression",
    )
    assert doc._.anonymized_text == "Left in ***."
    assert doc.spans["pii"][0]._.treatment is None


def _raised(risk, demote=("T1",), masked=()):
    """What the optimizer's attacker check may raise the generalized T1 ("1961" -> "the 1960s") to."""
    from textanon.pipes.optimizer import _entities

    levels = [("the 1960s", 3.0), ("the 20th century", 2.0)]
    text = "Left in 1961 with Rusu."
    mentions = [("1961", "DATETIME", "T1"), ("Rusu", "PERSON", "P1")]
    doc = decide(text, mentions, [["T1"]], {"T1": 10.0, "P1": 5.0}, {"T1": levels}, None, risk)
    assert doc._.anonymized_text == "Left in the 1960s with Rusu."
    opt = spacy.blank("en").add_pipe("textanon_optimizer", config={"replacement": "generalize"})
    opt.generalized = {"T1": (1, "the 1960s")}
    return opt._raise_levels(doc, _entities(doc.spans["pii"]), [["T1"]], set(demote), set(masked))


def test_a_generalization_the_attacker_needs_is_raised_to_a_level_that_still_breaks_its_combinations():
    assert _raised({"breaks": [[["T1"], {"T1": [1, 2]}]], "forbidden": []}) == {"T1": (2, "the 20th century")}


def test_no_raise_to_a_level_that_does_not_break_a_combination_or_that_the_index_forbids():
    assert _raised({"breaks": [[["T1"], {"T1": [1]}]], "forbidden": []}) == {}
    assert _raised({"breaks": [[["T1"], {"T1": [1, 2]}]], "forbidden": [[["T1", 2]]]}) == {}
    assert _raised({"breaks": [[["T1"], {"T1": [1, 2]}]], "forbidden": [[["T1", 2], ["P1", 0]]]}) == {}
    # the pair is allowed once the other entity is suppressed
    pair = {"breaks": [[["T1"], {"T1": [1, 2]}]], "forbidden": [[["T1", 2], ["P1", 0]]]}
    assert _raised(pair, masked=("P1",)) == {"T1": (2, "the 20th century")}


def test_of_two_levels_scored_alike_the_more_specific_is_chosen():
    levels = [("the 1960s", 10.0), ("the 20th century", 10.0)]  # both capped at the entity's IC
    doc = decide(
        "Left in 1961.",
        [("1961", "DATETIME", "T1")],
        [["T1"]],
        {"T1": 10.0},
        {"T1": levels},
        None,
        {"breaks": [[["T1"], {"T1": [1, 2]}]], "forbidden": []},
    )
    assert doc._.anonymized_text == "Left in the 1960s."


def _given_back(risk, suppressed=("T1", "P1"), combos=(("T1", "P1"),)):
    """What may be generalized again after a decision by suppression only suppressed ``suppressed`` (the first
    decision had generalized T1 "1961" -> "the 1960s" and P1 "Rusu" -> "another person")."""
    from textanon.pipes.optimizer import _entities

    text = "Left in 1961 with Rusu."
    mentions = [("1961", "DATETIME", "T1"), ("Rusu", "PERSON", "P1")]
    cands = {"T1": [("the 1960s", 3.0)], "P1": [("another person", 1.0)]}
    doc = decide(text, mentions, [list(c) for c in combos], {"T1": 10.0, "P1": 5.0}, cands, None, risk)
    opt = spacy.blank("en").add_pipe("textanon_optimizer", config={"replacement": "generalize"})
    chosen = {"T1": (1, "the 1960s"), "P1": (1, "another person")}
    return opt._generalize_suppressed(
        doc, _entities(doc.spans["pii"]), [list(c) for c in combos], set(suppressed), chosen
    )


def test_after_suppression_only_a_suppressed_entity_is_generalized_where_its_combinations_stay_broken():
    # T1's level breaks the pair: T1 is generalized, and P1 then needs its own level to break it (it has one)
    both = {"breaks": [[["P1", "T1"], {"T1": [1], "P1": [1]}]], "forbidden": []}
    assert _given_back(both) == {"T1": (1, "the 1960s"), "P1": (1, "another person")}
    # only T1's level breaks the pair: the first (most costly) taken, the other must stay suppressed
    only_t1 = {"breaks": [[["P1", "T1"], {"T1": [1]}]], "forbidden": []}
    assert _given_back(only_t1) == {"T1": (1, "the 1960s")}
    # no level breaks it: T1 may come back only while P1 stays suppressed, and then P1 may not
    none = {"breaks": [[["P1", "T1"], {}]], "forbidden": []}
    assert _given_back(none) == {"T1": (1, "the 1960s")}
    # a kept entity stays kept; the index's pair ban with a kept option holds
    banned = {"breaks": [[["P1", "T1"], {"T1": [1]}]], "forbidden": [[["T1", 1], ["P1", 0]]]}
    assert _given_back(banned, suppressed=("T1",)) == {}
    assert _given_back(banned, suppressed=("T1",), combos=()) == {}


def test_the_bans_read_are_always_the_documents_own():
    """choice.forbidden keeps the answer for the record it read last: each document still gets its own bans."""
    from textanon.decide.generalization.choice import forbidden

    nlp = spacy.blank("en")
    first, second = nlp.make_doc("a b"), nlp.make_doc("c d")
    first._.generalization_risk = {"breaks": [], "forbidden": [[["T1", 1]], [["T1", 2], ["P1", 0]]]}
    second._.generalization_risk = {"breaks": [], "forbidden": [[["L1", 1]]]}
    assert forbidden(first) == ((("T1", 1),), (("T1", 2), ("P1", 0)))
    assert forbidden(second) == ((("L1", 1),),)
    assert forbidden(first) == ((("T1", 1),), (("T1", 2), ("P1", 0)))
    second._.generalization_risk = None
    assert forbidden(second) == ()
    third = nlp.make_doc("e f")  # as the generalizer writes it: tuples, read as they are
    third._.generalization_risk = {"breaks": [], "forbidden": ((("T1", 1), ("P1", 0)),)}
    assert forbidden(third) is third._.generalization_risk["forbidden"]


def test_the_choice_is_the_cheapest_one_that_breaks_every_combination_and_no_ban():
    """Random small problems (entities with levels, combinations, bans of one option or two, an entity outside the
    combinations kept or suppressed anyway) against every assignment enumerated."""
    import itertools
    import random
    from types import SimpleNamespace

    from textanon.decide.generalization.choice import choose

    rng = random.Random(7)
    for trial in range(300):
        names = ["A", "B", "C", "D"]
        levels = {e: rng.randint(0, 2) for e in names}
        full = {e: rng.randint(500, 3000) for e in names}
        ics = {e: [rng.uniform(0.0, full[e] / 1000) for _ in range(levels[e])] for e in names}
        entities = {
            e: [
                SimpleNamespace(
                    _=SimpleNamespace(
                        generalizations=[{"text": f"{e}{n}", "level": n, "ic": ic} for n, ic in enumerate(ics[e], 1)]
                    )
                )
            ]
            for e in names
        }
        combos = [rng.sample(names[:3], rng.randint(1, 2)) for _ in range(rng.randint(1, 3))]
        breaks_ = [{e: [n for n in range(1, levels[e] + 1) if rng.random() < 0.6] for e in c} for c in combos]
        options = [(e, n) for e in names for n in range(0, 3)]
        bans = [tuple(rng.sample(options, rng.randint(1, 2))) for _ in range(rng.randint(0, 8))]
        bans = [b for b in bans if len({e for e, _ in b}) == len(b)]
        anyway = {"D"} if trial % 2 else set()
        cost = lambda ms: full[next(e for e in names if entities[e] is ms)]  # noqa: E731
        suppressed, generalized, status = choose(entities, combos, breaks_, cost, 10.0, bans, anyway)

        ids = sorted({e for c in combos for e in c})

        def lost(e, n):  # as choose prices a level: never below 0, always below suppression
            return max(0, min(full[e] - 1, full[e] - int(round(ics[e][n - 1] * 1000)) + n))

        def feasible(choice):  # entity -> None (suppressed) or its level (0: kept)
            state = {e: choice.get(e, None if e in anyway else 0) for e in names}
            for c, b in zip(combos, breaks_):
                if not any(state[e] is None or state[e] in b.get(e, []) for e in c):
                    return False
            # a ban of kept originals only is the search risk's own combination (the combinations say it)
            return not any(all(state[e] == n for e, n in ban) for ban in bans if any(n > 0 for _, n in ban))

        best = None
        for pick in itertools.product(*[[None] + list(range(levels[e] + 1)) for e in ids]):
            choice = dict(zip(ids, pick))
            if feasible(choice):
                price = sum(full[e] if n is None else lost(e, n) if n else 0 for e, n in choice.items())
                best = price if best is None else min(best, price)
        if best is None:
            assert suppressed is None, trial
            continue
        assert status == "OPTIMAL", trial
        chosen = {e: None if e in suppressed else generalized.get(e, (0,))[0] for e in ids}
        assert feasible(chosen), trial
        price = sum(full[e] if n is None else lost(e, n) if n else 0 for e, n in chosen.items())
        assert price == best, trial


def test_a_title_and_its_name_are_generalized_together_or_not_at_all():
    # issue 32: "stockbroker Chris Gardner" must read "a businessperson" or "stockbroker ***", never "stockbroker
    # another person" (the name generalized beside its kept title) nor "a businessperson ***"
    text = "Jane Doe's father, stockbroker Chris Gardner, left."
    mentions = [("stockbroker", "DEM", "T"), ("Chris Gardner", "PERSON", "N")]
    ics = {"T": 6.0, "N": 9.0}
    candidates = {"T": [("a businessperson", 5.0)], "N": [("another person", 8.0)]}

    def run(combos, tied):
        risk = {"breaks": [[c, {e: [1] for e in c}] for c in combos], "forbidden": (), "tied": tied}
        doc = decide(text, mentions, combos, ics, candidates, threshold=None, risk=risk, target="Jane Doe")
        return doc._.anonymized_text

    assert run([["N"]], []) == "The person's father, stockbroker another person, left."  # untied: the name alone
    assert (
        run([["N"]], [["N", "T"]]) == "The person's father, stockbroker ***, left."
    )  # the title kept: the name suppressed
    assert run([["N"], ["T"]], [["N", "T"]]) == "The person's father, a businessperson, left."  # both: written as one


def test_the_record_is_read_the_same_whether_the_combinations_come_in_its_order_or_not():
    """The optimizer's unresolved combinations are the record's, some left out, in its order: read in one pass; in
    any other order, or naming a combination the record lacks, by set. Both give every combination its own entry."""
    import random

    from textanon.decide.generalization.choice import _in_order, breaks

    nlp = spacy.blank("en")
    doc = nlp.make_doc("A text.")
    rng = random.Random(3)
    levels = {e: [1, 2] for e in "ABCDEF"}
    combos = [sorted(rng.sample("ABCDEF", 2)) for _ in range(40)]
    combos = [c for n, c in enumerate(combos) if c not in combos[:n]]
    entries = [None if rng.random() < 0.3 else {e: levels[e] for e in c if rng.random() < 0.8} for c in combos]
    doc._.generalization_risk = {"breaks": [[c, b] for c, b in zip(combos, entries)], "forbidden": []}
    by_set = {frozenset(c): ({} if b is None else b) for c, b in zip(combos, entries)}
    kept = [c for c in combos if rng.random() < 0.6]
    assert _in_order(doc._.generalization_risk["breaks"], kept) is not None  # the fast path is taken
    assert breaks(doc, {}, kept) == [by_set[frozenset(c)] for c in kept]
    shuffled = list(reversed(kept))
    assert _in_order(doc._.generalization_risk["breaks"], shuffled) is None  # read by set
    assert breaks(doc, {}, shuffled) == [by_set[frozenset(c)] for c in shuffled]
    assert breaks(doc, {}, [["E", "Z"]] + kept) == [{}] + [by_set[frozenset(c)] for c in kept]  # not in the record
