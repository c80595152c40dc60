"""Common noun phrases and common nouns (the search risk's candidates: "ensemble drama", "car dealership", "divorce").

* **The head of a noun phrase**: an adjective or noun modifier restricts its head, so the head alone is true of
  what the phrase names: "ensemble drama" -> "drama", "generally positive reviews" -> "reviews", "car dealership"
  -> "dealership" (a plural stays plural). Not when a modifier does not restrict but changes the head
  (:data:`NON_SUBSECTIVE`: "former wife" is no wife, "toy gun" no gun, "vice president" no president), nor when
  the phrase ends in a compound WordNet lists ("soap opera" is no opera: the compound is the head), nor when a
  word is not a lower-case adjective, adverb, participle, number or common noun by the tagger (names, possessives,
  prepositions: no phrase head is guessed).
* **A hypernym every sense shares**: the head (or a single common noun) then climbs to the WordNet hypernyms
  common to *all* of its noun senses, so that the replacement is true whichever sense the text means ("divorce"
  -> "separation"; "drama", a play or a dramatic quality, shares nothing below the top: no further level).
  WordNet's most frequent sense is not enough here (:mod:`.nouns` uses it for person nouns and diseases only).
  Only hypernyms below :data:`SAFE_KINDS` (buildings, vessels, time periods, works, relatives...) are proposed.

The replacement takes the phrase's place without an article of its own: the words around it stay, and the
optimizer fits "a"/"an" before it (:func:`.base.fit_articles`).
"""

from typing import List, Optional, Sequence, Tuple

from textanon.decide.generalization.base import Generalization, levels
from textanon.decide.generalization.hypernyms import (
    MIN_DEPTH,
    TOO_GENERAL,
    has_sense,
    hypernym_paths,
    hyponym_lemmas,
    is_hyponym_of,
    lemma_text,
    wordnet,
)
from textanon.detect.gazetteer.wordnet import pluralize

#: modifiers after which the head is not true of the phrase ("former wife", "fake gun", "vice president")
NON_SUBSECTIVE = set(
    """former ex late fake faux false alleged supposed so-called would-be wannabe potential possible prospective
    future fictional fictitious imaginary virtual artificial pseudo quasi counterfeit forged apparent nominal
    acting deputy vice assistant honorary titular mock imitation replica model toy dummy stuffed cardboard wax
    stone paper plastic rubber chocolate paper-mache mythical hypothetical presumed presumptive putative reputed
    erstwhile onetime one-time then-future estranged non anti un step surrogate substitute stand-in""".split()
)
#: tags a modifier of the head may have (adjectives, adverbs, participles, numbers, common nouns, hyphens)
MODIFIER_TAGS = {"JJ", "JJR", "JJS", "RB", "RBR", "RBS", "VBN", "VBG", "CD", "NN", "NNS", "HYPH"}
HEAD_TAGS = {"NN", "NNS"}
MAX_HYPERNYMS = 2
#: the hypernyms a noun may climb to (below these, WordNet's hypernyms are what the words say in everyday use:
#: "restaurant" -> "building", "ship" -> "vessel", "semester" -> "time period"); elsewhere WordNet's tree says
#: little a reader would call true ("website" -> "computer", "career" -> "act"), and no hypernym is proposed
SAFE_KINDS = (
    "building.n.01",
    "facility.n.01",
    "place_of_business.n.01",
    "mercantile_establishment.n.01",
    "vessel.n.02",
    "vehicle.n.01",
    "time_period.n.01",
    "dramatic_composition.n.01",
    "movie.n.01",
    "musical_composition.n.01",
    "social_event.n.01",
    "relative.n.01",
    "friend.n.01",
    "disease.n.01",
    "sport.n.01",
    "musical_instrument.n.01",
    "publication.n.01",
)
MIN_HYPERNYM_DEPTH = 5


