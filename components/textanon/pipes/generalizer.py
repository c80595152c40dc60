"""``textanon_generalizer``: generalization candidates for every entity, scored by the risk model in use.

Placed after the risk component(s) and before ``textanon_optimizer`` (which chooses among keep / generalize /
suppress when its ``replacement`` is ``"generalize"``). For every entity (mentions grouped by ``span._.entity_id``,
as the optimizer groups them) the generalizers (:mod:`textanon.decide.generalization.propose`) propose up to
``max_levels`` true, less specific replacements of its longest mention; each gets its information content from the
risk model in use (``ic_source = "auto"``: the language model of ``textanon_lm_risk``, else the index of
``textanon_search_risk``, else word frequencies; :mod:`.information`). Every mention of the entity gets the list in
``span._.generalizations`` (``[{"text", "level", "kind", "ic"}]``, level 1 first).

With a search index in the pipeline the component also records the index's rule in ``doc._.generalization_risk``
(:mod:`.risk`): ``breaks``, for every risky combination, the generalizations that may break it (any, for a population
or targeted combination; None, suppression only, for one made by the query bound) and ``forbidden``, the options and
pairs of options found in fewer than ``k`` indexed documents. After deciding, the optimizer checks the BM25 attacker
on its output and suppresses the generalizations the attacker still needs (:mod:`.targeted`). The language-model
rule needs no record: the optimizer applies it at the threshold of the decision
(:func:`textanon.decide.generalization.risk.lm_breaks`), re-decisions at other thresholds included.

Fail closed: an entity the generalizers do not know, a candidate that could not be scored, a failure of the
component (then every entity is left without candidates and a warning says so): the optimizer suppresses.
The protected person's name is never generalized (the optimizer masks it whatever this component proposes).
"""

import logging
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, Tuple, Union

import numpy as np
from spacy.language import Language
from spacy.tokens import Doc, Span

from textanon.decide.generalization.base import load_frequencies
from textanon.decide.generalization.candidate_ic import (
    capped,
    content_words,
    index_candidate_ic,
    lm_candidate_ic,
    wordfreq_candidate_ic,
)
from textanon.decide.generalization.hypernyms import person_title_word, use_pipeline_wordnet, wordnet_folder
from textanon.decide.generalization.propose import propose_for_mentions
from textanon.decide.generalization.risk import index_forbidden, population_risky_all
from textanon.detect.gazetteer.wordnet_data import copy_wordnet_corpus
from textanon.doc_text import text_of
from textanon.extensions import DEFAULT_SPANS_KEY, add_warning, register_extensions
from textanon.labels import DEM, PERSON, TAB_LABELS
from textanon.pipes.lm_risk import LMRiskScorer, scored_ic
from textanon.pipes.search_risk import SearchRisk
from textanon.risk.search.base import memo_count
from textanon.settings.serialization import SettingsRecord

logger = logging.getLogger(__name__)
IC_SOURCES = ("auto", "lm", "index", "wordfreq")
#: the component folder's copy of WordNet (an NLTK data folder: ``wordnet/corpora/wordnet/...``)
WORDNET_DIR = "wordnet"


