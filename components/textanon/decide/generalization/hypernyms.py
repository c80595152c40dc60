"""WordNet hypernym chains for common nouns (occupations, religions, diseases, awards, kinds of places and
organizations): "actress" -> "actor" -> "performer" -> "entertainer" -> "person"; "cancer" -> "malignant tumor" ->
"disease". The word's most frequent noun sense is used (WordNet orders senses by their SemCor counts); the chain
stops before the top of the hierarchy (:data:`TOO_GENERAL`, or a synset less than :data:`MIN_DEPTH` deep), except
that a person noun always ends with "person". WordNet is read offline (:func:`textanon.detect.gazetteer.wordnet_data.
load_wordnet`, ``NLTK_DATA``)."""

import os
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from textanon.detect.gazetteer.wordnet_data import load_wordnet

#: synsets too general to be a meaningful replacement ("a whole", "a symbol", "a group")
TOO_GENERAL = {
    "person.n.01",
    "adult.n.01",
    "organism.n.01",
    "whole.n.02",
    "object.n.01",
    "artifact.n.01",
    "structure.n.01",
    "location.n.01",
    "point.n.02",
    "geographic_point.n.01",
    "symbol.n.01",
    "signal.n.01",
    "social_group.n.01",
    "group.n.01",
    "body.n.02",
    "ill_health.n.01",
    "pathological_state.n.01",
    "physical_condition.n.01",
    "condition.n.01",
    "state.n.02",
    "attribute.n.02",
    "abstraction.n.06",
    "entity.n.01",
    "physical_entity.n.01",
    "causal_agent.n.01",
    "living_thing.n.01",
    "inhabitant.n.01",
}
MIN_DEPTH = 4
MAX_LEVELS = 4
PERSON = "person.n.01"
#: where ``make`` prepares WordNet in the project (relative to the working folder)
PROJECT_NLTK_DATA = Path("assets") / "nltk_data"
#: the WordNet databases that loaded pipelines ship (``textanon_generalizer`` saves the one it was built with:
#: :func:`use_pipeline_wordnet`), read before any other
_PIPELINE_NLTK_DATA: List[Path] = []


def use_pipeline_wordnet(nltk_data: Path) -> None:
    """Read WordNet from ``nltk_data`` (an NLTK data folder that a pipeline ships), before ``NLTK_DATA`` and the
    project's copy: a pipeline installed from its wheel generalizes with the database it was built and measured
    with, wherever it is installed. The reader already loaded in this process stays (the same WordNet 3.0); a
    folder without WordNet is passed over (:func:`wordnet_folder`)."""
    folder = Path(nltk_data)
    if folder not in _PIPELINE_NLTK_DATA:
        _PIPELINE_NLTK_DATA.append(folder)


def wordnet_folder() -> Optional[Path]:
    """The NLTK data folder :func:`wordnet` reads: a loaded pipeline's own, else the first ``NLTK_DATA`` folder
    holding WordNet, else the project's ``assets/nltk_data`` when run from the project folder (``spacy project run``
    does not export the Makefile's ``NLTK_DATA``); None: nltk's default places."""
    environment = [Path(f) for f in os.environ.get("NLTK_DATA", "").split(os.pathsep) if f]
    for folder in [*_PIPELINE_NLTK_DATA, *environment, PROJECT_NLTK_DATA]:
        if (folder / "corpora" / "wordnet" / "lexnames").is_file():
            return folder
    return None


@lru_cache(maxsize=1)
def wordnet():
    """The offline WordNet reader (loaded once), read directly from :func:`wordnet_folder` (much faster than nltk's
    lazy corpus loader), else from nltk's default places."""
    folder = wordnet_folder()
    return load_wordnet(folder) if folder is not None else load_wordnet()


def has_sense(word: str, pos: str) -> bool:
    """``bool(wn.synsets(word, pos=pos))`` from WordNet's index alone: the same forms (``word`` in lower case and its
    base forms, :meth:`_morphy` with exceptions, as nltk's ``synsets``) without reading a synset from the data file
    (nltk parses every sense the call lists; a fresh process spends a third of the generalizer's time on the 50
    abstracts reading synsets, docs/profiles.md)."""
    wn = wordnet()
    index = wn._lemma_pos_offset_map
    return any(index.get(form, {}).get(pos) for form in wn._morphy(word.lower(), pos, True))


def first_senses(word: str, pos: str, n: int = 1) -> list:
    """``wn.synsets(word, pos=pos)[:n]``, reading only those ``n`` synsets (the same order: base forms as
    :meth:`_morphy` lists them, each form's senses as the index lists them, most frequent first)."""
    wn = wordnet()
    index = wn._lemma_pos_offset_map
    out: list = []
    for form in wn._morphy(word.lower(), pos, True):
        for offset in index.get(form, {}).get(pos, []):
            if len(out) >= n:
                return out
            out.append(wn.synset_from_pos_and_offset(pos, offset))
    return out


