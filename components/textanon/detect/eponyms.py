"""Terms named after a person that are no person: "Asperger's syndrome", "Addison's disease", "Heimlich maneuver",
"Apgar score", "Murphy's law" — the multi-word nouns of WordNet 3.0 whose first word is a proper name and that name
a disease, a procedure, a test, a law, a thing (never a person, a place or a group).

The generic NER labels the name in them PERSON ("Asperger"), and every person's name is masked whatever its risk
(the optimizer's ``mask_labels``, decision 13): a clinical note lost its diagnosis ("*** syndrome"). The recognizer
relabels such a PERSON span, together with the words of the term after it, as one MISC span, which the risk decides
on like any other quasi-identifier (:mod:`textanon.pipes.entity_recognizer`). A term WordNet does not know ("Baker's
cyst", "Hodgkin lymphoma") keeps its PERSON span, masked: privacy first.

The table (:data:`TABLE`, one lower-case term a line, its words as spaCy writes them apart: "asperger 's syndrome")
ships inside the package: reading NLTK's WordNet costs ~4 s at start-up, the table a few milliseconds. It is derived,
never written by hand: :func:`build` reads WordNet (the Debian database,
:mod:`textanon.detect.gazetteer.wordnet_data`)::

    NLTK_DATA=assets/nltk_data python -m textanon lab build-eponyms

(``make eponyms``; a test rebuilds it and compares).
"""

import re
from pathlib import Path
from typing import FrozenSet, Iterable, List, Optional, Union

from textanon.detect.gazetteer.wordnet_data import load_wordnet
from textanon.detect.line_tables import read_lines, write_lines

#: the table shipped with the package (:func:`build` writes it)
TABLE = Path(__file__).with_name("eponym_terms.txt")
#: the WordNet noun classes of a term named after a person (a state: a disease; an act: a procedure; a cognition: a
#: law, a test's score; an artifact, a substance, a body part, a communication, an event, a phenomenon, an attribute,
#: a process); never ``noun.person``, ``noun.location``, ``noun.group``
TERM_CLASSES = frozenset(
    {
        "noun.act",
        "noun.artifact",
        "noun.attribute",
        "noun.body",
        "noun.cognition",
        "noun.communication",
        "noun.event",
        "noun.phenomenon",
        "noun.process",
        "noun.state",
        "noun.substance",
    }
)
#: a noun class that makes a lemma a name of its own wherever another of its senses has it
NAME_CLASSES = frozenset({"noun.person", "noun.location", "noun.group"})
#: the longest term, in words as spaCy writes them apart
MAX_WORDS = 6
_POSSESSIVE = re.compile(r"(?<=\w)(['’]s?)(?=\s|$)")


def words_of(text: str) -> str:
    """``text`` lower-cased with its words as spaCy's tokenizer writes them apart: the possessive ending a word of its
    own ("Asperger's syndrome" -> "asperger 's syndrome"), curly apostrophes straight, hyphens kept."""
    text = text.replace("’", "'").lower()
    return " ".join(_POSSESSIVE.sub(r" \1", text).split())


def build(nltk_data: Optional[Union[str, Path]] = None) -> List[str]:
    """The sorted terms (:func:`words_of`) of every WordNet noun lemma of two words or more whose first word is
    capitalized and a later one a lower-case word (a common noun: "syndrome", "maneuver"; never a run of names such
    as "Mary Jane", a drug, or "Matthew Walker", a knot, which would unmask a person so named), with a sense in
    :data:`TERM_CLASSES` and none in :data:`NAME_CLASSES`, over the WordNet of ``nltk_data`` (default:
    ``NLTK_DATA``)."""
    wordnet = load_wordnet(nltk_data)
    terms = set()
    for synset in wordnet.all_synsets("n"):
        if synset.lexname() not in TERM_CLASSES:
            continue
        for lemma in synset.lemmas():
            name = lemma.name()
            parts = name.split("_")
            if len(parts) < 2 or not parts[0][:1].isupper() or not any(p.islower() for p in parts[1:]):
                continue  # a proper name, then a common noun: never names alone ("Mary_Jane", "Jim_Crow")
            if any(other.lexname() in NAME_CLASSES for other in wordnet.synsets(name, "n")):
                continue
            term = words_of(name.replace("_", " "))
            if len(term.split()) <= MAX_WORDS:
                terms.add(term)
    return sorted(terms)


def write_table(terms: Iterable[str], path: Path = TABLE) -> None:
    """Write ``terms`` as the table :func:`eponym_terms` reads (one term a line)."""
    write_lines(terms, path)


def eponym_terms(path: Path = TABLE) -> FrozenSet[str]:
    """The terms of the shipped table (read once)."""
    return read_lines(path)
