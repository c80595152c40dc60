"""Organizations and named things with a common head noun become their type: "University of Texas" -> "a
university" -> "an educational institution" -> "an institution"; "Royal Shakespeare Company" -> "a company";
"Golden Globe Award" -> "an award". The head is the last word, or the word before "of"/"for"/"in"
("Academy Award for Best Actress" -> "Award"). The head must be a WordNet noun of one of the :data:`TYPES`
(:data:`ORGANIZATION_TYPES`: organizations, institutions, buildings and facilities; :data:`THING_TYPES`:
awards, events, works): a name without such a head
("BBC", "Titanic") gets no generalization (the optimizer suppresses it). Only names: a lower-case head is a common
noun whose sense no naming convention fixes ("dance", "ranked dance companies", is no social event; see
:mod:`.phrases` for common nouns).

Film titles and honours are often labelled ORG, and their head nouns then gave false types ("Suicide Squad" -> "a
unit", "House of Wax" -> "a house", "The Crown" -> "an award"). So a name is typed only when it reads as the name of
an organization or a named thing:

* not in a title context (:func:`.context.title_context`: "starred in", "the film" before it), and not after a
  capitalised "The" (or "In", "A"...) in mid-sentence ("in The Crown", "in In Celebration") unless its head is an
  organization noun;
* not before a lower-case noun of a made thing ("Right Guard antiperspirant": a brand before its product, no guard,
  :func:`names_a_product`);
* not the end of a longer name ("No Country for Old Men": a capitalised word and "for"/"of"/... right before it,
  :func:`.context.continues_a_name`), no plural head, even one WordNet lists as a word of its own ("Men");
* no "of the" in it ("The Lord of the Rings"), and a head before "of"/"for"/... only in the naming patterns of
  organizations and awards: "<head> of <a known place>" ("University of Texas", not "House of Wax", "Land of
  Blood") and "<head> for Best/Outstanding ..." ("Academy Award for Best Actress");
* a one-word name ("Crown") only when its head's most frequent noun sense is of a type (the Crown is no award);
* the hypernyms above the head (:func:`shared_levels`) only when they hold for every sense of the head of the same
  kind (organizations; buildings and facilities; each kind of thing): "British Academy" is an academy and an
  institution, not a "secondary school" (WordNet's most frequent sense of "academy")."""

import re
from typing import List, Sequence

from textanon.decide.generalization.base import Generalization, levels, noun_phrase
from textanon.decide.generalization.context import capital_the_before, continues_a_name, title_context
from textanon.decide.generalization.hypernyms import (
    first_senses,
    hypernym_chain,
    hypernyms_of_every_sense,
    hyponym_lemmas,
    is_hyponym_of,
    plural_bases,
    wordnet,
)
from textanon.detect.given_names import gender_of

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
#: the kinds of nouns a brand names before them ("Right Guard antiperspirant"): made things, ...
PRODUCT_TYPES = ("artifact.n.01",)
#: ... except works ("an Entertainment Weekly article", "the Marvel film": the name's type still holds)
WORK_TYPES = ("creation.n.02",)
#: heads below these are generalized to their own noun only: WordNet files a broadcasting network under
#: "communication system" and "facility", true only in WordNet's sense ("Cartoon Network" is a network, not a facility)
NO_LEVELS_ABOVE = ("communication_system.n.02",)
#: what a law's name ends in: a head whose most frequent noun sense is one of these ("Act", "Bill", "Treaty", "Order",
#: "Statute", "Decree", "Constitution") names a law, whatever rarer typed sense it has (an act of a show, a bill of a
#: programme, an order of monks: :func:`names_a_law`)
LAW_TYPES = ("legal_document.n.01", "law.n.01", "legal_code.n.01", "command.n.01")
#: heads that name shows as often as organizations ("Modern Family", "The Partridge Family"): no type is sure
TITLE_HEADS = {"family", "families"}
#: kinds of types: a name is of the kind of its head's most frequent typed sense, and a hypernym is proposed only when
#: every sense of the head of that kind is below it (:func:`shared_levels`)
KINDS = (
    ("organization.n.01",),
    ("building.n.01", "facility.n.01", "establishment.n.04"),
    ("award.n.02",),
    ("social_event.n.01", "contest.n.01", "show.n.01"),
    ("movie.n.01", "musical_composition.n.01", "album.n.02", "publication.n.01", "broadcast.n.02"),
)
_SPLIT = re.compile(r"\s+(?:of|for|in|at|on)\s+", re.IGNORECASE)
_AFTER_HEAD = re.compile(r"\s+(of|for|in|at|on)\s+(.*)$", re.IGNORECASE | re.DOTALL)


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
    if not reads_as_name(text, head, doc_text, start):
        return []
    if plural_bases(head):
        return []  # a plural even where WordNet lists the plural itself ("Men": a force; "Old Men" is no force)
    if names_a_law(head):
        return []  # "the Criminal Justice Act 1967" is no performance, "the Road Traffic Order" no organization
    if compound_of_another_kind(text):
        return []  # "Social Security" is a programme, no "security" (a department): "your administrative unit number"
    found = typed_sense(head.lower(), types)
    first = typed_sense(head.lower(), ORGANIZATION_TYPES + THING_TYPES)
    if found is None or found[2] or first is None or first[0] != found[0]:
        return []  # a head whose most frequent typed sense is of the other kind ("Vaudeville Theatre": a building)
    synset, lemma, _ = found
    if (text.strip().startswith("The ") or capital_the_before(doc_text, start)) and not is_hyponym_of(
        synset, ORGANIZATION_TYPES[:1]
    ):
        return []  # "The Crown", "in The Dark Tower": a title's article before a head that is no organization
    if len(re.findall(r"[A-Za-z][A-Za-z'-]*", re.sub(r"^\s*the\s+", "", text, flags=re.IGNORECASE))) == 1:
        if gender_of(head) is not None and not any(
            n.name().lower() == head.lower() and n.name()[0].isupper() for n in synset.lemmas()
        ):
            return []  # a given name before a common noun: "mother of Carol and Ian" had read "mother of a religious
            # song"; a name WordNet writes capitalized is the thing's own ("Emmy", "Oscar": an award)
        wn = wordnet()
        if first_senses(lemma, wn.NOUN) != [synset]:
            return []  # a one-word name in a rarer sense of its word: "Crown" (the monarchy) is no award
    chain = [(lemma.replace("_", " "), synset)] + shared_levels(head.lower(), synset, types)
    return levels(
        [noun_phrase(n, doc_text, start) for n, _ in chain],
        "organizations",
        text,
        [hyponym_lemmas(s) for _, s in chain],
    )


