"""Organizations and named things with a common head noun become their type: "University of Texas" -> "a
university" -> "an educational institution" -> "an institution"; "Royal Shakespeare Company" -> "a company";
"Golden Globe Award" -> "an award". The head is the last word, or the word before "of"/"for"/"in"
("Academy Award for Best Actress" -> "Award"). The head must be a WordNet noun of one of the :data:`TYPES`
(:data:`ORGANIZATION_TYPES`: organizations, institutions, buildings and facilities; :data:`THING_TYPES`:
awards, events, works): a name without such a head
("BBC", "Titanic") gets no generalization (the optimizer suppresses it). Only names: a lower-case head is a common
noun whose sense no naming convention fixes ("dance", "ranked dance companies", is no social event; see
:mod:`.phrases` for common nouns)."""

import re
from typing import List, Sequence

from .base import Generalization, levels, noun_phrase
from .wordnet import hypernym_chain, hyponym_lemmas, is_hyponym_of, wordnet

#: WordNet synsets whose hyponyms are types an organization (ORG, LOC facilities) may be generalized to
ORGANIZATION_TYPES = (
    "organization.n.01",
    "institution.n.01",
    "building.n.01",
    "facility.n.01",
    "establishment.n.04",
    "military_unit.n.01",
    "team.n.01",
)
#: ... and a named thing (MISC: awards, events, works)
THING_TYPES = (
    "award.n.02",
    "social_event.n.01",
    "contest.n.01",
    "show.n.01",
    "movie.n.01",
    "musical_composition.n.01",
    "album.n.02",
    "publication.n.01",
    "broadcast.n.02",
)
#: heads that name shows as often as organizations ("Modern Family", "The Partridge Family"): no type is sure
TITLE_HEADS = {"family", "families"}
_SPLIT = re.compile(r"\s+(?:of|for|in|at|on)\s+", re.IGNORECASE)


def head_noun(text: str) -> str:
    """The head word of a name: the last word before "of"/"for"/... or the last word ("Studios", "Award")."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", _SPLIT.split(text.strip())[0])
    return words[-1] if words else ""


def generalize_named_thing(
    text: str, doc_text: str = "", start: int = 0, types: Sequence[str] = ORGANIZATION_TYPES
) -> List[Generalization]:
    """The type of a named organization (``types``: :data:`ORGANIZATION_TYPES`), award, event or work
    (:data:`THING_TYPES`) from its head noun (module docstring). A head in the plural ("Paramount Pictures", "Tony
    Awards") is not generalized: the name of one thing does not make it several."""
    head = head_noun(text)
    if head.lower() in TITLE_HEADS or re.match(r"(?:best|outstanding)\s", text.strip(), re.IGNORECASE):
        return []  # "Best Film", "Outstanding Lead Actress": an award's category, not a film or an actress
    if len(head) < 3 or head.isupper() or not head[0].isupper():
        return []  # an acronym, or a common noun ("dance", "attraction"): no name says which sense is meant
    found = typed_sense(head.lower(), types)
    first = typed_sense(head.lower(), ORGANIZATION_TYPES + THING_TYPES)
    if found is None or found[2] or first is None or first[0] != found[0]:
        return []  # a head whose most frequent typed sense is of the other kind ("Vaudeville Theatre": a building)
    synset, lemma, _ = found
    chain = [(lemma.replace("_", " "), synset)] + [
        (name, s) for name, s in hypernym_chain(synset) if s is not None and is_hyponym_of(s, types)
    ]
    return levels(
        [noun_phrase(n, doc_text, start) for n, _ in chain],
        "organizations",
        text,
        [hyponym_lemmas(s) for _, s in chain],
    )


def typed_sense(word: str, types: Sequence[str]):
    """(the most frequent noun sense of ``word`` below one of ``types``, its lemma, whether ``word`` is plural), or
    None."""
    wn = wordnet()
    lemma = wn.morphy(word, wn.NOUN)
    if lemma is None:
        return None
    for synset in wn.synsets(lemma, pos=wn.NOUN):
        if is_hyponym_of(synset, types):
            return synset, lemma, lemma != word
    return None
