"""The cost of masking and the risk of an entity, shared by the deciders (the optimizer, the generalizer's choice,
the search risk) and the risk scorers: the bottom of the house, importing nothing from textanon.

CP-SAT needs integer costs, so an entity's masking cost is its information content (IC, in nats) times
:data:`IC_SCALE` (milli-nats). Fail closed: a mention the risk scorer did not score costs :data:`DEFAULT_IC`."""

import math
from typing import Dict, Iterable, Optional

IC_SCALE = 1000  # CP-SAT needs integer costs: IC in milli-nats
DEFAULT_IC = 10.0  # cost of a mention the risk scorer did not score
LN10 = math.log(10.0)
#: ``doc.user_data`` key: the threshold (log10) of the doc's latest risk decision (the optimizer's generalization rule)
THRESHOLD_KEY = "textanon.risk_threshold"


def scored_ic(ic) -> Optional[float]:
    """``ic`` as a float, or None when the span is unscored (None, NaN, infinite)."""
    if ic is None:
        return None
    try:
        value = float(ic)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def mask_cost(mentions: Iterable) -> int:
    """Masking cost in milli-nats of an entity's mentions (spans with ``span._.ic``): the mentions' IC,
    :data:`DEFAULT_IC` for an unscored mention."""
    ics = [scored_ic(m._.ic) for m in mentions]
    total = sum(DEFAULT_IC if ic is None else max(ic, 0.0) for ic in ics) or DEFAULT_IC
    return max(1, int(round(total * IC_SCALE)))


def entity_log10_probs(spans) -> Dict[str, float]:
    """log10-probability of each entity: that of its most informative (highest-IC) mention;
    ``-inf`` (a certain risk) for an entity with an unscored mention (see :func:`scored_ic`). Occurrences of
    the protected name that the optimizer added (source ``target``) are skipped: they are always masked."""
    entity_lp: Dict[str, float] = {}
    for i, span in enumerate(spans):
        if span._.source == "target":
            continue
        eid = span._.entity_id or f"span_{i}"
        ic = scored_ic(span._.ic)
        lp = -math.inf if ic is None else -ic / LN10
        entity_lp[eid] = min(entity_lp.get(eid, 0.0), lp)
    return entity_lp
