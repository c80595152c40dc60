"""Character regions of a text, the mask type and their merging: the bottom of the house, importing nothing from
textanon (:mod:`textanon.render.masking` re-exports both; the name search of :mod:`textanon.detect.target` merges its
occurrences with them).

A mask is ``(start, end, replacement)``: character offsets into the original text and the string written in
their place, or ``None`` where only the offsets are known."""

from typing import Iterable, List, Optional, Sequence, Tuple

#: ``(start, end, replacement)``: the one mask type (replacement None where only the offsets are known)
Mask = Tuple[int, int, Optional[str]]


def merge(masks: Iterable[Sequence], adjacent: bool = False, shortest_first: bool = False) -> List[Mask]:
    """Sort and merge overlapping masks (``adjacent``: touching ones too, ``[0, 3]`` and ``[3, 5]``).

    Masks are taken by start, the longest first (``shortest_first``: the shortest first); a merged region keeps
    the first replacement that is not None. Empty masks are kept (see :func:`textanon.render.masking.merge_offsets`)."""
    order = (lambda m: (m[0], m[1])) if shortest_first else (lambda m: (m[0], -m[1]))
    out: List[Mask] = []
    for start, end, *rest in sorted(masks, key=order):
        rep = rest[0] if rest else None
        if out and (start < out[-1][1] or (adjacent and start == out[-1][1])):
            first, last, kept = out[-1]
            out[-1] = (first, max(last, end), rep if kept is None else kept)
            continue
        out.append((start, end, rep))
    return out
