"""Why each detected span was masked or kept, read from what the pipeline records in an output record.

The output record of a document (``textanon.render.output.doc_to_record``) keeps, per span, its label, source,
entity id, information content (IC) and whether the applied masks cover it, and, per document, the risky
combinations and the warnings (fail-closed decisions). The optimizer's rules (``textanon.pipes.optimizer``) turn
these into decisions; :func:`explain` states, for every span, which of them applies:

* always masked: a CODE mention or a CODE rule (direct identifier), a date of birth, the protected person's
  name (an occurrence the recognizer missed: source ``target``; or a mention overlapping an occurrence of the
  target's name, when the target is known), a deny-list entry (source ``deny``), or, without a target, a full
  person name (the optimizer's warning says so);
* masked to break a risky combination (the combinations it belongs to, and which of them nothing else breaks);
* kept: in no risky combination, or every combination it belongs to has another masked member;
* masked without a rule above: the same text as a masked mention elsewhere (propagation) or a fail-closed
  decision (the warnings say which);
* unscored (IC None): treated as a risk on its own.

Nothing here logs or returns text beyond what the record already holds.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from textanon.detect.target import name_occurrences, name_words
from textanon.labels import PERSON
from textanon.pipes.optimizer import DENY_SOURCE, is_birth_date, is_code

TARGET_SOURCE = "target"  # span source of a protected-name occurrence the recognizer missed (optimizer)


@dataclass
class Explanation:
    """The decision about one span and why: ``masked``, the reasons (sentences), and the indices of the risky
    combinations (in ``record["risky_combinations"]``) its entity belongs to."""

    masked: bool
    reasons: List[str] = field(default_factory=list)
    combinations: List[int] = field(default_factory=list)
    always: bool = False  # masked whatever the risk (direct identifier, protected name, deny list)


def explain(record: dict, text: Optional[str] = None, target: Optional[str] = None) -> List[Explanation]:
    """One :class:`Explanation` per span of ``record["spans"]``, in order.

    text: the original text (for dates of birth and the target's name; without it those rules are not checked
    and the reason falls back to what the record says). target: the protected person, when known."""
    spans = record.get("spans") or []
    combos = [list(c) for c in (record.get("risky_combinations") or [])]
    warnings = record.get("warnings") or []
    by_entity: Dict[str, List[int]] = {}
    for i, s in enumerate(spans):
        by_entity.setdefault(_entity(s, i), []).append(i)
    masked_entities = {e for e, idx in by_entity.items() if any(spans[i]["masked"] for i in idx)}
    target_chars = name_occurrences(text, target) if text and target else []
    no_target = any("no target given" in w for w in warnings)
    scored = any(s.get("ic") is not None for s in spans)  # False: no risk scorer ran

    always: Dict[str, List[str]] = {}
    for eid, idx in by_entity.items():
        reasons = always.setdefault(eid, [])
        mentions = [spans[i] for i in idx]
        if any(is_code(m["label"], m.get("source")) for m in mentions):
            reasons.append("direct identifier (CODE): always masked")
        if any(m.get("source") == TARGET_SOURCE for m in mentions):
            reasons.append("the protected person's name, missed by the recognizer: always masked")
        elif target_chars and any(_overlaps(m, target_chars) for m in mentions):
            reasons.append("the protected person's name: always masked")
        if text and any(is_birth_date(text, m["start"], m["label"]) for m in mentions):
            reasons.append("date of birth: always masked")
        if any(m.get("source") == DENY_SOURCE for m in mentions):
            reasons.append("on the deny list: always masked")
        if no_target and any(m["label"] == PERSON and len(_words(text, m)) >= 2 for m in mentions if text):
            reasons.append("a full person name, and no target was given: always masked")

    out = []
    for i, s in enumerate(spans):
        eid = _entity(s, i)
        member = [k for k, c in enumerate(combos) if eid in c]
        exp = Explanation(masked=bool(s["masked"]), combinations=member, always=bool(always[eid]))
        exp.reasons += always[eid]
        alone = [k for k in member if len(set(combos[k])) == 1]
        others = {k: sorted(set(combos[k]) - {eid}) for k in member if k not in alone}
        unbroken = [k for k, rest in others.items() if not set(rest) & masked_entities]
        broken = [k for k in others if k not in unbroken]
        also = "also " if exp.always else ""
        if exp.masked:
            if alone:
                exp.reasons.append(
                    f"{also}risky on its own: its information content alone passes the risk threshold "
                    f"(combination {_list(alone)})"
                )
            for k in unbroken:
                exp.reasons.append(
                    f"masked to break risky combination #{k + 1} (with {', '.join(others[k])}), "
                    "which no other masked entity breaks"
                )
            if broken:
                exp.reasons.append(f"{also}in risky combination {_list(broken)}, also broken by another masked entity")
            if not exp.reasons:
                exp.reasons.append(
                    "masked: the same text as a masked mention elsewhere, or a fail-closed decision (see the warnings)"
                )
        else:
            if alone or unbroken:
                exp.reasons.append(
                    f"KEPT although risky combination {_list(alone + unbroken)} has no masked member: "
                    "check this decision"
                )
            for k in broken:
                masked_others = [e for e in others[k] if e in masked_entities]
                exp.reasons.append(f"kept: risky combination #{k + 1} is broken by masking {', '.join(masked_others)}")
            if not member:
                exp.reasons.append("kept: in no risky combination")
            if eid in masked_entities:
                exp.reasons.append("another mention of this entity is masked")
        if scored and s.get("ic") is None and s.get("source") != TARGET_SOURCE:
            exp.reasons.append("not scored by the language model (IC unknown): treated as a risk on its own")
        for reason in s.get("risk_reasons") or []:
            exp.reasons.append(f"search risk: {reason}")
        out.append(exp)
    return out


def combination_status(record: dict) -> List[Tuple[List[str], Set[str]]]:
    """Per risky combination: its entity ids and those of them with a masked mention (empty: not broken)."""
    masked = {_entity(s, i) for i, s in enumerate(record.get("spans") or []) if s["masked"]}
    return [(list(c), {e for e in c if e in masked}) for c in (record.get("risky_combinations") or [])]


def _entity(span: dict, i: int) -> str:
    return span.get("entity_id") or f"span_{i}"


def _overlaps(span: dict, chars: Sequence[Tuple[int, int]]) -> bool:
    return any(span["start"] < e and s < span["end"] for s, e in chars)


def _words(text: Optional[str], span: dict) -> List[str]:
    return name_words(text[span["start"] : span["end"]]) if text else []


def _list(indices: Sequence[int]) -> str:
    return ", ".join(f"#{k + 1}" for k in indices)
