"""Docs whose token boundaries include given character offsets, so spans keep exact offsets."""

from typing import TYPE_CHECKING, Iterable, List, Optional, Set, Tuple

import spacy
from spacy.tokens import Doc, Span

if TYPE_CHECKING:
    from spacy.language import Language

_NLP = None


def blank_nlp() -> "Language":
    """A blank English pipeline (tokenizer only), created once."""
    global _NLP
    if _NLP is None:
        _NLP = spacy.blank("en")
    return _NLP


def make_doc(text: str, spans: Iterable[Tuple[int, int]] = (), nlp: Optional["Language"] = None) -> Doc:
    """Tokenize ``text`` with spaCy rules, then split tokens at every span boundary.

    A trailing space that a span starts at or ends after becomes a token of its own.
    """
    nlp = nlp or blank_nlp()
    spans = list(spans)
    starts: Set[int] = {s for s, _ in spans}
    ends: Set[int] = {e for _, e in spans}
    cuts = {0, len(text)} | starts | ends
    trailing: Set[int] = set()  # start offsets of single trailing spaces
    for tok in nlp.tokenizer(text):
        cuts.update((tok.idx, tok.idx + len(tok)))
        if tok.whitespace_:
            trailing.add(tok.idx + len(tok))
            cuts.add(tok.idx + len(tok) + 1)
    points = sorted(c for c in cuts if 0 <= c <= len(text))
    words: List[str] = []
    spaces: List[bool] = []
    for a, b in zip(points, points[1:]):
        fold = a in trailing and b == a + 1 and words and not spaces[-1] and a not in starts and b not in ends
        if fold:
            spaces[-1] = True
        else:
            words.append(text[a:b])
            spaces.append(False)
    doc = Doc(nlp.vocab, words=words, spaces=spaces)
    assert doc.text == text
    return doc


def exact_span(doc: Doc, start: int, end: int, label: str = "", span_id: str = "", kb_id: str = "") -> Span:
    """The span with exactly these offsets (``make_doc`` guarantees alignment)."""
    span = doc.char_span(start, end, label=label, kb_id=kb_id or "", span_id=span_id or "")
    if span is None:
        raise ValueError(f"offsets [{start}, {end}] do not align with token boundaries")
    return span


def span_offsets(span: Span) -> Tuple[int, int]:
    """``(start_char, end_char)`` of ``span``."""
    return span.start_char, span.end_char


__all__ = ["make_doc", "exact_span", "blank_nlp", "span_offsets"]
