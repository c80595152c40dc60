"""Recover masked character spans of an original text from a rewritten (anonymized) string.

Many anonymizers return only their output text: entities replaced by ``PERSON``/``***``/
``[SENSITIVE]``, generalised ("a city in Europe"), the whole text lower-cased, punctuation
re-spaced. We tokenize both texts into words and punctuation marks (NFKC, case-folded), align the
two token sequences with a longest-matching-block diff, and report every stretch of *original*
word tokens that has no counterpart in the rewrite as masked — whatever replaced it, a tag, a
generalisation or nothing. Whitespace and punctuation between two unmatched words are included
in the span; stretches made only of punctuation are ignored (TAB scores ``\\w+`` tokens only).
"""

import difflib
import re
import unicodedata
from typing import List, Sequence, Tuple

Span = Tuple[int, int]
TOKEN = re.compile(r"\w+|[^\w\s]", re.UNICODE)
WORD = re.compile(r"\w", re.UNICODE)


def tokenize(text: str) -> List[Tuple[str, int, int]]:
    """``(normalized token, start, end)`` for words and punctuation marks of ``text``."""
    return [(unicodedata.normalize("NFKC", m.group()).casefold(), m.start(), m.end()) for m in TOKEN.finditer(text)]


def matched_flags(original: Sequence[str], rewritten: Sequence[str]) -> List[bool]:
    """For each original token: is it aligned with an equal token of the rewrite?"""
    flags = [False] * len(original)
    matcher = difflib.SequenceMatcher(None, list(original), list(rewritten), autojunk=False)
    for block in matcher.get_matching_blocks():
        for i in range(block.a, block.a + block.size):
            flags[i] = True
    return flags


def masked_spans(original: str, anonymized: str) -> List[Span]:
    """Character spans of ``original`` that ``anonymized`` did not keep (sorted, disjoint)."""
    if not isinstance(original, str) or not isinstance(anonymized, str):
        raise TypeError("masked_spans expects two strings")
    orig = tokenize(original)
    flags = matched_flags([t for t, _, _ in orig], [t for t, _, _ in tokenize(anonymized)])
    spans: List[Span] = []
    run: List[Tuple[str, int, int]] = []
    for tok, ok in zip(orig, flags):
        if not ok:
            run.append(tok)
            continue
        _flush(run, spans)
        run = []
    _flush(run, spans)
    return spans


def _flush(run, spans: List[Span]) -> None:
    words = [t for t in run if WORD.search(t[0])]
    if words:
        spans.append((words[0][1], words[-1][2]))


__all__ = ["masked_spans", "tokenize", "matched_flags"]
