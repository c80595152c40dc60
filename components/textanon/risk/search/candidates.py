"""Quasi-identifier candidates beyond named entities: what an attacker searching the public record would type.

The optimizer can only mask what is proposed. :func:`propose` returns, outside the spans already detected:

* ``title``: a quoted title ("…", “…”, 1–12 words);
* ``number``: a numeric phrase (:func:`numeric_phrases`), labelled QUANTITY: a number in digits with the number
  words after it and the noun it counts ("2 million dollars", "70 feature films"), proposed whole so that it is
  masked or generalized as one (a bound before it, "over", stays outside: the generalizer reads it there). Its
  ``fallback`` holds the candidates it replaces (the number, the noun phrase inside it), tried exactly as before
  when the phrase is not informative as a whole, so it never covers less than they would. Else a number or a year
  (a token with a digit); a four-digit year 1000–2099 is labelled DATETIME (a year never starts a numeric phrase);
* ``phrase``: a noun phrase — the parser's noun chunks when the document is parsed (determiners and
  possessives left out), else each run of up to ``max_words`` content words (no stop word, no punctuation), where a
  lower-case word that WordNet knows mostly as a verb or an adverb (:mod:`textanon.detect.word_classes`:
  "starred", "alongside") is a phrase of its own (``verbs_apart``), so that it neither joins nor hides the nouns
  around it;

each with its ``words`` alternative: the phrase's content words one by one (used when the phrase as a whole
is not informative). The risk component keeps the candidates the index says are informative about the
person (:func:`informative`); masking them is then the risk's decision, not the proposal's.
"""

import bisect
import re
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from textanon.detect.field_labels import is_field_label
from textanon.detect.word_classes import verb_adverb_words
from textanon.doc_text import text_of
from textanon.labels import DATETIME, MISC, QUANTITY
from textanon.risk.search.terms import APOSTROPHES, CLITIC_REMAINDERS

QUOTED = re.compile(r"[\"“”]([^\"“”\n]{2,120})[\"“”]")
YEAR = re.compile(r"^(1\d{3}|20\d{2})s?$")
DROP_FIRST = {"det", "poss", "predet", "case", "nummod"}
#: a number in digits ("70", "2,000", "2.5"), the core of a numeric phrase
DIGITS = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d+(?:\.\d+)?$")


@dataclass
class Candidate:
    """A proposed span (characters), its label and kind, and its single-word fall-backs."""

    start: int
    end: int
    label: str
    kind: str
    words: List[Tuple[int, int]] = field(default_factory=list)
    #: the candidates this one replaces (a numeric phrase: the number and noun-phrase candidates inside it), tried
    #: in its place when it is not informative as a whole, so that it never covers less than they would
    fallback: List["Candidate"] = field(default_factory=list)


