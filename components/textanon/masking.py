"""Rendering masking decisions: replacement strings, propagation to every occurrence, masked text."""

import bisect
import re
from typing import Dict, Iterable, List, Sequence, Tuple

REPLACEMENT_STYLES = ("suppression", "label", "numbered")

Mask = Tuple[int, int, str]


def replacement(style: str, label: str, entity_id: str, suppression: str = "***") -> str:
    """``***`` / ``[PERSON]`` / ``[PERSON_1]`` for one masked entity."""
    if style == "suppression":
        return suppression
    if style == "label":
        return f"[{label}]"
    if style == "numbered":
        return f"[{entity_id}]"
    raise ValueError(f"unknown replacement style {style!r}; expected one of {REPLACEMENT_STYLES}")


def propagate(text: str, masks: Sequence[Mask], surfaces: Dict[str, str], min_chars: int = 2) -> List[Mask]:
    """Add a mask for every further occurrence (whole words) of a masked surface form.

    surfaces: surface text -> replacement. Letter case: a multi-word form matches in any case; a
    single word matches as written, Title-case and UPPER case, and in lower case (any case) too unless
    that lower-case form is an ordinary English word (:func:`textanon.target.is_common_word`): masking
    "US" or "May" does not mask "us" or "may", masking "Petrescu" masks "petrescu" and "PETRESCU".
    Forms shorter than ``min_chars`` (e.g. a lone initial) are not propagated. One linear scan per
    chunk of 500 forms; longest forms first.
    """
    from .target import is_common_word

    insensitive: Dict[str, str] = {}  # lower-cased form -> replacement (any letter case matches)
    exact: Dict[str, str] = {}  # form as written, Title-case, UPPER -> replacement
    for surface, rep in surfaces.items():
        form = " ".join(surface.split())
        if len(form) < min_chars:
            continue
        if " " in form or not is_common_word(form):
            insensitive.setdefault(form.lower(), rep)
        else:
            for variant in (form, form[:1].upper() + form[1:], form.upper()):
                exact.setdefault(variant, rep)
    extra: List[Mask] = []
    for table, flags in ((insensitive, re.IGNORECASE), (exact, 0)):
        forms = sorted(table, key=len, reverse=True)
        for chunk in _chunks(forms, 500):
            pattern = re.compile(r"(?<!\w)(?:" + "|".join(_flexible(f) for f in chunk) + r")(?!\w)", flags)
            for m in pattern.finditer(text):
                key = " ".join(m.group(0).split())
                rep = table.get(key.lower() if flags else key)
                extra.append((m.start(), m.end(), rep if rep is not None else next(iter(table.values()))))
    return merge(list(masks) + extra)


def merge(masks: Iterable[Mask]) -> List[Mask]:
    """Sort and merge overlapping masks; a merged region keeps the replacement of its first mask."""
    out: List[Mask] = []
    for start, end, rep in sorted(masks, key=lambda m: (m[0], -m[1])):
        if out and start < out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end, out[-1][2])
            continue
        out.append((start, end, rep))
    return out


def covered(masks: Sequence[Sequence], start: int, end: int) -> bool:
    """True if the merged, sorted ``masks`` (``[start, end, ...]`` each) cover every character of [start, end)."""
    pos = start
    first = max(0, bisect.bisect_right([m[0] for m in masks], start) - 1)
    for m_start, m_end, *_ in masks[first:]:
        if m_start > pos:
            return False
        pos = max(pos, m_end)
        if pos >= end:
            return True
    return pos >= end


def apply(text: str, masks: Sequence[Mask]) -> str:
    """The text with each (non-overlapping, sorted) mask replaced."""
    parts, pos = [], 0
    for start, end, rep in masks:
        parts.append(text[pos:start])
        parts.append(rep)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def _flexible(form: str) -> str:
    """Regex for a surface form that tolerates any run of whitespace between its words."""
    return r"\s+".join(re.escape(w) for w in form.split())


def _chunks(items: List[str], size: int):
    for i in range(0, len(items), size):
        yield items[i : i + size]
