"""The risk recomputed with the remaining information: the language-model rule and the index's forbidden options."""

import math

from textanon.decide.generalization.candidate_ic import capped, content_words, lm_candidate_ic
from textanon.decide.generalization.risk import index_forbidden, intersect, lm_breaks, lm_risky

LN10 = math.log(10)


def test_lm_rule_keeps_the_other_entities_at_their_original_information():
    ic = {"A": 3.0, "B": 3.0}
    cands = {"A": [2.0, 1.0], "B": [None]}
    assert lm_risky(["A", "B"], ic, -2.0)  # 6 nats > 2 ln 10
    assert lm_breaks(["A", "B"], ic, cands, -2.0) == {"A": [2]}  # 3 + 1 <= 4.6 < 3 + 2
    assert lm_breaks(["A"], {"A": None}, cands, -2.0) == {}  # unscored: suppression only
    assert lm_risky(["A"], {"A": None}, -2.0)
    assert intersect({"A": [1, 2], "B": [1]}, {"A": [2]}) == {"A": [2]}


def test_index_rule_counts_a_generalization_by_its_members_and_pairs_it_with_every_visible_option():
    docs = {  # word -> documents holding it
        "1961": {1},
        "1960": {2, 3},
        "1965": {4, 5, 6},
        "Balti": {1, 2, 3, 4, 5, 6},
        "Rusu": {1},
    }

    def count_any(groups):
        sets = [set().union(*(docs.get(p, set()) for p in group)) for group in groups]
        return len(set.intersection(*sets)) if sets else 6

    phrases = {"T1": "1961", "L1": "Balti", "P1": "Rusu"}
    candidates = {"T1": [(["1960s"], ("1960", "1965"))]}
    forbidden = index_forbidden(["T1", "L1", "P1"], ["T1"], count_any, 5, phrases, candidates)
    # the 1960s: documents 1-6 (members and the original), 6 >= 5 with Balti, but only document 1 with Rusu
    assert (("T1", 1), ("P1", 0)) in forbidden
    assert (("T1", 1),) not in forbidden and (("T1", 1), ("L1", 0)) not in forbidden
    few = index_forbidden(["T1"], ["T1"], count_any, 7, phrases, candidates)
    assert few == [(("T1", 1),)]


def test_past_the_pair_bound_a_level_is_forbidden_outright_never_left_unchecked():
    docs = {"1961": {1, 2, 3}, "1960": {4}, "Balti": {1, 2, 3, 4}, "Rusu": {1, 2, 3, 4}, "Orhei": {1, 2, 3, 4}}

    def count_any(groups):
        sets = [set().union(*(docs.get(p, set()) for p in group)) for group in groups]
        return len(set.intersection(*sets)) if sets else 4

    phrases = {"T1": "1961", "L1": "Balti", "P1": "Rusu", "L2": "Orhei"}
    candidates = {"T1": [(["1960s"], ("1960",)), (["20th century"], ("1960",))], "L1": [(["Moldova"], ())]}
    entities, chosen = ["T1", "L1", "P1", "L2"], ["T1", "L1"]
    full = index_forbidden(entities, chosen, count_any, 2, phrases, candidates)
    assert (("T1", 1),) not in full and (("L1", 1),) not in full  # every level found with every other option
    unchecked = []
    bounded = index_forbidden(entities, chosen, count_any, 2, phrases, candidates, max_checks=5, unchecked=unchecked)
    # T1 at level 1 needs 4 pairs (L1's two options, P1, L2): checked; level 2 would pass 5: forbidden outright,
    # and so is every later level, whatever its counts
    assert unchecked == [("T1", 2), ("L1", 1)]
    assert (("T1", 2),) in bounded and (("L1", 1),) in bounded and (("T1", 1),) not in bounded
    assert index_forbidden(entities, chosen, count_any, 2, phrases, candidates, max_checks=10**6) == full


def test_another_person_is_found_in_every_document_of_a_person_centred_index():
    docs = {"Rusu": {1}, "Balti": {1, 2}, "1961": {1}}

    def count_any(groups):
        sets = [set().union(*(docs.get(p, set()) for p in group)) for group in groups]
        return len(set.intersection(*sets)) if sets else 6

    phrases = {"P2": "Ion Rusu", "L1": "Balti", "T1": "1961"}
    candidates = {"P2": [(content_words("another person"), ())], "T1": [(["1960s"], ())]}
    forbidden = index_forbidden(["P2", "L1", "T1"], ["P2", "T1"], count_any, 2, phrases, candidates)
    assert not [f for f in forbidden if ("P2", 1) in f and len(f) == 1]  # alone: every document
    assert (("P2", 1), ("L1", 0)) not in forbidden  # with Balti: Balti's 2 documents
    assert (("T1", 1),) in forbidden  # the 1960s: only document 1 (its original), "1960s" in none


def test_candidate_information_content_from_a_language_model_in_context():
    class WordLM:
        def span_token_logprobs(self, text, spans, passes=None):
            return [[-1.0] * len(text[s:e].split()) for s, e in spans]

    text = "Rusu moved to Balti in 1961."
    mentions = {"L1": [(14, 19)], "T1": [(23, 27)]}
    out = lm_candidate_ic(WordLM(), text, mentions, {"L1": ["a city in Moldova", "a city"], "T1": ["the 1960s"]})
    assert out == {"L1": [4.0, 2.0], "T1": [2.0]}
    assert capped(9.0, 4.0) == 4.0 and capped(-1.0, 4.0) == 0.0 and capped(None, 4.0) is None
    assert content_words("a city in Moldova") == ["city", "Moldova"]


