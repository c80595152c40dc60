"""Listing a group's documents (``documents_any``) gives the generalizer the same counts as ``count_any``, with one
query per group instead of one per combination."""

import itertools

from core_fixtures import FIXTURES

from textanon.pipes.generalizer import _memo_any
from textanon.risk.search.backends import open_index
from textanon.risk.search.builder import build_index

GROUPS = [
    ["University of Oslo"],
    ["Bergen", "nurse"],
    ["Glass Harbour", "renee"],
    ["Oslo University"],  # matches nothing
    ['"AND" OR *'],
    ["..."],  # no word: every document
]


def _index(tmp_path):
    build_index(FIXTURES / "search_public.json", tmp_path / "idx", backend="sqlite-fts5", progress=False)
    return open_index(tmp_path / "idx")


def test_a_groups_documents_are_those_count_any_counts(tmp_path):
    index = _index(tmp_path)
    for group in GROUPS[:5]:
        assert len(index.documents_any(group, 1000)) == index.count_any([group])
    # the union of the phrases' documents, each phrase within the limit: more than the limit in all is None
    group = ["Bergen", "Glass Harbour"]
    n, each = index.count_any([group]), [index.count_any([[p]]) for p in group]
    assert max(each) < n
    assert index.documents_any(group, max(each)) is None
    assert len(index.documents_any(group, n)) == n
    assert index.documents_any(["Oslo", "nurse"], 2) is None  # one phrase alone passes the limit
    assert index.documents_any(["..."], 1000) is None  # no phrase: left to count_any
    assert index.documents_any(["University of Oslo"], 2) is None  # more than the limit


def test_the_memo_counts_every_combination_as_the_index_does(tmp_path):
    index = _index(tmp_path)
    count_any = _memo_any(index)
    for n in (1, 2):
        for groups in itertools.combinations(GROUPS, n):
            assert count_any(list(groups)) == index.count_any(list(groups)), groups
    assert count_any([]) == index.n_docs


class _CountsOnly:
    """A backend without ``documents_any`` (tantivy, the prior): the memo asks ``count_any``."""

    def __init__(self, index):
        self.index, self.asked = index, 0

    def count_any(self, groups):
        self.asked += 1
        return self.index.count_any(groups)


def test_a_backend_without_document_lists_is_asked_each_combination_once(tmp_path):
    backend = _CountsOnly(_index(tmp_path))
    count_any = _memo_any(backend)
    assert (
        count_any([GROUPS[0], GROUPS[1]])
        == count_any([GROUPS[1], GROUPS[0]])
        == backend.index.count_any([GROUPS[0], GROUPS[1]])
    )
    assert backend.asked == 1


def test_a_words_scores_for_every_document_are_its_scores_for_each(tmp_path):
    index = _index(tmp_path)
    docs = list(range(index.n_docs))
    for word in ("oslo", "university", "bergen", "nurse", "renée", "absent"):
        every = index.term_scores_all(word, 1000)
        assert every == index.term_scores(word, docs)
    assert index.term_scores_all("university", 1) is None  # more documents than the limit


def test_the_targeted_attackers_contributions_do_not_depend_on_how_they_are_fetched(tmp_path):
    from textanon.risk.search.targeted import Contributions

    index = _index(tmp_path)
    listed, asked = Contributions(index), Contributions(index)
    asked.listing = None  # the per-document path (backends without term_scores_all)
    words, docs = ["oslo", "bergen", "glass", "harbour", "nurse"], [1, 3, 5, 8]
    assert listed.get(words, docs) == asked.get(words, docs)
    assert listed.get(words, [2, 4]) == asked.get(words, [2, 4])
    assert listed.queries == len(words) < asked.queries


