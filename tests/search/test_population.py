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