class _Taken:
    """Character spans already taken, as sorted disjoint intervals: an overlap test costs O(log n) (a 1 MB
    document proposes tens of thousands of candidates; a linear scan per candidate would be quadratic)."""

    def __init__(self, spans: Sequence[Tuple[int, int]]):
        self.starts: List[int] = []
        self.ends: List[int] = []
        for start, end in sorted(s for s in spans if s[0] < s[1]):
            if self.ends and start < self.ends[-1]:
                self.ends[-1] = max(self.ends[-1], end)
            else:
                self.starts.append(start)
                self.ends.append(end)

    def free(self, start: int, end: int) -> bool:
        """Whether [start, end) is non-empty and overlaps no taken interval."""
        if start >= end:
            return False
        i = bisect.bisect_right(self.starts, start)
        if i > 0 and self.ends[i - 1] > start:
            return False
        return i >= len(self.starts) or self.starts[i] >= end

    def add(self, start: int, end: int) -> None:
        """Take a free interval."""
        i = bisect.bisect_right(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def _content(token) -> bool:
    """A word a candidate is made of: no stop word, punctuation, space, form field label ("DOB", "MRN") or piece of a
    contraction ("wo" of "won't", "ca" of "can't": :func:`_contraction_piece`)."""
    return (
        not (token.is_stop or token.is_punct or token.is_space)
        and any(c.isalnum() for c in token.text)
        and not is_field_label(token.text)
        and not _contraction_piece(token)
    )


def _contraction_piece(token) -> bool:
    """A clitic ("'m", "n't", "’ll") or the stem spaCy cuts off before "n't" ("wo", "ca", "sha"): masked alone it
    writes "***n't" and hides nothing a search could use. A word that only starts with an apostrophe ("'Allo") is
    none."""
    if token.lower_ in CLITICS or token.lower_ in NEGATIONS:
        return True
    doc = token.doc
    return not token.whitespace_ and token.i + 1 < len(doc) and doc[token.i + 1].lower_ in NEGATIONS


#: the negative clitic as spaCy's tokenizer cuts it ("do" + "n't")
NEGATIONS = frozenset({"n" + a + "t" for a in APOSTROPHES} | {"nt"})
#: the other clitics spaCy's tokenizer cuts off ("I" + "'m"), straight or curly apostrophe: the targeted risk's
#: clitic remainders (:data:`textanon.risk.search.terms.CLITIC_REMAINDERS`) after their apostrophe
CLITICS = frozenset(a + c for a in APOSTROPHES for c in CLITIC_REMAINDERS - {"t"})


def propose(
    doc: Doc, taken: Sequence[Tuple[int, int]], max_words: int = 4, verbs_apart: bool = True
) -> List[Candidate]:
    """Candidates of ``doc`` that overlap none of the character spans ``taken`` nor each other: the quoted titles,
    numbers and noun phrases of :func:`plain_candidates`, where a numeric phrase (:func:`numeric_phrases`) takes the
    place of the candidates inside it (its ``fallback``) unless one of them reaches outside it or is a title."""
    plain = plain_candidates(doc, taken, max_words, verbs_apart)
    blocked = _Taken(taken)
    starts, ends = [c.start for c in plain], [c.end for c in plain]
    replaced: set = set()
    out: List[Candidate] = []
    for start, end, words in numeric_phrases(doc, max_words):
        if not blocked.free(start, end):
            continue  # a phrase overlapping a detected span: its free tokens stay candidates of their own
        first = bisect.bisect_right(ends, start)  # the plain candidates are disjoint and sorted: ends sorted too
        last = bisect.bisect_left(starts, end)
        inside = range(first, last)
        if any(plain[i].start < start or plain[i].end > end or plain[i].kind == "title" for i in inside):
            continue
        replaced.update(inside)
        out.append(Candidate(start, end, QUANTITY, "number", words, [plain[i] for i in inside]))
    out += [c for i, c in enumerate(plain) if i not in replaced]
    return sorted(out, key=lambda c: c.start)


def plain_candidates(
    doc: Doc, taken: Sequence[Tuple[int, int]], max_words: int = 4, verbs_apart: bool = True
) -> List[Candidate]:
    """Quoted titles, single numbers (a token with a digit; a year 1000-2099 labelled DATETIME) and noun phrases
    that overlap none of ``taken`` nor each other, sorted (``verbs_apart``: :func:`_phrases`)."""
    taken = _Taken(taken)
    out: List[Candidate] = []

    def add(cand: Candidate) -> None:
        if taken.free(cand.start, cand.end):
            out.append(cand)
            taken.add(cand.start, cand.end)

    for m in QUOTED.finditer(text_of(doc)):
        inner = m.group(1).strip()
        start = m.start(1) + m.group(1).index(inner)
        if 1 <= len(inner.split()) <= 12:
            add(Candidate(start, start + len(inner), MISC, "title"))
    for token in doc:
        if any(c.isdigit() for c in token.text) and any(c.isalnum() for c in token.text):
            label = DATETIME if YEAR.match(token.text) else QUANTITY
            add(Candidate(token.idx, token.idx + len(token.text), label, "number"))
    for start, end, words in _phrases(doc, max_words, verbs_apart):
        add(Candidate(start, end, MISC, "phrase", words))
    return sorted(out, key=lambda c: c.start)


def numeric_phrases(doc: Doc, max_words: int = 4) -> Iterator[Tuple[int, int, List[Tuple[int, int]]]]:
    """``(start, end, [word spans])`` of each numeric phrase of two words or more: a number in digits (not a year),
    the number words after it ("2 million"), a currency sign before it ("$2"), then the noun it counts: the
    rest of its noun chunk (parsed doc: "70 feature films"), else the nouns after it (tagged doc), else one lower-case
    content word (untagged). The word spans: each content token (the number's tokens one by one, the nouns)."""
    chunk_end = {}
    parsed = doc.has_annotation("DEP")  # once: on a doc without it, the answer reads every token
    if parsed:
        for chunk in doc.noun_chunks:
            for token in chunk:
                chunk_end[token.i] = chunk.end
    tagged = doc.has_annotation("POS")
    i = 0
    while i < len(doc):
        token = doc[i]
        if not DIGITS.match(token.text) or YEAR.match(token.text):
            i += 1
            continue
        first = i - 1 if i > 0 and doc[i - 1].is_currency and not doc[i - 1].whitespace_ else i
        end = i + 1
        while end < len(doc) and doc[end].like_num and not YEAR.match(doc[end].text):
            end += 1
        if chunk_end.get(i, 0) > end:  # the counted noun: the rest of the number's noun chunk
            end = chunk_end[i]
        elif not parsed:
            limit = end + (max_words if tagged else 1)
            while end < min(limit, len(doc)) and _counted(doc[end], tagged):
                end += 1
        tokens = doc[first:end]
        words = [(t.idx, t.idx + len(t.text)) for t in tokens if _content(t) or t.like_num]
        if len(words) > 1:  # one word ("$2", "40%"): the number alone, as before
            yield tokens[0].idx, tokens[-1].idx + len(tokens[-1].text), words
            i = end
        else:
            i += 1


def _counted(token, tagged: bool) -> bool:
    """A noun a number counts: tagged NOUN or PROPN, else (no tagger) a lower-case content word."""
    if tagged:
        return token.pos_ in ("NOUN", "PROPN")
    return _content(token) and token.is_lower and token.is_alpha and not token.like_num


def _phrases(doc: Doc, max_words: int, verbs_apart: bool = True):
    """``(start, end, [content word spans])`` of noun chunks (parsed doc) or runs of content words, where (with
    ``verbs_apart``) a verb or an adverb of the word-class table is a phrase alone (module docstring)."""
    if doc.has_annotation("DEP"):
        for chunk in doc.noun_chunks:
            tokens = list(chunk)
            while tokens and (tokens[0].dep_ in DROP_FIRST or not _content(tokens[0])):
                tokens = tokens[1:]
            while tokens and not _content(tokens[-1]):
                tokens = tokens[:-1]
            if tokens:
                yield _as_chars(tokens)
        return
    apart = verb_adverb_words() if verbs_apart else frozenset()
    run: list = []
    for token in list(doc) + [None]:
        word = token is not None and _content(token) and not token.like_num
        alone = word and token.is_lower and token.text in apart  # a verb or an adverb: a phrase of its own
        if word and not alone and len(run) < max_words:
            run.append(token)
            continue
        if run:
            yield _as_chars(run, checked=True)
        run = [token] if word and not alone else []
        if alone:
            yield _as_chars([token], checked=True)


def _as_chars(tokens, checked: bool = False) -> Tuple[int, int, List[Tuple[int, int]]]:
    """``(start, end, [content word spans])`` of ``tokens``; ``checked``: every token is already known to be a content
    word that is no number (a run of :func:`_phrases`), so none is read again."""
    words = [(t.idx, t.idx + len(t.text)) for t in tokens if checked or (_content(t) and not t.like_num)]
    return tokens[0].idx, tokens[-1].idx + len(tokens[-1].text), words


def informative(df: int, n_docs: int, in_target: Optional[bool], max_df: float, rare_df: float) -> bool:
    """True if a candidate found in ``df`` of ``n_docs`` documents tells about the person: it occurs in the
    target's documents and in at most ``max_df`` of all documents, or in at least one and at most ``rare_df``
    of them (rare). ``in_target`` None: the target is unknown or not indexed (the rare rule only)."""
    if df <= 0 or n_docs <= 0:
        return False
    share = df / n_docs
    return bool(in_target and share <= max_df) or share <= rare_df
