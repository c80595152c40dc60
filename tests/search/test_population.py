"""Population risk (textanon.risk.search.population): phrases and combinations found in fewer than k documents."""

from textanon.risk.search.population import population_risk


def counter(table):
    """A conjunctive count over a table {phrase: set of documents}."""

    def count(phrases):
        docs = None
        for p in phrases:
            docs = set(table.get(p, set())) if docs is None else docs & table.get(p, set())
        return len(docs or ())

    return count


def test_population_singles_and_combinations():
    table = {"rare": {1}, "a": {1, 2, 3, 4}, "b": {1, 5, 6, 7}, "c": {2, 3, 4, 5, 6}}
    result = population_risk(counter(table), {"R": ["rare"], "A": ["a"], "B": ["b"], "C": ["c"]}, k=2)
    assert result.singles == ["R"]
    assert (["A", "B"], 1) in result.combinations  # only document 1 has both
    assert not any(set(ids) == {"A", "C"} for ids, _ in result.combinations)  # 3 documents have both
    assert result.hits == {"R": 1, "A": 4, "B": 4, "C": 5}


def test_population_uses_the_most_informative_mention():
    table = {"Oslo": {1, 2, 3}, "University of Oslo": {1}}
    assert population_risk(counter(table), {"E": ["Oslo", "University of Oslo"]}, k=2).singles == ["E"]


def test_population_query_bound_fails_closed():
    table = {x: set(range(10)) for x in "abcde"}
    result = population_risk(counter(table), {x.upper(): [x] for x in "abcde"}, k=2, max_queries=7)
    assert result.combinations == [] and set(result.bounded) <= set("ABCDE") and result.bounded


def _pairs_by_sorting(count, mentions, k, max_queries):
    """The pair stage as first written: every pair of non-disclosive entities sorted by (summed hits, ids in
    (hits, id) order), looked up in that order until the query bound; what is left unexamined is bounded."""
    hits, phrase, queries = {}, {}, 0
    for eid in sorted(mentions):
        forms = list(dict.fromkeys(mentions[eid]))
        hits[eid], phrase[eid] = sorted((count([f]), f) for f in forms)[0]
        queries += len(forms)
    pool = sorted((h, e) for e, h in hits.items() if h >= k)
    pairs = sorted(
        ((pool[i], pool[j]) for i in range(len(pool)) for j in range(i + 1, len(pool))),
        key=lambda c: (c[0][0] + c[1][0], [c[0][1], c[1][1]]),
    )
    found = []
    for n, (a, b) in enumerate(pairs):
        if queries >= max_queries:
            return found, sorted({e for pair in pairs[n:] for _, e in pair})
        ids = sorted((a[1], b[1]))
        queries += 1
        together = count([phrase[e] for e in ids])
        if together < k:
            found.append((ids, together))
    return found, []


def test_population_pairs_in_rarest_first_order_as_a_full_sort_gives():
    """Pairs are merged from sorted rows, not sorted all at once: the same pairs are looked up, in the same order,
    and the same entities are left to the query bound (ties in summed hits included)."""
    import random

    for trial in range(300):
        rng = random.Random(trial)
        docs = {f"w{i}": set(rng.sample(range(40), rng.choice([3, 6, 12, 25]))) for i in range(rng.randint(2, 30))}
        mentions = {e.upper(): [e] for e in docs}
        k, bound = rng.choice([2, 3, 5]), rng.choice([len(docs) + 3, len(docs) + 40, 10**6])
        result = population_risk(counter(docs), mentions, k=k, max_size=2, max_queries=bound)
        found, bounded = _pairs_by_sorting(counter(docs), mentions, k, bound)
        assert result.combinations == found, trial
        assert result.bounded == bounded, trial


def test_population_over_the_frequency_prior_computes_pairs_at_once_with_the_same_result():
    """The word-frequency prior's count of two phrases is computed for every pair at once
    (``count.independent``); the result is the one asking it pair by pair."""
    from textanon.risk.search.prior import FrequencyPrior

    words = "judge court Bucharest teacher Moldova engineer river nurse Oslo farmer harbour miner".split()
    mentions = {f"E{i}": [w, w.lower()] for i, w in enumerate(words)}
    prior = FrequencyPrior(n_docs=100_000)
    for bound in (10**6, len(words) * 2 + 10, len(words) * 2 + 3):
        fast = prior.memo_count()
        slow_count = prior.memo_count()

        def slow(phrases, inner=slow_count):
            return inner(phrases)  # the same count without ``independent``: asked pair by pair

        for k in (2, 50, 5000):
            a = population_risk(fast, mentions, k=k, max_queries=bound)
            b = population_risk(slow, mentions, k=k, max_queries=bound)
            assert (a.combinations, a.bounded, a.singles, a.queries) == (
                b.combinations,
                b.bounded,
                b.singles,
                b.queries,
            )
    assert population_risk(prior.memo_count(), mentions, k=5000).combinations  # some pairs are rare enough