def test_the_attackers_ranking_from_listed_words_is_the_index_ranking(tmp_path):
    import random

    from textanon.risk.search.targeted import Contributions

    index = _index(tmp_path)
    vocabulary = ["oslo", "university", "bergen", "nurse", "glass", "harbour", "renée", "renee", "absent", "of"]
    contributions = Contributions(index)
    assert contributions.ranking(["oslo"], 10) is None  # not listed yet: the index is asked
    contributions.get(vocabulary, [0])
    rng = random.Random(7)
    for _ in range(200):
        words = rng.sample(vocabulary, rng.randint(1, len(vocabulary)))
        for limit in (1, 3, 100):
            listed, searched = contributions.ranking(words, limit), index.search(words, limit)
            assert listed == searched, (words, limit)  # the same documents and the same floats, in order
    assert contributions.ranking(["...", "?"], 5) == [] == index.search(["...", "?"], 5)
    unlisted = Contributions(index)
    unlisted.query_key = None  # a backend that does not say which words are one term: always the index
    unlisted.get(vocabulary, [0])
    assert unlisted.ranking(["oslo"], 5) is None


def test_the_attackers_search_asks_no_ranking_of_a_listing_index(tmp_path):
    """``Contributions.search`` (the targeted risk's first ranking and its rank before masking) ranks from the words'
    listings: the index's ranking, ties and the limit included, without a BM25 query of the whole text; a backend
    that lists no scores is asked for the ranking."""
    from textanon.risk.search.targeted import Contributions

    index = _index(tmp_path)
    asked = []

    class Counting:
        def __getattr__(self, name):
            return getattr(index, name)

        def search(self, words, limit):
            asked.append(list(words))
            return index.search(words, limit)

    words = ["oslo", "university", "bergen", "nurse", "glass", "harbour", "of"]
    for limit in (1, 2, 100):
        assert Contributions(Counting()).search(words, limit) == index.search(words, limit)
    assert asked == []
    unlisting = Counting()
    unlisting.term_scores_all = None  # no listing: the ranking is the index's
    contributions = Contributions(unlisting)
    contributions.listing = None
    assert contributions.search(words, 3) == index.search(words, 3)
    assert asked == [words]
    assert Contributions(Counting()).search([], 3) == []


PHRASES = ["University of Oslo", "Bergen", "nurse", "Glass Harbour", "renee", "Oslo University", '"AND" OR *', "..."]


def test_memo_count_gives_the_index_count_of_every_combination(tmp_path):
    """memo_count counts combinations of phrases by intersecting their listed documents (issue 30): the same number
    as the index's conjunctive count, phrases without a word and commoner phrases included."""
    from textanon.risk.search import base

    index = _index(tmp_path)
    count = base.memo_count(index)
    for n in (1, 2, 3):
        for phrases in itertools.combinations(PHRASES, n):
            assert count(list(phrases)) == index.count(list(phrases)), phrases
    assert count([]) == index.count([]) == index.n_docs


def test_memo_count_asks_the_index_for_phrases_above_the_listing_bound(tmp_path, monkeypatch):
    from textanon.risk.search import base

    index = _index(tmp_path)
    monkeypatch.setattr(base, "MAX_LISTED_DOCUMENTS", 1)
    count = base.memo_count(index)
    for phrases in itertools.combinations(PHRASES, 2):
        assert count(list(phrases)) == index.count(list(phrases)), phrases


def test_kept_listings_answer_every_limit_as_a_fresh_query(tmp_path):
    """documents_any and term_scores_all keep their answers across documents; an answer cut at a small limit is never
    given for a larger one."""
    index = _index(tmp_path)
    fresh = _index(tmp_path / "second")
    for group in GROUPS:
        for limit in (1, 0, 1000, 2, 1000):
            assert index.documents_any(group, limit) == fresh.documents_any(group, limit), (group, limit)
            fresh = _index(tmp_path / f"fresh{limit}")
    for word in ["nurse", "oslo", "bergen", "nothing"]:
        for limit in (0, 1, 1000, 1):
            assert index.term_scores_all(word, limit) == _index(tmp_path / f"t{limit}").term_scores_all(word, limit)


def test_the_kept_listings_are_bounded(tmp_path, monkeypatch):
    from textanon.risk.search import sqlite_backend

    monkeypatch.setattr(sqlite_backend, "LISTED_BUDGET", 2)
    index = _index(tmp_path)
    for group in GROUPS[:3]:
        index.documents_any(group, 1000)
        assert index._kept_size <= 2
    assert index.documents_any(["University of Oslo"], 1000) == _index(tmp_path / "b").documents_any(
        ["University of Oslo"], 1000
    )