def names_a_law(head: str) -> bool:
    """Whether a name's head word's most frequent noun sense (WordNet's first) is a law's kind of text
    (:data:`LAW_TYPES`): the name is a law's ("the Companies Bill", "the Public Order Act", "the Maastricht Treaty"),
    and a typed sense further down the list (a show's act, a programme's bill, a religious order) would be false."""
    wn = wordnet()
    lemma = wn.morphy(head.lower(), wn.NOUN)
    senses = wn.synsets(lemma, pos=wn.NOUN) if lemma else []
    return bool(senses) and is_hyponym_of(senses[0], LAW_TYPES)


def compound_of_another_kind(text: str) -> bool:
    """Whether the whole name of two words or more is a noun of WordNet's own ("social_security") none of whose
    senses is of :data:`ORGANIZATION_TYPES` or :data:`THING_TYPES` or a kind of its head word (a Supreme Court is a
    court, the White House a house): the compound means something its head does not say, and the head's type would
    be false ("Social Security", a government programme, is no security department: "your administrative unit
    number")."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", re.sub(r"^\s*the\s+", "", text, flags=re.IGNORECASE))
    if len(words) < 2:
        return False
    wn = wordnet()
    senses = wn.synsets("_".join(w.lower() for w in words), pos=wn.NOUN)
    if not senses or any(is_hyponym_of(s, ORGANIZATION_TYPES + THING_TYPES) for s in senses):
        return False
    head = head_noun(text).lower()
    heads = set(wn.synsets(wn.morphy(head, wn.NOUN) or head, pos=wn.NOUN))
    return not any(heads.intersection(path) for s in senses for path in s.hypernym_paths())


def reads_as_name(text: str, head: str, doc_text: str = "", start: int = 0) -> bool:
    """Whether ``text`` (head ``head``, at ``start`` of ``doc_text``) reads as the name of an organization or a named
    thing rather than a work's title (module docstring): no title context, no "of the", and a head before a
    preposition only in "<head> of <known place>" or "<head> for Best/Outstanding ..."."""
    if doc_text and (title_context(doc_text, start) or continues_a_name(doc_text, start)):
        return False  # "starred in Suicide Squad"; "No Country for Old Men" (the span "Old Men")
    if doc_text and names_a_product(doc_text, start + len(text)):
        return False  # "Right Guard antiperspirant": a brand before its product, no guard
    if re.search(r"\bof\s+the\b", text, re.IGNORECASE):
        return False
    after = _AFTER_HEAD.search(text.strip())
    if after is None:
        return True
    preposition, rest = after.group(1).lower(), after.group(2)
    if preposition == "for":
        return bool(re.match(r"(?:best|outstanding)\b", rest, re.IGNORECASE))
    if preposition != "of":
        return False
    try:
        from textanon.decide.generalization.geonames import geonames

        gaz = geonames()
    except ImportError:
        return False
    return bool(gaz.country(rest) or gaz.us_state(rest) or gaz.city(rest))


def names_a_product(doc_text: str, end: int) -> bool:
    """Whether the name ending at ``end`` is followed by a lower-case noun naming a made thing ("Right Guard
    antiperspirant", "a Ford truck"): a brand before its product, whose head is no type of it (Right Guard is no
    guard). A made thing: the word's most frequent noun sense is an artifact and no work (WordNet); "Company
    production", "Award nomination", "University alumni", "Entertainment Weekly article" keep their types."""
    m = re.match(r"[ \t]+([a-z][a-z-]*)\b", doc_text[end : end + 40])
    if m is None:
        return False
    wn = wordnet()
    lemma = wn.morphy(m.group(1), wn.NOUN)
    senses = wn.synsets(lemma, pos=wn.NOUN) if lemma else []
    return bool(senses) and is_hyponym_of(senses[0], PRODUCT_TYPES) and not is_hyponym_of(senses[0], WORK_TYPES)


def shared_levels(word: str, synset, types: Sequence[str]) -> list:
    """[(lemma, synset)] of the hypernyms of ``synset`` (a sense of ``word``) below one of ``types`` that are above
    every sense of ``word`` of the same kind (:data:`KINDS`), nearest first: true whichever of them a name means."""
    wn = wordnet()
    kind = next((k for k in KINDS if is_hyponym_of(synset, k)), None)
    if kind is None or is_hyponym_of(synset, NO_LEVELS_ABOVE):
        return []
    above = hypernyms_of_every_sense(wn.morphy(word, wn.NOUN) or word, kind)
    return [(name, s) for name, s in hypernym_chain(synset) if s is not None and is_hyponym_of(s, types) and s in above]


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
