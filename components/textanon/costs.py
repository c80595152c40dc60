"""The cost of masking, shared by the deciders (the optimizer, the generalizer's choice, the search risk): the
bottom of the house, importing nothing from textanon.

CP-SAT needs integer costs, so an entity's masking cost is its information content (IC, in nats) times
:data:`IC_SCALE` (milli-nats). Fail closed: a mention the risk scorer did not score costs :data:`DEFAULT_IC`."""

import math
from typing import Iterable, Optional

IC_SCALE = 1000  # CP-SAT needs integer costs: IC in milli-nats
DEFAULT_IC = 10.0  # cost of a mention the risk scorer did not score


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