class Generalizer(SettingsRecord):
    """Proposes and scores generalizations (module docstring)."""

    SETTINGS = ("spans_key", "ic_source", "max_levels", "max_pair_checks", "generalized_labels")

    def __init__(
        self,
        nlp: Optional[Language] = None,
        name: str = "textanon_generalizer",
        spans_key: str = DEFAULT_SPANS_KEY,
        ic_source: str = "auto",
        max_levels: int = 4,
        max_pair_checks: int = 500_000,
        generalized_labels: Optional[List[str]] = None,
    ) -> None:
        register_extensions()
        if ic_source not in IC_SOURCES:
            raise ValueError(f"ic_source must be one of {IC_SOURCES}, got {ic_source!r}")
        if max_levels < 1:
            raise ValueError("max_levels must be >= 1")
        if max_pair_checks < 0:
            raise ValueError("max_pair_checks must be >= 0")
        unknown = sorted(set(generalized_labels or ()) - set(TAB_LABELS))
        if unknown:
            raise ValueError(f"generalized_labels must be TAB labels ({', '.join(TAB_LABELS)}), got {unknown}")
        # not ``labels``: spaCy reads a component's ``labels`` as what it predicts (nlp.pipe_labels)
        self.generalized_labels = None if generalized_labels is None else list(generalized_labels)
        self.nlp, self.name, self.spans_key = nlp, name, spans_key
        self.ic_source, self.max_levels, self.max_pair_checks = ic_source, max_levels, max_pair_checks

    def __call__(self, doc: Doc) -> Doc:
        try:
            load_frequencies()  # with the first document: a table loaded once per process, never mid-corpus
            return self._generalize(doc)
        except Exception as err:  # noqa: BLE001 — no generalization is ever better than a wrong one
            logger.warning("generalization failed on a document (%s); entities are suppressed", type(err).__name__)
            for span in doc.spans.get(self.spans_key, []):
                span._.generalizations = None
            doc._.generalization_risk = None
            add_warning(
                doc, f"{self.name}: generalization failed ({type(err).__name__}); risky entities are suppressed"
            )
            return doc

    def pipe(self, docs, batch_size: int = 8):
        """Generalize each doc in turn."""
        for doc in docs:
            yield self(doc)

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        """The settings (``cfg.json``) and the WordNet database the generalizers read (``wordnet/``, an NLTK data
        folder, about 33 MB; ``exclude=["wordnet"]`` leaves it out): a pipeline package then generalizes wherever it
        is installed, without ``NLTK_DATA``. Without WordNet at hand nothing is saved for it (a warning): the
        loaded pipeline reads ``NLTK_DATA`` then, and fails closed (suppression) without."""
        super().to_disk(path, exclude=exclude)
        if WORDNET_DIR in exclude:
            return
        source = wordnet_folder()
        if source is None:
            logger.warning("%s: no WordNet to save with the pipeline (NLTK_DATA); it will need one", self.name)
            return
        copy_wordnet_corpus(source, Path(path) / WORDNET_DIR)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "Generalizer":
        """Read WordNet from the copy saved with the pipeline, where there is one (:func:`use_pipeline_wordnet`)."""
        if WORDNET_DIR not in exclude:
            use_pipeline_wordnet(Path(path) / WORDNET_DIR)
        return self

    def risk_components(self) -> Tuple[object, object]:
        """The pipeline's enabled (language-model risk, search risk) components, None where absent or disabled: a
        profile that disables ``textanon_lm_risk`` (``nlp.disabled``) runs no language model here either."""
        procs = [proc for _, proc in self.nlp.pipeline] if self.nlp is not None else []
        lm = next((p for p in procs if isinstance(p, LMRiskScorer)), None)
        search = next((p for p in procs if isinstance(p, SearchRisk)), None)
        return lm, search

    def _generalize(self, doc: Doc) -> Doc:
        entities: Dict[str, List[Span]] = {}
        for i, span in enumerate(doc.spans.get(self.spans_key, [])):
            span._.generalizations = None
            if span._.source != "target":
                entities.setdefault(span._.entity_id or f"span_{i}", []).append(span)
        candidates: Dict[str, list] = {}
        text = text_of(doc)
        spans = doc.spans.get(self.spans_key, [])
        names = {s.start for s in spans if s.label_ == PERSON}
        titles = {s.end - 1 for s in spans if s.label_ == DEM and s[-1].text.islower()}  # "writer" tagged VB
        tagged = doc.has_annotation("TAG")  # once: on an untagged doc, the answer reads every token
        # the entity of a name starting at a token / of a title (no name) ending at one: the other half of a pair
        name_at = {m.start: e for e, ms in entities.items() for m in ms if m.label_ == PERSON}
        title_ending = {m.end: e for e, ms in entities.items() for m in ms if m.label_ != PERSON}
        tied: Set[Tuple[str, str]] = set()
        lm, search = self.risk_components()
        for eid, mentions in entities.items():
            rep = max(mentions, key=lambda m: (len(m.text), -m.start_char))
            if self.generalized_labels is not None and rep.label_ not in self.generalized_labels:
                continue  # a label this generalizer leaves to suppression (the fast profile: dates and numbers only)
            tokens = [(t.text, t.tag_) for t in rep] if tagged else []
            if modifies_next_noun(rep, tagged):
                continue  # "a child actor": "a person actor" is no English; the mention is suppressed instead
            halves = [m for m in mentions if title_and_name(m, names, titles, tagged)]
            partners = [name_at.get(m.end) if m.label_ != PERSON else title_ending.get(m.start) for m in halves]
            if None in partners or (halves and search is None):
                # "as boxer Muhammad Ali", the title no entity: "as boxer another person"; suppressed instead. Without a
                # search risk there is no record to carry the tie to the optimizer: neither half is generalized
                continue
            # "stockbroker Chris Gardner", both entities: generalized together or neither (the record's ``tied``)
            tied.update(tuple(sorted((eid, other))) for other in partners if other != eid)
            others = [(m.text, m.start_char) for m in mentions if m is not rep]
            found = propose_for_mentions(
                rep.label_,
                [(rep.text, rep.start_char)] + others,
                text,
                self.max_levels,
                is_common_noun(rep, tagged),
                tokens,
            )
            if found:
                candidates[eid] = found
        source = self.ic_source
        if source == "auto":
            source = "lm" if lm is not None else "index" if search is not None else "wordfreq"
        index = search.index.open() if search is not None else None
        count = _counter(index) if index is not None else None
        ics = self._score(doc, source, lm, index, count, entities, candidates)
        unscored = 0
        for eid, found in candidates.items():
            original = _entity_ic(entities[eid])
            values = [capped(ic, original) for ic in ics.get(eid, [None] * len(found))]
            unscored += sum(v is None for v in values)
            listed = [{"text": g.text, "level": g.level, "kind": g.kind, "ic": v} for g, v in zip(found, values)]
            for span in entities[eid]:
                span._.generalizations = listed
        if unscored:
            add_warning(doc, f"{self.name}: {unscored} generalization candidates could not be scored; never chosen")
        doc._.generalization_risk = None
        if search is not None:
            doc._.generalization_risk = self._index_risk(doc, search, count, entities, candidates)
            doc._.generalization_risk["tied"] = sorted(tied)
        return doc

    def _index_risk(self, doc: Doc, search, count, entities, candidates) -> dict:
        """The index's record for the optimizer (module docstring): ``{"breaks": [[combination, {entity: [levels]}
        or None]], "forbidden": (((entity, level), ...), ...)}``."""
        phrases = {eid: min((m.text for m in ms), key=lambda t: count([t])) for eid, ms in entities.items()}
        words = {eid: [(content_words(g.text), g.members) for g in found] for eid, found in candidates.items()}
        levels = {eid: list(range(1, len(found) + 1)) for eid, found in candidates.items()}
        combos = [list(c) for c in doc._.risky_combinations or []]
        breaks = []
        larger = search.max_combination_size > 2  # read once: a court case has ~10,000 combinations
        for c, population in zip(combos, population_risky_all(combos, count, search.k, phrases)):
            if larger and population:
                found = None  # generalizations are checked in pairs only: larger combinations are suppressed
            elif population or all(targeted_only(entities.get(e, [])) for e in c):
                found = {e: levels[e] for e in c if e in levels}  # targeted: the optimizer checks the attacker
            else:
                found = None  # the query bound: suppression only
            breaks.append([c, found])
        chosen = sorted({e for c, found in breaks if found for e in found})
        index = search.index.open()
        unchecked: List[Tuple[str, int]] = []
        forbidden = index_forbidden(
            sorted(entities),
            chosen,
            _memo_any(index),
            search.k,
            phrases,
            words,
            max_checks=self.max_pair_checks,
            unchecked=unchecked,
        )
        if unchecked:
            add_warning(
                doc,
                f"{self.name}: {len(unchecked)} generalizations not checked against the index (more than "
                f"max_pair_checks = {self.max_pair_checks} pairs); never chosen",
            )
        # tuples of (entity, level) tuples, as :func:`textanon.decide.generalization.choice.forbidden` reads them
        # without a copy (a court case: up to ~37,000 bans; read back from bytes they are lists, copied once there)
        return {"breaks": breaks, "forbidden": tuple(forbidden)}

    def _score(self, doc, source, lm, index, count, entities, candidates) -> Dict[str, List[Optional[float]]]:
        texts = {eid: [g.text for g in found] for eid, found in candidates.items()}
        if source == "lm":
            if lm is None:
                raise ValueError("ic_source 'lm' needs textanon_lm_risk in the pipeline")
            chars = {eid: [(m.start_char, m.end_char) for m in entities[eid]] for eid in candidates}
            return lm_candidate_ic(lm.model, text_of(doc), chars, texts)
        if source == "index":
            if index is None:
                raise ValueError("ic_source 'index' needs textanon_search_risk in the pipeline")
            return {eid: [index_candidate_ic(count, index.n_docs, t) for t in ts] for eid, ts in texts.items()}
        return {eid: [wordfreq_candidate_ic(t) for t in ts] for eid, ts in texts.items()}


