"""Which generalizations break a risky combination: the risk recomputed with the *remaining* information.

A combination is broken when one of its entities is suppressed, or generalized to a level whose recomputed risk
clears it while every other entity of the combination stays at its riskiest visible option:

* language-model risk (``textanon_lm_risk``, threshold ``t`` in log10): the combination's IC with the candidate's
  IC in place of the entity's is at most ``-t ln 10`` (the other entities at their original, highest IC: a
  generalization's IC is capped at its entity's, so generalizing them too only lowers the sum);
* index risk (``textanon_search_risk``, population risk with ``k``, combinations of up to two entities): any
  generalization breaks a combination of original mentions, but every visible generalization must itself be found
  in at least ``k`` indexed documents, and together with every visible option of every other entity (their
  original mentions or their generalizations) in at least ``k`` (:func:`index_forbidden`: the forbidden options,
  enforced by the optimizer; document counts are not monotone under generalization, so each pair is counted).
  A combination of the targeted risk may be broken by any generalization (the optimizer checks the attacker on
  its output); one made by the query bound only by suppression.

Unscored entities, and combinations naming entities without candidates, are broken by suppression only.
"""

import math
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

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


def index_forbidden(
    entities: Sequence[str],
    chosen: Sequence[str],
    count_any: Callable[[Sequence[Sequence[str]]], int],
    k: int,
    phrases: Dict[str, str],
    candidates: Dict[str, List[Tuple[List[str], Sequence[str]]]],
    max_checks: Optional[int] = None,
    unchecked: Optional[List[Tuple[str, int]]] = None,
) -> List[Tuple[Tuple[str, int], ...]]:
    """The options the index's population risk forbids once generalizations are visible: ``((entity, level),)``
    (a level found in fewer than ``k`` documents) and ``((entity, level), (other, level))`` (two options found
    together in fewer than ``k``), for every level >= 1 of the ``chosen`` entities (those that may be generalized)
    against every option of every other entity of ``entities`` (level 0: its rarest mention ``phrases``; pairs of
    original mentions are the search risk's own combinations). ``candidates``: entity -> [(content words, members)]
    per level; a generalization's documents are those holding one of its more specific ``members``, the original
    mention, or its content word when it has one (``count_any``: the index's count of documents holding one phrase
    of every group); every document for "another person", "a person" (:data:`EVERY_DOCUMENT_WORDS`).

    ``max_checks``: the most pairs checked (None: all). Their number grows with the square of a document's entities
    (a 100,000-character document: millions); a level whose pairs would pass the bound is forbidden outright
    instead (fail closed: the entity is suppressed or takes a level checked before), in the order of ``chosen``,
    and appended to ``unchecked`` when given."""
    kept = set(entities)
    options = {  # a generalization covers the original too: its documents count as the generalization's
        e: [([phrases[e]], ())] + [(list(w), tuple(m) + (phrases[e],)) for w, m in candidates.get(e, [])]
        for e in phrases
        if e in kept
    }
    # each option's group once (None: every document), as the sorted tuple count_any's memo keys it by
    groups = {e: [_key(_group(o)) for o in opts] for e, opts in options.items()}
    flat = [(f, other, g) for f, others in groups.items() for other, g in enumerate(others)]
    code = {f: n for n, f in enumerate(groups)}
    owner = np.array([code[f] for f, _, _ in flat], dtype=np.int64)  # which entity each option is of
    together = _PairCounts(flat, count_any, k)

    forbidden: List[Tuple[Tuple[str, int], ...]] = []
    total_options = len(flat)
    checks = 0
    position = {(f, other): n for n, (f, other, _) in enumerate(flat)}
    pairs = [(f, other) for f, other, _ in flat]  # each option as the ban names it
    enumerated = np.zeros(len(flat), dtype=bool)  # the options whose pairs were listed (levels of chosen entities)
    for e in chosen:
        for level in range(1, len(options.get(e, []))):
            group = groups[e][level]
            if not together.single(group):
                forbidden.append(((e, level),))
                continue
            if max_checks is not None:
                checks += total_options - len(groups.get(e, ()))
                if checks > max_checks:
                    forbidden.append(((e, level),))
                    if unchecked is not None:
                        unchecked.append((e, level))
                    continue
            # the options of the other entities not found together with this one, in their order, less those whose
            # own pairs were listed before (a pair is symmetric: ``count_any`` counts a set intersection, so a pair
            # met from both sides was found or not from both, and is banned once, where it was met first)
            here = position[(e, level)]
            lonely = ~together.with_option(here) & (owner != code[e]) & ~enumerated
            option = (e, level)
            forbidden.extend([(option, pairs[n]) for n in np.flatnonzero(lonely).tolist()])
            enumerated[here] = True
    return forbidden