def _random_options(rng, words, max_members):
    """Six entities, each with its phrase and up to three generalizations (a content word, or "person", and up to
    ``max_members`` member phrases), four of them chosen: a random problem for :func:`index_forbidden`."""
    entities = [f"E{n}" for n in range(6)]
    phrases = {e: rng.choice(words) for e in entities}
    candidates = {
        e: [
            ([rng.choice(words + ["person"])], tuple(rng.sample(words, rng.randint(0, max_members))))
            for _ in range(rng.randint(0, 3))
        ]
        for e in entities
    }
    return entities, phrases, candidates, sorted(rng.sample(entities, 4))


def test_the_forbidden_options_are_the_same_counted_by_bit_masks_or_one_pair_at_a_time():
    import random

    rng = random.Random(3)
    for trial in range(60):
        words = [f"w{n}" for n in range(12)]
        docs = {w: set(rng.sample(range(200), rng.randint(0, 150))) for w in words}  # several 64-bit words
        unlisted = set(rng.sample(words, 2))  # groups holding one of these are not listed: counted by count_any

        def count_any(groups):
            sets = [set().union(*(docs.get(p, set()) for p in group)) for group in groups]
            return len(set.intersection(*sets)) if sets else 200

        def listed(groups):
            return count_any(groups)

        def documents(group):
            if any(p in unlisted for p in group):
                return None
            found = set().union(*(docs.get(p, set()) for p in group))
            return sum(1 << d for d in found)

        listed.documents = documents
        entities, phrases, candidates, chosen = _random_options(rng, words, max_members=2)
        k = rng.randint(1, 60)
        bound = rng.choice([None, 10, 40])
        one_by_one = index_forbidden(entities, chosen, count_any, k, phrases, candidates, bound)
        assert index_forbidden(entities, chosen, listed, k, phrases, candidates, bound) == one_by_one, trial


def test_the_forbidden_options_over_a_prior_are_the_same_counted_all_at_once_or_one_pair_at_a_time():
    """Over the word-frequency prior, the generalizer's memo counts the pairs of options by the prior's shares all at
    once (``count_any.independent``): the same bans as the prior's own count of each pair."""
    import random

    from textanon.pipes.generalizer import _memo_any
    from textanon.risk.search.prior import FrequencyPrior

    rng = random.Random(5)
    # common words, rare words, unseen words and phrases: counts on both sides of k
    words = ["the", "film", "actress", "award", "Oslo", "Bergen", "1961", "1960s", "glassharbour", "zqxv",
             "Golden Globe", "Academy Award", "nurse", "Renée"]  # fmt: skip
    for trial in range(60):
        prior = FrequencyPrior(n_docs=rng.choice([1_000, 10_000, 1_000_000]))
        entities, phrases, candidates, chosen = _random_options(rng, words, max_members=3)
        k = rng.choice([1, 2, 5, 20, 200])
        bound = rng.choice([None, 10, 40])
        memo = _memo_any(prior)
        assert memo.independent[0] == prior.n_docs

        def one_by_one(groups):  # no shares: every pair asked of the prior
            return prior.count_any(groups)

        expected = index_forbidden(entities, chosen, one_by_one, k, phrases, candidates, bound)
        assert index_forbidden(entities, chosen, memo, k, phrases, candidates, bound) == expected, trial


def test_the_population_risk_of_every_combination_over_a_prior_is_the_prior_count_of_each():
    """The generalizer asks the population risk of thousands of pairs per court case: over the word-frequency prior
    it multiplies the two phrases' shares (``count.independent``) instead of calling the count per pair; every answer
    is the one the prior's count gives, for pairs, single entities, triples and entities without a phrase."""
    import random

    from textanon.decide.generalization.risk import population_risky, population_risky_all
    from textanon.risk.search.prior import FrequencyPrior

    rng = random.Random(7)
    words = ["the", "film", "actress", "award", "Oslo", "Bergen", "1961", "glassharbour", "zqxv", "Golden  Globe",
             "Academy Award", "nurse", "Renée", "a city in Moldova"]  # fmt: skip
    seen = set()
    for trial in range(40):
        prior = FrequencyPrior(n_docs=rng.choice([1_000, 20_000, 1_000_000]))
        ids = [f"E{i}" for i in range(rng.randint(2, 8))]
        phrases = {e: rng.choice(words) for e in ids if rng.random() < 0.9}
        combos = [rng.sample(ids + ["UNKNOWN"], rng.choice([1, 2, 2, 2, 3])) for _ in range(30)]
        combos += [[ids[0], ids[0]]]
        k = rng.choice([1, 5, 20, 200])
        count = prior.memo_count()
        assert hasattr(count, "independent")
        expected = [population_risky(c, count, k, phrases) for c in combos]
        assert population_risky_all(combos, count, k, phrases) == expected, trial
        plain = [population_risky(c, prior.count, k, phrases) for c in combos]  # no shares: one call each
        assert population_risky_all(combos, prior.count, k, phrases) == plain, trial
        seen.update(expected)
    assert seen == {True, False}