def targeted_only(mentions: List[Span]) -> bool:
    """Whether the search risk made this entity a risk by its targeted risk alone (``span._.risk_reasons``)."""
    reasons = [r for m in mentions for r in (m._.risk_reasons or [])]
    return bool(reasons) and all(r.startswith("targeted: step") for r in reasons)


def is_common_noun(span: Span, tagged: Optional[bool] = None) -> bool:
    """A mention WordNet's noun senses apply to: its last token tagged as a common noun (NN, NNS) when the pipeline
    has a tagger, else a gazetteer term (WordNet nouns by construction); lower case unless from the gazetteer.
    ``tagged``: whether the doc has tags, where the caller knows (None: asked of the doc)."""
    if _tagged(span.doc, tagged):
        if span._.source == "gazetteer":
            return span[-1].tag_ in ("NN", "NNS", "NNP", "NNPS")
        return span[-1].tag_ in ("NN", "NNS") and span.text.islower()
    return span._.source == "gazetteer"


def modifies_next_noun(span: Span, tagged: Optional[bool] = None) -> bool:
    """Whether ``span`` is a common noun that modifies the noun right after it ("a child actor", "the family home"):
    a hypernym there reads as no English ("a person actor"), so no generalization is proposed (the mention is
    suppressed when it must go). With a tagger: the next token is tagged a lower-case common noun; without one (the
    profiles since decision 8): a lower-case word that WordNet knows as a person and mostly as a noun ("child actor":
    what the recognizer's occupations are; :func:`textanon.decide.generalization.hypernyms.person_title_word`)."""
    doc = span.doc
    tagged = _tagged(doc, tagged)
    if span.end >= len(doc) or not is_common_noun(span, tagged):
        return False
    after = doc[span.end]
    return after.text.islower() and _reads_as_noun(after, tagged)