@lru_cache(maxsize=1)
def _lemma_counts() -> Dict[str, int]:
    """WordNet's SemCor counts by lemma key (``cntlist.rev``, read once: nltk looks each one up on disk)."""
    counts: Dict[str, int] = {}
    with wordnet().open("cntlist.rev") as lines:
        for line in lines:
            key, _, rest = line.rstrip().partition(" ")
            if rest:
                counts.setdefault(key, int(rest.rsplit(" ", 1)[-1]))
    return counts


def lemma_count(lemma) -> int:
    """``lemma.count()`` (its SemCor frequency) from the counts read once."""
    return _lemma_counts().get(lemma.key(), 0) if lemma.lang() == "eng" else 0


@lru_cache(maxsize=20000)
def noun_sense(text: str, known_noun: bool = False):
    """(synset of the most frequent noun sense, is plural) of ``text`` (a word or a WordNet compound), or None.
    ``known_noun``: the caller knows ``text`` is used as a noun (a tagger said so): its noun senses are then taken
    when the first is attested or the only one; otherwise the word must also be a noun at least as often as
    anything else (:func:`dominant_noun`)."""
    wn = wordnet()
    key = "_".join(text.strip().split())
    if not key or not any(c.isalpha() for c in key):
        return None
    lemma = wn.morphy(key, wn.NOUN) or wn.morphy(key.lower(), wn.NOUN)
    if lemma is None:
        return None
    senses = wn.synsets(lemma, pos=wn.NOUN)
    if not senses:
        return None
    plural = lemma.lower() != key.lower()
    first = sum(lemma_count(lm) for lm in senses[0].lemmas() if lm.name().lower() == lemma.lower())
    if known_noun and not (first > 0 or len(senses) == 1):
        return None
    if not known_noun and not dominant_noun(wn, lemma, senses):
        return None
    return senses[0], plural


def plural_bases(word: str) -> List[str]:
    """The WordNet nouns that ``word`` is the plural of ("men" -> ["man"], "falls" -> ["fall"]; empty for a singular,
    even one WordNet also lists as a word of its own: "men" is both)."""
    lower = word.lower()
    return [base for base in wordnet()._morphy(lower, "n") if base != lower]


def dominant_noun(wn, lemma: str, senses) -> bool:
    """Whether the most frequent noun sense is attested (SemCor count > 0) and the word is at least as often a noun
    as anything else ("earnest" the adjective is not read as the noun, a security)."""
    count = lambda synsets: sum(lemma_count(lm) for s in synsets for lm in s.lemmas() if lm.name() == lemma)  # noqa: E731
    first = sum(lemma_count(lm) for lm in senses[0].lemmas() if lm.name() == lemma)
    others = max((count(wn.synsets(lemma, pos=p)) for p in (wn.VERB, wn.ADJ, wn.ADV)), default=0)
    return first > 0 and count(senses) >= others


def hypernym_chain(synset) -> List[Tuple[str, object]]:
    """(lemma, synset) of the meaningful hypernyms of ``synset``, nearest first (module docstring)."""
    out: List[Tuple[str, object]] = []
    current, is_person = synset, False
    while True:
        parents = current.hypernyms() or current.instance_hypernyms()
        if not parents:
            break
        current = min(parents, key=lambda p: p.name())  # NLTK's order varies with the hash seed: a fixed choice
        if current.name() == PERSON:
            is_person = True
        if current.name() in TOO_GENERAL or current.min_depth() < MIN_DEPTH:
            break
        out.append((lemma_text(current), current))
    out = out[: MAX_LEVELS - (1 if is_person else 0)]
    if is_person or _is_person(synset):
        out.append(("person", None))
    return out


def _is_person(synset) -> bool:
    return PERSON in ancestor_names(synset)


@lru_cache(maxsize=50000)
def hypernym_paths(synset) -> Tuple[Tuple[object, ...], ...]:
    """``synset.hypernym_paths()`` (each path from the top down to ``synset``), kept per process: WordNet does not
    change, and nltk walks the hierarchy again at every call (thousands of times per document)."""
    return tuple(tuple(path) for path in synset.hypernym_paths())


@lru_cache(maxsize=50000)
def ancestor_names(synset) -> frozenset:
    """The names of ``synset`` and of every synset above it (hypernyms and instance hypernyms), kept per process."""
    return frozenset(h.name() for path in hypernym_paths(synset) for h in path) | {synset.name()}


def lemma_text(synset) -> str:
    """The synset's first lemma as words ("health_professional" -> "health professional")."""
    return synset.lemmas()[0].name().replace("_", " ")


