"""Nationalities: a demonym becomes its continent's ("French" -> "European", "Americans" -> "North Americans").
The adjective's WordNet pertainym names the country ("French" -> France); GeoNames gives its continent
(:mod:`.gazetteer`). Nouns of nationality ("a Briton") take the WordNet noun route (:mod:`.nouns`) when the
adjective route finds no country."""

from typing import List, Optional

from textanon.decide.generalization.base import Generalization, levels
from textanon.decide.generalization.geonames import CONTINENTS, geonames
from textanon.decide.generalization.hypernyms import has_sense, wordnet


def country_of_demonym(text: str) -> Optional[str]:
    """The GeoNames continent code of the country a demonym adjective refers to ("French" -> "EU"), else None."""
    wn = wordnet()
    word = text.strip()
    singular = word[:-1] if word.endswith("s") and not has_sense(word, wn.ADJ) else word
    for synset in wn.synsets(singular, pos=wn.ADJ):
        for lemma in synset.lemmas():
            if lemma.name().lower() != singular.lower():
                continue
            for p in lemma.pertainyms():
                for name in p.synset().lemma_names():
                    country = geonames().country(name.replace("_", " "))
                    if country is not None:
                        return country.continent
    return None


def generalize_nationality(text: str) -> List[Generalization]:
    """The continent demonym of a nationality ("Moldovan" -> "European"; plural kept), or nothing."""
    continent = country_of_demonym(text)
    if continent is None:
        return []
    adjective = CONTINENTS[continent][1]
    plural = text.strip().endswith("s") and not text.strip().endswith("ss")
    return levels(
        [adjective + ("s" if plural else "")], "nationalities", text, [geonames().members(continent=continent)]
    )