def title_and_name(span: Span, names: Set[int], titles: Set[int] = frozenset(), tagged: Optional[bool] = None) -> bool:
    """Whether ``span`` is one half of a title and a name written together: a common noun right before a person's
    name ("boxer Muhammad Ali", "fashion designer Donatella Versace") or a person's name right after a lower-case
    common noun ("stockbroker Chris Gardner", "her father Jon Voight"). The title and the name read as one noun phrase,
    so a replacement of either alone reads as no English ("a person another person" for a title generalized beside a
    name, "as boxer another person" for a name generalized beside a kept title): where both halves are entities, the
    optimizer generalizes both or neither (the record's ``tied`` pairs:
    :func:`textanon.decide.generalization.choice.choose`), and the renderer writes the two generalizations as one
    ("stockbroker Chris Gardner" -> "a businessperson": :func:`textanon.render.masking.absorb_named`); where the title
    is no entity, the name gets no generalization ("as boxer ***") (issue 32). ``names``: the token numbers where the
    doc's PERSON spans start; ``titles``: the last tokens of its lower-case DEM spans (occupations, whatever a tagger
    says of them). A common noun is one the tagger tags so; without a tagger (the profiles since decision 8) a word
    that WordNet knows as a person and mostly as a noun ("actor", "wife"; not "married", "opposite":
    :func:`textanon.decide.generalization.hypernyms.person_title_word`). A capitalized title ("Doctor Ted Lewis") is
    :func:`textanon.decide.generalization.persons.titled`'s."""
    doc = span.doc
    tagged = _tagged(doc, tagged)
    if span.label_ == PERSON and span.start > 0:
        before = doc[span.start - 1]
        if before.text.islower() and (before.i in titles or _reads_as_noun(before, tagged)):
            return True
    if span.end >= len(doc) or span.end not in names:
        return False
    return is_common_noun(span, tagged) or (span.label_ == DEM and span.end - 1 in titles)


