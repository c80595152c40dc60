"""The optimizer's choice among keep / generalize at level 1...L / suppress for every entity (CP-SAT).

One boolean per option and entity, exactly one per entity; cost = the information lost, in milli-nats: 0 to keep,
the entity's masking cost (:func:`textanon.costs.mask_cost`) to suppress, and that cost minus
the candidate's IC per mention to generalize (never less than 0, always below suppression's, so that of two
options breaking the same combinations the informative one wins; of two levels scored alike, the lower one, by
one milli-nat per level). Every risky combination must be broken: one of
its entities suppressed, or generalized to a level that breaks it (:func:`breaks`, :mod:`.risk`).

Where every generalization of a combination's entities breaks it (a population risk: any option but keeping does),
the constraint is the same as "not all kept", and the pairs of such a combination are grouped per entity kept (one
constraint each, as the bans are): the same choices allowed, far fewer clauses (a court case over the word-frequency
prior has ~10,000 risky pairs; CP-SAT's time on the 27 echr-dev cases fell from 1.4 to 0.3 s). Among choices of
equal cost the solver may then pick another one than the clause-per-combination model did.
"""

from typing import Dict, List, Optional, Sequence, Set, Tuple

from ortools.sat.python import cp_model
from spacy.tokens import Doc, Span

from textanon.costs import IC_SCALE, LN10, THRESHOLD_KEY, entity_log10_probs
from textanon.decide.generalization.risk import Breaks, intersect, lm_breaks, lm_risky
from textanon.decide.solver import new_solver

#: the choice of one entity: (level, replacement text) of a generalization
Generalized = Dict[str, Tuple[int, str]]


def candidates_of(mentions: List[Span]) -> List[dict]:
    """The entity's scored candidates (``span._.generalizations`` of its first mention that has them)."""
    for m in mentions:
        if m._.generalizations:
            return list(m._.generalizations)
    return []


def breaks(doc: Doc, entities: Dict[str, List[Span]], combos: List[List[str]]) -> List[Breaks]:
    """For each combination, the generalizations that break it: the index's record
    (``doc._.generalization_risk``) and the language-model rule at the doc's decision threshold, both where they
    apply (:mod:`.risk`); {} (suppression only) where neither does."""
    threshold = doc.user_data.get(THRESHOLD_KEY)
    entity_ic: Dict[str, Optional[float]] = {}
    candidate_ic: Dict[str, List[Optional[float]]] = {}
    if threshold is not None:  # the language model's rule needs the entities' IC (no threshold: no such rule)
        spans = [m for ms in entities.values() for m in ms]
        entity_ic = {e: (None if lp == float("-inf") else -lp * LN10) for e, lp in entity_log10_probs(spans).items()}
        candidate_ic = {e: [c.get("ic") for c in candidates_of(ms)] for e, ms in entities.items()}
    record = doc._.generalization_risk
    if record is not None and threshold is None:  # the index's record alone (the usual case): no rule to merge
        in_order = _in_order(record.get("breaks", []), combos)
        if in_order is not None:
            return [{} if b is None else b for b in in_order]
    recorded = {frozenset(c): b for c, b in (record or {}).get("breaks", [])}
    out: List[Breaks] = []
    for combo in combos:
        lm = (
            lm_breaks(combo, entity_ic, candidate_ic, threshold)
            if threshold is not None and lm_risky(combo, entity_ic, threshold)
            else None
        )
        if record is None:
            out.append(lm or {})
            continue
        index = recorded.get(frozenset(combo), {})
        if index is None:  # made by the query bound: the language model's rule alone, if it made the combination
            out.append(lm or {})
        else:
            out.append(index if lm is None else intersect(index, lm))
    return out


