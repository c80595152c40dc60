"""Occupations, roles, religions (person nouns) and diseases: their WordNet hypernyms ("veterinary surgeon" -> "a
doctor" -> "a medical practitioner" -> "a health professional" -> "a person"; "pneumonia" -> "a respiratory disease"
-> "a disease"); see :mod:`.wordnet`. Other common nouns are not generalized: the most frequent sense of an
arbitrary word is too often not the one meant ("weights" the objects are not physical properties). A plural noun
gets plural hypernyms ("actresses" -> "actors"); an article is added unless a determiner precedes the span."""

from typing import List

from .base import Generalization, levels, noun_phrase
from .wordnet import is_hyponym_of, noun_hypernyms, noun_sense

#: the kinds of nouns generalized: persons (occupations, roles, religions, nationalities) and diseases
KINDS = ("person.n.01", "disease.n.01")


def generalize_noun(text: str, doc_text: str = "", start: int = 0, known_noun: bool = True) -> List[Generalization]:
    """Generalizations of the common noun ``text`` found at ``start`` of ``doc_text`` (empty if WordNet lacks it;
    ``known_noun``: a tagger said it is a noun, see :func:`.wordnet.noun_sense`)."""
    sense = noun_sense(text, known_noun)
    if sense is None or not is_hyponym_of(sense[0], KINDS):
        return []
    found = noun_hypernyms(text, known_noun)
    if found is None:
        return []
    nouns, plural = found
    return levels([noun_phrase(n, doc_text, start, plural) for n, _ in nouns], "nouns", text, [m for _, m in nouns])