def _reads_as_noun(token, tagged: bool) -> bool:
    """The evidence that ``token`` is a noun of a title ("actor Brad Pitt") or of the noun a mention modifies ("child
    actor"): the tagger's common noun, or without tags a WordNet person that reads mostly as a noun."""
    return token.tag_ in ("NN", "NNS") if tagged else person_title_word(token.text)


def _tagged(doc: Doc, tagged: Optional[bool]) -> bool:
    """``tagged`` where the caller knows it, else whether ``doc`` has tags (on an untagged doc spaCy reads every token
    to say no: asked once per doc, not once per mention)."""
    return doc.has_annotation("TAG") if tagged is None else tagged


def _entity_ic(mentions: List[Span]) -> Optional[float]:
    """The entity's IC: that of its most informative mention; None if a mention is unscored."""
    ics = [scored_ic(m._.ic) for m in mentions]
    return None if any(ic is None for ic in ics) else max(ics)


#: the most documents of one group kept as a set (more: the index counts the combination itself)
MAX_GROUP_DOCUMENTS = 100_000


def _memo_any(index):
    """``index.count_any`` with this document's answers kept. When the backend lists a group's documents
    (``documents_any``), each group is asked once and a combination's count is the size of the intersection: the
    same number, without one query per pair of options. Over a prior that counts groups independently
    (:meth:`textanon.risk.search.prior.FrequencyPrior.group_share`), ``count_any.independent`` is ``(n_docs,
    group_share)``: the pairs of options are then counted all at once (:mod:`textanon.decide.generalization.risk`)."""
    cache: Dict[tuple, int] = {}
    documents: Dict[tuple, Optional[frozenset]] = {}
    listing = getattr(index, "documents_any", None)

    def docs(group: tuple) -> Optional[frozenset]:
        if group not in documents:
            documents[group] = listing(list(group), MAX_GROUP_DOCUMENTS)
        return documents[group]

    def count_any(groups) -> int:
        key = tuple(sorted(tuple(sorted(g)) for g in groups))
        if key not in cache:
            sets = [docs(g) for g in key] if listing is not None else [None]
            if key and all(s is not None for s in sets):
                cache[key] = len(frozenset.intersection(*sets))
            else:
                cache[key] = index.count_any([list(g) for g in key])
        return cache[key]

    masks: Dict[tuple, Optional[int]] = {}

    def mask_of(group: tuple) -> Optional[int]:
        """The documents of ``group`` (its phrases sorted) as a bit mask (bit n: document n), None when the backend
        does not list them: two groups' count is then ``(a & b).bit_count()``, without a query or a set built."""
        if group not in masks:
            found = docs(group) if listing is not None else None
            masks[group] = None if found is None or (found and min(found) < 0) else _bit_mask(found)
        return masks[group]

    count_any.documents = mask_of
    group_share = getattr(index, "group_share", None)
    if group_share is not None:  # a prior: a combination's count is n_docs times its groups' shares multiplied
        count_any.independent = (index.n_docs, group_share)
    return count_any


def _bit_mask(documents: frozenset) -> int:
    """The integer with bit ``n`` set for every document number ``n`` (one numpy pass, not one shift per document)."""
    if not documents:
        return 0
    bits = np.zeros(max(documents) + 1, dtype=bool)
    bits[np.fromiter(documents, dtype=np.int64, count=len(documents))] = True
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


def _counter(index):
    return memo_count(index)


#: the factory name, for turning generalization on in a loaded pipeline (``textanon anonymize --replacement
#: generalize``)
COMPONENT = "textanon_generalizer"


def use_generalizer(nlp: Language) -> None:
    """Add ``textanon_generalizer`` right before ``textanon_optimizer`` (its candidates are what the optimizer's
    ``replacement = "generalize"`` chooses among; without them it could only suppress). A pipeline that has it
    is left as it is (a disabled one is enabled). Raises ValueError for a pipeline without the optimizer."""
    if "textanon_optimizer" not in nlp.pipe_names:
        raise ValueError("the pipeline has no textanon_optimizer")
    if COMPONENT in nlp.disabled:  # a profile that leaves it off (textanon.profiles)
        nlp.enable_pipe(COMPONENT)
    elif COMPONENT not in nlp.pipe_names:
        nlp.add_pipe(COMPONENT, before="textanon_optimizer")