def noun_hypernyms(text: str, known_noun: bool = False) -> Optional[Tuple[List[Tuple[str, List[str]]], bool]]:
    """([(hypernym noun, the more specific nouns it covers)], nearest first; whether ``text`` is plural), or None if
    WordNet lacks it."""
    sense = noun_sense(text, known_noun)
    if sense is None:
        return None
    synset, plural = sense
    return [(lemma, hyponym_lemmas(s) if s is not None else []) for lemma, s in hypernym_chain(synset)], plural


def is_hyponym_of(synset, ancestors) -> bool:
    """Whether one of ``ancestors`` (synset names) is ``synset`` or above it (hypernyms and instance hypernyms)."""
    return not ancestor_names(synset).isdisjoint(ancestors)


@lru_cache(maxsize=20000)
def person_noun(word: str) -> bool:
    """Whether WordNet knows ``word`` (any case) as a common noun for a person ("actress", "President"): one of its
    first three noun senses, no instance (a named person), at or below ``person.n.01``."""
    wn = wordnet()
    low = word.lower().replace("-", "_")
    senses = [s for s in first_senses(low, wn.NOUN, 3) if not s.instance_hypernyms()] if low.isascii() else []
    return any(is_hyponym_of(s, ("person.n.01",)) for s in senses)


@lru_cache(maxsize=20000)
def mostly_a_noun(word: str) -> bool:
    """Whether WordNet knows ``word`` mostly as a noun: over its senses as each part of speech, each sense weighing its
    SemCor count + 1 (as :func:`textanon.detect.word_classes.verb_or_adverb`), the noun senses outweigh all others
    together. "actor", "producer", "wife", "host" are; "married" (an adjective and a verb far more often than "a
    married person") and "opposite" (an adjective) are not: without a tagger, the evidence that a word is used as a
    noun."""
    wn = wordnet()
    low = word.lower()

    def weight(pos: str) -> int:
        forms = {low} | {f.lower() for f in wn._morphy(low, pos)}
        return sum(
            1 + max((lemma_count(lemma) for lemma in synset.lemmas() if lemma.name().lower() in forms), default=0)
            for synset in wn.synsets(low, pos)
        )

    noun = weight(wn.NOUN)
    return noun > 0 and noun > sum(weight(pos) for pos in (wn.VERB, wn.ADJ, wn.ADV))


def person_title_word(word: str) -> bool:
    """A lower-case word that names a person and reads as a noun without a tagger's say: :func:`person_noun` and
    :func:`mostly_a_noun` ("actor", "stockbroker", "wife"; not "married", "opposite")."""
    return person_noun(word) and mostly_a_noun(word)


def hypernyms_of_every_sense(lemma: str, kind: Sequence[str]) -> set:
    """The hypernyms (synsets) above every noun sense of ``lemma`` that is below one of ``kind`` (synset names;
    instances, i.e. proper-name senses, left out): the generalizations true whichever of those senses a text
    means. Empty when no sense is of that kind."""
    wn = wordnet()
    above = None
    for sense in wn.synsets(lemma, pos=wn.NOUN):
        if sense.instance_hypernyms() or not is_hyponym_of(sense, kind):
            continue
        hypernyms = {h for path in hypernym_paths(sense) for h in path if h != sense}
        above = hypernyms if above is None else above & hypernyms
    return above or set()


def hyponym_lemmas(synset, limit: int = 20) -> List[str]:
    """Lemmas of ``synset`` and of its hyponyms (two levels down; instances left out; only lemmas whose most frequent
    noun sense is that hyponym; the most used first), at most ``limit``: more specific terms a replacement by ``synset``
    covers. Kept per process (WordNet does not change; its SemCor counts are read from disk lemma by lemma)."""
    return list(_hyponym_lemmas(synset, limit))


@lru_cache(maxsize=20000)
def _hyponym_lemmas(synset, limit: int) -> Tuple[str, ...]:
    wn = wordnet()
    out = dict.fromkeys([lemma_text(synset)])  # the lemmas in order, each once
    frontier = [synset]
    for _ in range(2):
        if len(out) >= limit:  # enough from the level above: the next level (thousands below "person") is not read
            break
        # NLTK gives hyponyms in no fixed order (it varies with Python's hash seed): the most used lemmas first
        # (SemCor counts), then by name, so that the ``limit`` kept are the same every run, and the common ones
        found = {h for s in frontier for h in s.hyponyms()}
        frontier = sorted(found, key=lambda h: (-sum(lemma_count(lemma) for lemma in h.lemmas()), h.name()))
        for h in frontier:
            if len(out) >= limit:
                break
            # a lemma counts only when this is its most frequent noun sense ("heavy" the villain actor does not)
            if first_senses(h.lemmas()[0].name(), wn.NOUN) == [h]:
                out.setdefault(lemma_text(h))
    return tuple(out)[:limit]
