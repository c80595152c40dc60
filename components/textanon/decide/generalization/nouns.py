"""Occupations, roles, religions (person nouns) and diseases: their WordNet hypernyms ("veterinary surgeon" -> "a
doctor" -> "a medical practitioner" -> "a health professional" -> "a person"; "pneumonia" -> "a respiratory disease"
-> "a disease"); see :mod:`.wordnet`. Other common nouns are not generalized: the most frequent sense of an
arbitrary word is too often not the one meant ("weights" the objects are not physical properties). A plural noun
gets plural hypernyms ("actresses" -> "actors"); an article is added unless a determiner precedes the span.

The hypernyms are those of the most frequent sense that every other sense of the same kind shares (person senses
of a person noun, disease senses of a disease; proper-name senses, WordNet's instances, left out): "director" is
not always "a head" or "an administrator" (WordNet's most frequent sense), it may be a film director or a board
member, so it becomes "a person" only. As in :mod:`.phrases`, a replacement must be true whichever sense the text
means.

A noun read with a complement or a possessor ("the recipient of six awards", "Smith's wife") keeps only the
hypernyms that take one too (:mod:`.relational`): "the acquirer of six awards", "Smith's spouse", never "the person
of six awards"."""

from typing import List

from textanon.decide.generalization.base import Generalization, levels, noun_phrase
from textanon.decide.generalization.hypernyms import (
    hypernym_chain,
    hypernyms_of_every_sense,
    hyponym_lemmas,
    is_hyponym_of,
    noun_sense,
    wordnet,
)
from textanon.decide.generalization.relational import relational_context, takes_complement

#: the kinds of nouns generalized: persons (occupations, roles, religions, nationalities) and diseases
KINDS = ("person.n.01", "disease.n.01")


def generalize_noun(text: str, doc_text: str = "", start: int = 0, known_noun: bool = True) -> List[Generalization]:
    """Generalizations of the common noun ``text`` found at ``start`` of ``doc_text`` (empty if WordNet lacks it;
    ``known_noun``: a tagger said it is a noun, see :func:`.wordnet.noun_sense`)."""
    sense = noun_sense(text, known_noun)
    if sense is None or not is_hyponym_of(sense[0], KINDS):
        return []
    synset, plural = sense
    kind = next(k for k in KINDS if is_hyponym_of(synset, (k,)))
    shared = shared_hypernyms(text, kind)
    chain = [(n, s) for n, s in hypernym_chain(synset) if s in shared or s is None]
    if relational_context(doc_text, start, text=text):  # "the recipient of six awards" is no "person of six awards"
        fitting = [takes_complement(s) for _, s in chain]
        chain = chain[: fitting.index(False) if False in fitting else len(chain)]
    nouns = [(n, hyponym_lemmas(s) if s is not None else []) for n, s in chain]
    return levels([noun_phrase(n, doc_text, start, plural) for n, _ in nouns], "nouns", text, [m for _, m in nouns])


def shared_hypernyms(text: str, kind: str) -> set:
    """The hypernyms (synsets) above every non-instance noun sense of ``text`` below ``kind``."""
    wn = wordnet()
    key = "_".join(text.strip().split())
    lemma = wn.morphy(key, wn.NOUN) or wn.morphy(key.lower(), wn.NOUN)
    return hypernyms_of_every_sense(lemma, (kind,)) if lemma else set()