def phrase_head(words: Sequence[str], tags: Sequence[str]) -> Optional[Tuple[str, bool]]:
    """(the head of the noun phrase ``words`` tagged ``tags``, whether it is a WordNet compound), or None when the
    head alone would not be true of the phrase (module docstring)."""
    if len(words) != len(tags) or len(words) < 2 or tags[-1] not in HEAD_TAGS:
        return None
    if not all(w.isalpha() or w == "-" or "-" in w for w in words) or any(w != w.lower() for w in words):
        return None
    if any(t not in MODIFIER_TAGS for t in tags[:-1]):
        return None
    lowered = [w.lower() for w in words]
    joined = " ".join(lowered).replace(" - ", "-").split()  # "would - be" (the tokens) -> "would-be"
    modifiers = lowered[:-1] + joined[:-1] + [part for w in joined[:-1] for part in w.split("-")]
    if any(w in NON_SUBSECTIVE for w in modifiers):
        return None
    wn = wordnet()
    for i in range(len(words) - 1):  # the longest compound ending the phrase that WordNet lists
        compound = "_".join(lowered[i:])
        if wn.morphy(compound, wn.NOUN) is not None and has_sense(compound, wn.NOUN):
            return (" ".join(words[i:]), True) if i > 0 else None
    if not any(c.isalpha() for c in words[-1]):
        return None
    return words[-1], False


def shared_hypernyms(word: str, limit: int = MAX_HYPERNYMS) -> List[Tuple[str, List[str]]]:
    """[(hypernym, the more specific nouns it covers)] that hold for every noun sense of ``word``, nearest first:
    the hypernyms common to all senses' hypernym paths, from the deepest, above neither :data:`TOO_GENERAL` nor
    shallower than :data:`MIN_DEPTH`; [] when WordNet lacks the word or its senses share nothing meaningful."""
    wn = wordnet()
    key = "_".join(word.lower().split())
    lemma = wn.morphy(key, wn.NOUN)
    senses = wn.synsets(lemma, pos=wn.NOUN) if lemma else []
    if not senses:
        return []
    common = None
    for s in senses:  # above every sense, along every path ("musical", a play or a film, is not a film)
        for path in hypernym_paths(s):
            above = {h for h in path if h != s}
            common = above if common is None else common & above
    out = []
    for h in sorted(common or (), key=lambda h: (-h.min_depth(), h.name())):
        if h.name() in TOO_GENERAL or h.min_depth() < max(MIN_DEPTH, MIN_HYPERNYM_DEPTH):
            continue
        if not is_hyponym_of(h, SAFE_KINDS):
            continue
        name = lemma_text(h)
        if name.lower() != lemma.replace("_", " ").lower():
            out.append((name, hyponym_lemmas(h)))
    return out[:limit]


def generalize_phrase(text: str, words: Sequence[str] = (), tags: Sequence[str] = ()) -> List[Generalization]:
    """Generalizations of the common noun phrase or noun ``text`` (its tokens ``words`` and their tags ``tags``):
    its head, then hypernyms every sense of the head shares (module docstring); [] without tags."""
    if not words or len(words) != len(tags):
        return []
    if len(words) == 1:
        if tags[0] not in HEAD_TAGS or not words[0].isalpha() or words[0] != words[0].lower():
            return []
        if words[0].endswith("ing"):  # a verb's gerund is tagged a noun ("working"): WordNet's noun is not it
            return []
        head, plural = words[0], tags[0] == "NNS"
        texts: List[str] = []
        members: List[List[str]] = []
    else:
        found = phrase_head(words, tags)
        if found is None:
            return []
        head, plural = found[0], tags[-1] == "NNS"
        texts, members = [head], [[]]
    # the head climbs only as a single noun does, by the senses it shares: "youngest child" is no "juvenile" (the
    # most frequent sense of "child"), "younger sister" stays "sister"; a plural climbs one level only (WordNet's
    # words are singular, and plurals go wrong higher up: "crafts")
    for name, covered in shared_hypernyms(head, 1 if plural else MAX_HYPERNYMS):
        texts.append(_plural(name) if plural else name)
        members.append(covered)
    return levels(texts, "phrases", text, members)


def _plural(noun: str) -> str:
    return pluralize(noun) or noun