def _in_order(recorded: Sequence, combos: Sequence[Sequence[str]]) -> Optional[list]:
    """The record's entry of each combination when ``combos`` are the record's combinations, some left out, in the
    record's order (the optimizer's unresolved ones are): read in one pass, not through a set per combination (a court
    case has ~10,000); None when they are not, as the caller's look-up by set answers then. Both give the same entry:
    the record's value depends only on the combination's set of entities (:meth:`Generalizer._index_risk`)."""
    out = []
    j, n = 0, len(recorded)
    for combo in combos:
        while j < n and recorded[j][0] != combo:
            j += 1
        if j == n:
            return None
        out.append(recorded[j][1])
        j += 1
    return out


def forbidden(doc: Doc) -> Tuple[Tuple[Tuple[str, int], ...], ...]:
    """The options (level 0: kept) and pairs of options the index forbids (``doc._.generalization_risk``). The
    optimizer asks up to three times per document (a court case: up to ~37,000 pairs): the answer for the record last
    read is kept (the record itself, not a copy, is its key)."""
    global _LAST_FORBIDDEN
    record = doc._.generalization_risk or {}
    listed = record.get("forbidden", [])
    last = _LAST_FORBIDDEN  # read once: another thread may replace it (a new tuple, never changed in place)
    if last[0] is listed:
        return last[1]
    if isinstance(listed, tuple):  # as the generalizer writes it: tuples of (entity, level) tuples
        answer = listed
    else:  # read back from bytes, or written by hand: lists
        answer = tuple(tuple((e, int(n)) for e, n in f) for f in listed)
    _LAST_FORBIDDEN = (listed, answer)
    return answer


#: the record :func:`forbidden` read last, and its answer
_LAST_FORBIDDEN: tuple = (None, ())


