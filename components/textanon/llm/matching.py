"""Matching strings returned by an LLM to ALL their occurrences in a document.

Both sides are NFKC-normalized (plus typographic quotes/dashes mapped to ASCII); the needle is split
into word and punctuation pieces, each piece is regex-escaped, and pieces are joined by ``\\s+``
between two words and ``\\s*`` next to punctuation, so "Hollywood's", "Hollywood 's" and
"hollywood’s" all match. Matching is case-insensitive and respects word boundaries ("Tom" does not
match inside "Tomato"). Strings found nowhere are *hallucinations* (dropped and counted); strings
without letters or digits and lone stop words are *ignored* (they would mask every "the").
"""

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span

from textanon.render.masking import merge

_PIECE_RE = re.compile(r"\w+|[^\w\s]")
_EDGE_PUNCT = " \t\n\"'`.,;:!?()[]{}<>«»“”‘’"
#: 1:1 character replacements applied after NFKC (keeps offsets trivially aligned)
_CHAR_MAP = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‚": "'",
        "‛": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "—": "-",
        "―": "-",
        "−": "-",
        "\u00a0": " ",
    }
)


def normalize(text: str) -> str:
    """NFKC, then typographic quotes, dashes and non-breaking spaces as their ASCII forms."""
    return unicodedata.normalize("NFKC", text).translate(_CHAR_MAP)


class NormalizedText:
    """NFKC-normalized copy of a text with a map from normalized to original character offsets."""

    def __init__(self, text: str):
        self.text = text
        if unicodedata.is_normalized("NFKC", text):
            self.norm = text.translate(_CHAR_MAP)
            self._map: Optional[List[int]] = None
        else:
            pieces, offsets = [], []
            for i, ch in enumerate(text):
                n = normalize(ch)
                pieces.append(n)
                offsets.extend([i] * len(n))
            offsets.append(len(text))
            self.norm = "".join(pieces)
            self._map = offsets

    def original(self, start: int, end: int) -> Tuple[int, int]:
        """Offsets in the original text of the normalized range ``start:end``."""
        if self._map is None:
            return start, end
        orig_start = self._map[start]
        orig_end = self._map[end - 1] + 1 if end > start else orig_start
        return orig_start, orig_end


def needle_pattern(needle: str) -> Optional[re.Pattern]:
    """Whitespace- and case-tolerant regex for a needle (None if it has no pieces)."""
    pieces = _PIECE_RE.findall(normalize(needle))
    if not pieces:
        return None
    parts = []
    for i, piece in enumerate(pieces):
        if i:
            both_words = _is_word(pieces[i - 1]) and _is_word(piece)
            parts.append(r"\s+" if both_words else r"\s*")
        parts.append(re.escape(piece))
    prefix = r"(?<!\w)" if _is_word(pieces[0]) else ""
    suffix = r"(?!\w)" if _is_word(pieces[-1]) else ""
    return re.compile(prefix + "".join(parts) + suffix, re.IGNORECASE)


def _is_word(piece: str) -> bool:
    return bool(piece) and (piece[0].isalnum() or piece[0] == "_")


def find_all(text: "NormalizedText | str", needle: str) -> List[Tuple[int, int]]:
    """Character offsets (in the original text) of every occurrence of ``needle``."""
    if isinstance(text, str):
        text = NormalizedText(text)
    for candidate in _candidates(needle):
        pattern = needle_pattern(candidate)
        if pattern is None:
            continue
        hits = [text.original(m.start(), m.end()) for m in pattern.finditer(text.norm) if m.end() > m.start()]
        if hits:
            return hits
    return []


def _candidates(needle: str) -> List[str]:
    needle = needle.strip()
    stripped = needle.strip(_EDGE_PUNCT)
    return [needle] if stripped == needle or not stripped else [needle, stripped]


@dataclass
class MatchResult:
    #: (start_char, end_char) of every occurrence of every found string, sorted, not merged
    ranges: List[Tuple[int, int]] = field(default_factory=list)
    found: List[str] = field(default_factory=list)
    hallucinated: List[str] = field(default_factory=list)
    ignored: List[str] = field(default_factory=list)


def is_trivial(needle: str, stop_words: Iterable[str] = ()) -> bool:
    """No letters/digits, or a single stop word: matching it would mask noise, not information."""
    core = needle.strip(_EDGE_PUNCT)
    if not any(ch.isalnum() for ch in core):
        return True
    return core.casefold() in stop_words


def match_strings(text: "NormalizedText | str", strings: Sequence[str], stop_words: Iterable[str] = ()) -> MatchResult:
    """Find all occurrences of each string; unmatched strings are reported as hallucinated."""
    if isinstance(text, str):
        text = NormalizedText(text)
    stop = set(stop_words)
    result = MatchResult()
    seen = set()
    for s in strings:
        if is_trivial(s, stop):
            result.ignored.append(s)
            continue
        hits = find_all(text, s)
        if hits:
            result.found.append(s)
            for hit in hits:
                if hit not in seen:
                    seen.add(hit)
                    result.ranges.append(hit)
        else:
            result.hallucinated.append(s)
    result.ranges.sort()
    return result


def ranges_to_spans(doc: Doc, ranges: Iterable[Tuple], label: str = "PII") -> List[Span]:
    """Token-aligned spans for ``(start, end)`` or ``(start, end, source)`` char ranges, expanded to
    whole tokens (masks more, never less) and merged where they overlap (:func:`textanon.render.masking.merge`);
    ``span._.source`` is the first source of each merged span, its ranges taken by start, the shortest first
    (ranges without a source leave it unset)."""
    token_ranges = []
    for item in ranges:
        start, end = item[0], item[1]
        source = item[2] if len(item) > 2 else None
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is not None and len(span):
            token_ranges.append((span.start, span.end, source))
    spans = []
    for start, end, source in merge(token_ranges, shortest_first=True):
        span = Span(doc, start, end, label=label)
        if source is not None:
            span._.source = source
        spans.append(span)
    return spans
