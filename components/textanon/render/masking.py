"""Where masks are applied: the mask type, replacement strings, propagation to every occurrence, merging (and the
joining of adjacent placeholders), coverage and rendering of the masked text. Every component, benchmark and
evaluation that merges or renders masks calls the functions here.

A mask is ``(start, end, replacement)``: character offsets into the original text and the string written in
their place, or ``None`` where only the offsets are known (masks read from an offsets file, benchmark spans):
such masks are rendered with a ``mark`` (``***``, ``SENSITIVE``) that replaces every one of them. ``(start, end)``
pairs are accepted wherever masks are, as masks without a replacement.
"""

import bisect
import itertools
import re
from functools import lru_cache
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from textanon.detect.target import is_common_word
from textanon.regions import Mask, merge  # noqa: F401  (re-exported: their home is textanon.regions)

REPLACEMENT_STYLES = ("suppression", "label", "numbered")
SUPPRESSION = "***"  # the default suppression string


class MaskError(ValueError):
    """Masks that do not fit their text: offsets outside it, reversed, out of order, or no replacement."""


def replacement(style: str, label: str, entity_id: str, suppression: str = SUPPRESSION) -> str:
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
    that lower-case form is an ordinary English word (:func:`textanon.detect.target.is_common_word`): masking
    "US" or "May" does not mask "us" or "may", masking "Petrescu" masks "petrescu" and "PETRESCU".
    Forms shorter than ``min_chars`` (e.g. a lone initial) are not propagated. Forms in chunks of 500, longest first,
    each chunk's matches those of its own regular expression; one linear scan for all chunks.
    """
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
    for table, ignorecase in ((insensitive, True), (exact, False)):
        forms = sorted(table, key=len, reverse=True)
        # each chunk's matches as if its forms alone were searched (the regular expression of each chunk), in one scan
        for found in occurrences_in_groups(text, list(_chunks(forms, 500)), ignorecase):
            for start, end in found:
                key = " ".join(text[start:end].split())
                rep = table.get(key.lower() if ignorecase else key)
                extra.append((start, end, rep if rep is not None else next(iter(table.values()))))
    return merge(list(masks) + extra)


def occurrences(text: str, forms: Sequence[str], ignorecase: bool) -> List[Tuple[int, int]]:
    r"""Where ``forms`` (each words joined by single spaces; earlier forms win) occur in ``text`` as whole words, any
    run of whitespace between their words: the matches, left to right and not overlapping, of the regular
    expression ``(?<!\w)(?:f1|f2|...)(?!\w)`` (``re.IGNORECASE`` when ``ignorecase``), found without compiling
    it — a document's masked forms make a new alternation at every rendering, and compiling it cost more than
    the scan. Forms are looked up by their first word at each place a word may start. Case-insensitively, text and
    forms are compared lower-cased; where a character's case folding is one the engine treats specially (dotless i,
    long s, Greek and Cyrillic variants, a lower case of more than one character), folded as the engine folds them
    (:func:`_engine_fold`, one character per character). Without the engine's case tables (Python 3.10) the regular
    expression itself matches."""
    return occurrences_in_groups(text, [forms], ignorecase)[0] if forms else []


def occurrences_in_groups(text: str, groups: Sequence[Sequence[str]], ignorecase: bool) -> List[List[Tuple[int, int]]]:
    """:func:`occurrences` of each group of forms (its own matches: earlier forms of the group win, the group's matches
    do not overlap, another group's may), all found in one scan of ``text``: a long document's masked forms come in
    many groups (:func:`propagate`'s chunks), and a scan per group made the propagation grow with the square of the
    length."""
    groups = [list(g) for g in groups]
    if not any(groups):
        return [[] for _ in groups]
    lowered = _case_view(text, [f for g in groups for f in g]) if ignorecase else (lambda s: s)
    if lowered is None:
        return [_regex_occurrences(text, g) if g else [] for g in groups]
    hay = lowered(text)
    by_first: Dict[str, List[Tuple[int, int, List[str]]]] = {}  # first word -> (group, form number, other words)
    for g, forms in enumerate(groups):
        for i, form in enumerate(forms):
            words = lowered(form).split()
            by_first.setdefault(words[0], []).append((g, i, words[1:]))
    lengths = sorted({len(w) for w in by_first})
    firsts = "".join(sorted({w[0] for w in by_first}))
    starts = re.compile(r"(?<!\w)[" + re.escape(firsts) + "]", re.IGNORECASE if ignorecase else 0)
    n = len(text)
    found: List[List[Tuple[int, int]]] = [[] for _ in groups]
    resume = [0] * len(groups)  # per group: where its last match ended (its matches do not overlap)
    for m in starts.finditer(text):
        p = m.start()
        best: Dict[int, Tuple[int, int]] = {}  # group -> (form number, end): the group's first form found here
        for length in lengths:
            for g, i, rest in by_first.get(hay[p : p + length], ()):
                if p < resume[g] or (g in best and i >= best[g][0]):
                    continue  # inside the group's last match, or an earlier form of the group already matched here
                end = _rest_of(hay, p + length, rest, n)
                if end is not None and not (end < n and _is_word(text[end])):
                    best[g] = (i, end)
        for g, (_, end) in best.items():
            found[g].append((p, end))
            resume[g] = end
    return found


def _regex_occurrences(text: str, forms: Sequence[str]) -> List[Tuple[int, int]]:
    """:func:`occurrences`, case-insensitive, by the regular expression itself."""
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(_flexible(f) for f in forms) + r")(?!\w)", re.IGNORECASE)
    return [m.span() for m in pattern.finditer(text)]


def _rest_of(hay: str, pos: int, words: Sequence[str], n: int) -> Optional[int]:
    """The end of ``words`` read from ``pos`` on, each after one or more whitespace characters; None if they are
    not there."""
    for word in words:
        j = pos
        while j < n and hay[j].isspace():
            j += 1
        if j == pos or not hay.startswith(word, j):
            return None
        pos = j + len(word)
    return pos


def _is_word(char: str) -> bool:
    r"""``\w`` of Python's regular expressions on str."""
    return char.isalnum() or char == "_"


try:  # CPython 3.11+: the engine's extra case pairs and simple lower case (private; absent: always the regex)
    from _sre import unicode_tolower
    from re._casefix import _EXTRA_CASES
except ImportError:  # pragma: no cover — Python 3.10 (the package allows it): _case_view says None, the regex matches
    unicode_tolower, _EXTRA_CASES = None, None

#: characters the regular expression engine matches case-insensitively beyond their lower case (re._casefix), but
#: ASCII i and s (they match such a character only where one is in the text or a form)
_SPECIAL_CASE = frozenset(chr(c) for k, v in (_EXTRA_CASES or {}).items() for c in (k, *v)) - {"i", "s"}


def _case_view(text: str, forms: Sequence[str]) -> Optional[Callable[[str], str]]:
    """How :func:`occurrences` lower-cases ``text`` and ``forms`` so that comparing them is the regular expression
    engine's case-insensitive matching: ``str.lower`` where the case of every character is plain
    (:func:`_plain_case`), else :func:`_engine_fold` of each character (the same length: offsets are kept); None
    where the engine's tables cannot be read (Python 3.10: the regular expression matches)."""
    if unicode_tolower is None:
        return None
    chars = _characters(text, forms)
    if _plain_chars(chars):
        return str.lower
    table = {ord(c): _engine_fold(c) for c in chars}
    return lambda s: s.translate(table)


@lru_cache(maxsize=65536)
def _engine_fold(char: str) -> str:
    """``char`` as the regular expression engine compares it case-insensitively: its simple lower case
    (``_sre.unicode_tolower``), then the first character of that lower case's class of extra case pairs
    (``re._casefix``: "ı" and "i", "ſ" and "s", "ς" and "σ" match each other). Two characters match each other under
    ``re.IGNORECASE`` exactly when they fold to the same character: the engine compares the simple lower case of a
    text's character with a pattern character's lower case and its extra pairs, whose classes partition the lower
    cases, and no character with a case lowers to one without (a pattern character without case matches itself
    only; tests/render/test_occurrences.py checks both over every code point)."""
    lower = unicode_tolower(ord(char))
    return chr(min((lower, *_EXTRA_CASES.get(lower, ()))))


def _plain_case(text: str, forms: Sequence[str]) -> bool:
    """Whether comparing lower-cased strings is exactly the regular expression engine's case-insensitive matching
    for ``text`` and ``forms``: every character has a one-character lower case, the simple one, and none is
    matched specially (:data:`_SPECIAL_CASE`). False where the engine's tables cannot be read (Python 3.10)."""
    return unicode_tolower is not None and _plain_chars(_characters(text, forms))


def _characters(text: str, forms: Sequence[str]) -> set:
    """The distinct characters of ``text`` and ``forms``."""
    chars = set(text)
    for form in forms:
        chars.update(form)
    return chars


def _plain_chars(chars: Iterable[str]) -> bool:
    """:func:`_plain_case` of these characters (the engine's tables read)."""
    for char in chars:
        lower = char.lower()
        if (
            len(lower) != 1
            or lower in _SPECIAL_CASE
            or char in _SPECIAL_CASE
            or ord(lower) != unicode_tolower(ord(char))
        ):
            return False
    return True


def join_adjacent(text: str, masks: Iterable[Sequence], placeholders: Iterable[str]) -> Tuple[List[Mask], int]:
    """Masks (merged, sorted) where two placeholder masks in a row with the same replacement (one of
    ``placeholders``: ``***``, ``[ORG]``; never a pseudonym or a generalization, which are words) and only spaces
    or tabs between them become one mask covering both: "*** ***" is written "***". So does a placeholder whose
    parenthesis holds nothing but the same placeholder, the brackets with it: a title and its year both suppressed,
    "*** (***)", is written "***" (the year's brackets tell only that a year was there). A line break keeps them apart
    (the layout stays). Returns (the masks, how many were joined to the one before)."""
    placeholders = set(placeholders)
    masks = merge(masks)
    starts = {m[0] for m in masks}
    out: List[Mask] = []
    joined = 0
    for start, end, *rest in masks:
        rep = rest[0] if rest else None
        if out and rep in placeholders and out[-1][2] == rep:
            gap = text[out[-1][1] : start]
            if _blank(gap):
                out[-1] = (out[-1][0], end, rep)
                joined += 1
                continue
            if gap.endswith("(") and _blank(gap[:-1]) and text[end : end + 1] == ")" and end not in starts:
                out[-1] = (out[-1][0], end + 1, rep)  # "*** (***)" -> "***"
                joined += 1
                continue
        out.append((start, end, rep))
    return out, joined


#: what the generalizer writes for another person's name, and its possessive (decide/generalization/persons.py)
OTHER_PERSON = ("another person", "another person's")


def absorb_named(text: str, masks: Iterable[Sequence], generalized: Iterable[str]) -> Tuple[List[Mask], int]:
    """Masks (merged, sorted) where a generalized common noun right before a name written "another person" takes the
    name in: "the eccentric millionaire Howard Hughes" is written "the eccentric person", not "the eccentric person
    another person"; "director Ann Lee's film" -> "person's film". Only a noun written in lower case (a title, a job:
    never a name) and one or more spaces between; the name's other mentions stay "another person". Returns (the
    masks, how many names were taken in)."""
    generalized = set(generalized)
    out: List[Mask] = []
    taken = 0
    for start, end, *rest in merge(masks):
        rep = rest[0] if rest else None
        if out and rep in OTHER_PERSON:
            first, last, before = out[-1]
            gap = text[last:start]
            if before in generalized and before not in OTHER_PERSON and gap and gap.strip(" ") == "":
                if text[first:last][:1].islower():
                    out[-1] = (first, end, before + ("'s" if rep.endswith("'s") else ""))
                    taken += 1
                    continue
        out.append((start, end, rep))
    return out, taken


#: the separators of a list between two names: "A, B", "A and B", "A, and B", "A & B"
LIST_SEPARATORS = frozenset({",", "and", ", and", "&", ", &"})
#: how many other people a list of names written "another person" each is, in words
NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def join_people(text: str, masks: Iterable[Sequence]) -> Tuple[List[Mask], int]:
    """Masks (merged, sorted) where two or more masks written "another person" in a row, only a list's separators
    between them (:data:`LIST_SEPARATORS`, spaces; no line break), become one mask written "two other people", "three
    other people" ...: "She co-starred with another person, another person and another person" reads "She
    co-starred with three other people". A possessive ("another person's film") ends no list and joins none. The
    same characters are masked (and the separators between them); only the writing changes. Returns (the masks, how
    many lists were joined)."""
    out: List[Mask] = []
    runs: List[int] = []  # for each mask of ``out``: how many names it stands for (0: no "another person")
    joined = 0
    for start, end, *rest in merge(masks):
        rep = rest[0] if rest else None
        if out and rep == OTHER_PERSON[0] and runs[-1]:
            if _list_gap(text[out[-1][1] : start]):
                runs[-1] += 1
                out[-1] = (out[-1][0], end, _other_people(runs[-1]))
                if runs[-1] == 2:
                    joined += 1
                continue
        out.append((start, end, rep))
        runs.append(1 if rep == OTHER_PERSON[0] else 0)
    return out, joined


def _list_gap(gap: str) -> bool:
    """Whether ``gap`` is one of :data:`LIST_SEPARATORS` with spaces or tabs around it ("," needs none before it)."""
    if "\n" in gap or "\r" in gap:
        return False
    return " ".join(gap.replace(",", " , ").split()).replace(" ,", ",") in LIST_SEPARATORS


#: how :func:`join_people` ends what it writes ("two other people")
OTHER_PEOPLE = " other people"


def _other_people(n: int) -> str:
    """ "two other people" ... "ten other people", then "11 other people"."""
    return f"{NUMBER_WORDS[n - 2] if n - 2 < len(NUMBER_WORDS) else n}{OTHER_PEOPLE}"


def is_other_people(replacement: Optional[str]) -> bool:
    """Whether ``replacement`` names people by the generalizer's words: "another person" ("another person's") or
    :func:`join_people`'s "two other people": no article of its own, none taken from the text before it."""
    return bool(replacement) and (replacement.lower().startswith("another ") or replacement.endswith(OTHER_PEOPLE))


def _blank(gap: str) -> bool:
    """Only spaces and tabs (or nothing)."""
    return not gap.strip() and "\n" not in gap and "\r" not in gap


def overlap_test(spans: Iterable[Sequence]) -> Callable[[int, int], bool]:
    """A test of whether ``[start, end)`` overlaps one of ``spans`` (``[start, end, ...]`` each, any order): of the
    spans starting before ``end``, one ends after ``start``. The spans sorted by start and the running maximum of
    their ends answer it with one bisection per question (long documents ask it for thousands of mentions)."""
    starts, reach = _starts_and_reach(spans)

    def overlaps(start: int, end: int) -> bool:
        before = bisect.bisect_left(starts, end)
        return bool(before) and reach[before - 1] > start

    return overlaps


def containment_test(spans: Iterable[Sequence]) -> Callable[[int, int], bool]:
    """A test of whether ``[start, end)`` lies inside one of ``spans`` (``[start, end, ...]`` each, any order): of the
    spans starting at or before ``start``, one ends at or after ``end``; one bisection per question, as
    :func:`overlap_test`."""
    starts, reach = _starts_and_reach(spans)

    def inside(start: int, end: int) -> bool:
        before = bisect.bisect_right(starts, start)
        return bool(before) and reach[before - 1] >= end

    return inside


def _starts_and_reach(spans: Iterable[Sequence]) -> Tuple[List[int], List[int]]:
    """The spans' starts, sorted, and the running maximum of their ends in that order."""
    ordered = sorted((s[0], s[1]) for s in spans)
    return [a for a, _ in ordered], list(itertools.accumulate((b for _, b in ordered), max))


def merge_offsets(spans: Iterable[Sequence], length: Optional[int] = None) -> List[List[int]]:
    """Sorted ``[start, end]`` regions covered by ``spans`` (``[start, end, ...]`` each, any order): overlapping
    and touching spans merged, empty ones dropped, offsets as ints (the JSON offsets form of benchmark masks).

    ``length``: the text's length; a span outside ``[0, length]`` or reversed raises :class:`MaskError`."""
    spans = [(int(s[0]), int(s[1])) for s in spans]
    if length is not None:
        for start, end in spans:
            _check(start, end, length)
    return [[start, end] for start, end, _ in merge(((s, e) for s, e in spans if e > s), adjacent=True)]


def covered(masks: Sequence[Sequence], start: int, end: int) -> bool:
    """True if the merged, sorted ``masks`` (``[start, end, ...]`` each) cover every character of [start, end)."""
    pos = start
    first = max(0, bisect.bisect_right(masks, start, key=lambda m: m[0]) - 1)  # no list of starts: O(log n)
    for m_start, m_end, *_ in masks[first:]:
        if m_start > pos:
            return False
        pos = max(pos, m_end)
        if pos >= end:
            return True
    return pos >= end


def apply(text: str, masks: Iterable[Sequence], mark: Optional[str] = None) -> str:
    """``text`` with every mask replaced by its replacement, or by ``mark`` when one is given.

    ``masks`` come sorted by start, as :func:`merge` returns them; a mask overlapping an earlier one writes its
    replacement too but removes only the characters not removed yet (merge first for one replacement per region).
    Raises :class:`MaskError` for a mask outside the text, reversed or out of order, or without a replacement
    when no ``mark`` is given."""
    parts, pos, previous = [], 0, 0
    for start, end, *rest in masks:
        _check(start, end, len(text))
        if start < previous:
            raise MaskError(f"masks out of order: one starts at {start} after one at {previous}")
        rep = mark if mark is not None else (rest[0] if rest else None)
        if rep is None:
            raise MaskError(f"mask {start}-{end} has no replacement and no mark was given")
        parts.append(text[pos:start])
        parts.append(rep)
        pos, previous = max(pos, end), start
    parts.append(text[pos:])
    return "".join(parts)


def output_regions(masks: Iterable[Sequence]) -> List[Tuple[int, int, str]]:
    """``(start, end, replacement)`` of every mask in the text :func:`apply` writes (``masks`` sorted and merged,
    each with its replacement; a replacement None counts as empty)."""
    out, shift = [], 0
    for start, end, *rest in masks:
        rep = (rest[0] if rest else None) or ""
        out.append((start + shift, start + shift + len(rep), rep))
        shift += len(rep) - (end - start)
    return out


def apply_offsets(text: str, spans: Iterable[Sequence], mark: str) -> str:
    """``text`` with every region covered by ``spans`` (``[start, end, ...]`` each, any order, may overlap)
    replaced by one ``mark``: overlapping and touching spans give one mark. Raises :class:`MaskError` for a
    span outside the text or reversed."""
    return apply(text, merge_offsets(spans, len(text)), mark)


def _check(start: int, end: int, length: int) -> None:
    if not 0 <= start <= end <= length:
        raise MaskError(f"span {start}-{end} outside the text (length {length})")


def _flexible(form: str) -> str:
    """Regex for a surface form that tolerates any run of whitespace between its words."""
    return r"\s+".join(re.escape(w) for w in form.split())


def _chunks(items: List[str], size: int):
    for i in range(0, len(items), size):
        yield items[i : i + size]