def choose(
    entities: Dict[str, List[Span]],
    combos: List[List[str]],
    combo_breaks: Sequence[Breaks],
    cost,
    time_limit_s: float,
    banned: Sequence[Sequence[Tuple[str, int]]] = (),
    suppressed_anyway: Set[str] = frozenset(),
    tied: Sequence[Sequence[str]] = (),
) -> Tuple[Optional[Set[str]], Generalized, str]:
    """(suppressed entities, generalized entities, solver status) for the unresolved ``combos``; ``cost(mentions)``
    is the suppression cost (milli-nats); ``banned``: options (level 0: kept) and pairs of options that must not
    be chosen together (:func:`forbidden`); an entity outside the combinations is kept, unless it is in
    ``suppressed_anyway`` (the direct identifiers); ``tied``: pairs of entities generalized together or not at all (a
    title and the name right after it: "stockbroker Chris Gardner" reads "a businessperson" or "stockbroker ***",
    never "a businessperson ***" nor "stockbroker another person"; an entity outside the combinations is kept, so its
    partner is not generalized). Suppressed is None when the solver found no solution."""
    ids = sorted({e for c in combos for e in c})
    options = {e: [c for c in candidates_of(entities[e]) if c.get("ic") is not None] for e in ids}
    model = cp_model.CpModel()
    keep = {e: model.new_bool_var(f"keep_{e}") for e in ids}
    sup = {e: model.new_bool_var(f"sup_{e}") for e in ids}
    gen = {(e, c["level"]): model.new_bool_var(f"gen_{e}_{c['level']}") for e in ids for c in options[e]}
    for e in ids:
        model.add_exactly_one([keep[e], sup[e]] + [gen[(e, c["level"])] for c in options[e]])
    # a combination that every option of its entities but keeping breaks: "not all kept" (exactly one option each);
    # of two entities, grouped per entity kept (one constraint each, as the bans below)
    not_keep = {e: ~var for e, var in keep.items()}  # one literal each, shared
    not_kept: Dict[str, list] = {}
    levels_of = {e: {c["level"] for c in options[e]} for e in ids}
    covers: Dict[Tuple[str, int], bool] = {}  # (entity, id of a list of levels) -> whether it holds every level
    for combo, broken_by in zip(combos, combo_breaks):
        # whether every entity's breaking levels hold every level it has a variable for (none: True), each list
        # of levels asked once by its identity (the record shares one list per entity across its combinations)
        every = True
        for e in combo:
            levels = broken_by.get(e, ())
            key = (e, id(levels))
            held = covers.get(key)
            if held is None:
                held = covers[key] = levels_of[e].issubset(levels)
            if not held:
                every = False
                break
        if every:
            if len(combo) == 2 and combo[0] != combo[1]:
                not_kept.setdefault(combo[0], []).append(not_keep[combo[1]])
            else:
                model.add_bool_or([not_keep[e] for e in combo])
            continue
        lits = [sup[e] for e in combo]
        lits += [gen[(e, n)] for e, levels in broken_by.items() for n in levels if (e, n) in gen]
        model.add_bool_or(lits)
    for e, others in not_kept.items():
        model.add_bool_and(others).only_enforce_if(keep[e])
    for pair in tied:
        generalized_ = [[gen[(e, c["level"])] for c in options.get(e, [])] for e in pair]
        if any(generalized_):
            model.add(sum(generalized_[0]) == sum(generalized_[1]))  # at most one option each: both or neither
    # a generalization -> the options it must not be chosen with: one constraint each, not one clause per pair
    partners: Dict[Tuple[str, int], list] = {}
    negated = {(e, 0): lit for e, lit in not_keep.items()}  # an option -> "not chosen" (one literal each, shared)
    negated.update((option, ~var) for option, var in gen.items())
    for options_ in banned:
        if len(options_) == 2:  # most bans: a generalization and another option (:func:`_ban`'s clause, inline)
            first, second = options_
            if first in gen:
                other = negated.get(second)
                if other is not None:
                    partners.setdefault(first, []).append(other)
                elif not (second[0] in keep or second[1] > 0 or second[0] in suppressed_anyway):
                    model.add_bool_or([negated[first]])  # the other kept whatever the solver does: never this one
                continue  # else the other option is never chosen (a level without a variable, a suppressed entity)
            if first[1] > 0 and first[0] in keep:
                continue  # a level without a variable is never chosen
        clause = _ban(options_, negated, keep, suppressed_anyway)
        if clause is None:
            continue
        if len(clause) == 2 and len(options_) == 2 and options_[0][1] > 0 and options_[0][0] in keep:
            partners.setdefault(options_[0], []).append(clause[1])
        else:
            model.add_bool_or(clause)
    for first, others in partners.items():  # the generalization chosen: none of the others
        model.add_bool_and(others).only_enforce_if(gen[first])
    terms = []
    for e in ids:
        full = cost(entities[e])
        terms.append(full * sup[e])
        n = len(entities[e])
        for c in options[e]:
            # + level milli-nats: of two levels scored alike (both capped at the entity's IC), the more specific
            lost = max(0, min(full - 1, full - int(round(c["ic"] * IC_SCALE * n)) + int(c["level"])))
            terms.append(lost * gen[(e, c["level"])])
    model.minimize(sum(terms))
    solver = new_solver(time_limit_s)
    status = solver.solve(model)
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, {}, name
    suppressed = {e for e in ids if solver.boolean_value(sup[e])}
    generalized = {
        e: (c["level"], c["text"]) for e in ids for c in options[e] if solver.boolean_value(gen[(e, c["level"])])
    }
    return suppressed, generalized, name


def _ban(options: Sequence[Tuple[str, int]], negated, keep, suppressed_anyway: Set[str]):
    """The clause "not all of ``options`` at once" over the model's variables (``negated``: an option of an entity of
    the model -> its literal "not chosen"); None when it always holds (an option that cannot be chosen: a level
    without a variable, an entity suppressed anyway) or when it bans only kept originals (the search risk's own
    combinations say that)."""
    if not any(n > 0 for _, n in options):
        return None
    clause = []
    for e, n in options:
        if e in keep:
            literal = negated.get((e, n))
            if literal is None:
                return None
            clause.append(literal)
        elif n > 0 or e in suppressed_anyway:
            return None  # an entity outside the combinations is never generalized; a suppressed one never shows
        # else: kept whatever the solver does, its option always holds: the others must not all be chosen
    return clause