class _PairCounts:
    """Whether options are found in at least ``k`` documents, alone and two together (``count_any`` of their groups;
    a group of None: every document). When ``count_any`` lists groups' documents as bit masks (``documents``), one
    option against all the others is one array operation: the AND of the masks, its bits counted. Over a prior that
    counts groups independently (``count_any.independent = (n_docs, group_share)``) it is one product of shares:
    ``int(n_docs * a * b)``, the prior's own count of the pair (a product of two floats does not depend on their
    order, and ``1.0 * a`` is ``a``)."""

    def __init__(self, flat, count_any, k: int):
        self.groups = [g for _, _, g in flat]
        self.count_any, self.k = count_any, k
        independent = getattr(count_any, "independent", None)
        self.shares: Optional[np.ndarray] = None
        if independent is not None:
            self.n_docs, group_share = independent
            self.shares = np.array([np.nan if g is None else group_share(g) for g in self.groups], dtype=np.float64)
        listing = getattr(count_any, "documents", None) if self.shares is None else None  # shares answer every pair
        masks = [listing(g) if listing is not None and g is not None else None for g in self.groups]
        self.listed = np.array([m is not None for m in masks], dtype=bool)
        self.row = np.cumsum(self.listed) - 1  # option -> its row of the matrix (where listed)
        held = [m for m in masks if m is not None]
        words = max((m.bit_length() for m in held), default=0) // 64 + 1
        self.matrix = np.array(
            [np.frombuffer(m.to_bytes(8 * words, "little"), dtype="<u8") for m in held], dtype=np.uint64
        ).reshape(len(held), words)

    def single(self, group) -> bool:
        return group is None or self.count_any([group]) >= self.k

    def with_option(self, n: int) -> np.ndarray:
        """For every option, whether it and option ``n`` are found together in at least ``k`` documents."""
        group = self.groups[n]
        if group is None:  # every document: each option alone
            return np.array([self.single(g) for g in self.groups], dtype=bool)
        if self.shares is not None:
            every = np.isnan(self.shares)  # an option of every document: the pair is this option alone
            both = np.where(every, self.shares[n], self.shares[n] * self.shares)
            return np.floor(self.n_docs * both) >= self.k
        out = np.zeros(len(self.groups), dtype=bool)
        listed = self.listed if self.listed[n] else np.zeros_like(self.listed)
        if listed.any():
            both = np.bitwise_count(self.matrix & self.matrix[self.row[n]]).sum(axis=1, dtype=np.int64)
            out[listed] = both[self.row[listed]] >= self.k
        for m in np.flatnonzero(~listed):
            other = self.groups[m]
            out[m] = self.single(group) if other is None else self.count_any([group, other]) >= self.k
        return out


def population_risky(combination: Sequence[str], count: Callable[[Sequence[str]], int], k: int, phrases) -> bool:
    """Whether the index finds ``combination`` (its entities' rarest mentions) in fewer than ``k`` documents."""
    return all(e in phrases for e in combination) and count([phrases[e] for e in combination]) < k


def population_risky_all(
    combinations: Sequence[Sequence[str]], count: Callable[[Sequence[str]], int], k: int, phrases
) -> List[bool]:
    """:func:`population_risky` of every combination. Over a prior that counts phrases independently
    (``count.independent = (n_docs, share_of)``, :meth:`textanon.risk.search.prior.FrequencyPrior.memo_count`) a
    pair's count is ``int(n_docs * (a * b))`` from its two shares, each phrase's share looked up once: the prior's own
    count of the pair (a product of two floats does not depend on their order, and ``1.0 * a`` is ``a``), without a
    call per pair (a court case has thousands)."""
    independent = getattr(count, "independent", None)
    if independent is None:
        return [population_risky(c, count, k, phrases) for c in combinations]
    n_docs, share_of = independent
    code = {e: n for n, e in enumerate(phrases)}
    shares = np.array([share_of(p) for p in phrases.values()] + [np.nan], dtype=np.float64)  # last: no phrase
    missing = len(phrases)
    out: List[bool] = [False] * len(combinations)
    pairs, first, second = [], [], []
    for n, c in enumerate(combinations):
        if len(c) == 2:
            pairs.append(n)
            first.append(code.get(c[0], missing))
            second.append(code.get(c[1], missing))
        else:
            out[n] = population_risky(c, count, k, phrases)
    # int(n_docs * (a * b)) < k, every pair at once (the same float products; NaN, an entity without a phrase: False)
    with np.errstate(invalid="ignore"):
        risky = (
            np.floor(n_docs * (shares[np.array(first, dtype=np.int64)] * shares[np.array(second, dtype=np.int64)])) < k
        )
    for n, value in zip(pairs, risky.tolist()):
        out[n] = value
    return out


def intersect(a: Breaks, b: Breaks) -> Breaks:
    """The levels both rules accept."""
    out = {e: [n for n in levels if n in set(b.get(e, []))] for e, levels in a.items()}
    return {e: levels for e, levels in out.items() if levels}


#: replacements every document of a person-centred index is consistent with ("another person", "a person",
#: "persons"): the index holds biographies, judgments, news about people, so each of its documents mentions one
EVERY_DOCUMENT_WORDS = {"person", "persons", "people"}


def _group(option) -> Optional[List[str]]:
    """The phrases whose documents are an option's: its members (the original mention included) and its content word
    when it has exactly one (a replacement of several content words is found through its members); None when every
    document is (:data:`EVERY_DOCUMENT_WORDS`)."""
    words, members = option
    if len(words) == 1 and words[0].lower() in EVERY_DOCUMENT_WORDS:
        return None
    return list(dict.fromkeys(list(members) + (list(words) if len(words) == 1 else [])))


def _key(group: Optional[List[str]]) -> Optional[Tuple[str, ...]]:
    """A group as count_any's memo keys it (its phrases sorted); None stays None (every document)."""
    return None if group is None else tuple(sorted(group))
