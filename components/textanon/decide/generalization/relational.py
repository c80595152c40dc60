"""Whether a hypernym still fits where a relational person noun stands: "the recipient of six awards", "Smith's wife".

A relational noun (NomBank's term: a noun whose argument is another entity) is read with its complement: "recipient
of six awards", "son of an actor", "heir to a fortune", or with a possessor: "Smith's wife",
"his agent". Its replacement must take the same complement, or the sentence stops reading as English ("the person of
six awards") and may say something else. A span replacement cannot drop the complement with the noun, so a hypernym
is kept in such a context only when it is itself relational, by one of two WordNet criteria:

* a kin term: at or below ``relative.n.01`` ("son" -> "male offspring" -> "child" -> "offspring"; "wife" ->
  "spouse"): "child of an actor", "Smith's spouse";
* an agent noun: its word ends in an agentive suffix (-er, -or, -ee, -ent, -ant, -ar) and WordNet derives it from a
  verb ("recipient" -> "acquirer", from "get"): the verb's object becomes the "of"-complement ("the acquirer of six
  awards") and its possessor the agent's patron ("his employer").

The levels are cut at the first hypernym that is neither ("person", "associate", "politician"): a more general one
never is. Out of such a context every level stays."""

import re
from typing import Optional

from textanon.decide.generalization.hypernyms import is_hyponym_of

#: prepositions that introduce a relational noun's complement ("recipient of", "heir to"; not "for": "a director
#: for Disney" is "a person for Disney", an adjunct that any person noun takes)
COMPLEMENT_PREPOSITIONS = ("of", "to")
#: kin terms take a relative ("son of", "Smith's wife")
KIN = ("relative.n.01",)
#: word endings of agent nouns (with a verb WordNet derives them from)
AGENT_SUFFIXES = ("er", "or", "ee", "ent", "ant", "ar")
#: possessive determiners before a noun ("his agent")
POSSESSIVE_PRONOUNS = frozenset({"his", "her", "their", "its", "my", "your", "our", "whose"})

_COMPLEMENT_AFTER = re.compile(r"^\s+(" + "|".join(COMPLEMENT_PREPOSITIONS) + r")\b", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"(?<![\w'’])([\w'’]+)\s+$")


def relational_context(doc_text: str, start: int, end: Optional[int] = None, text: str = "") -> bool:
    """Whether the noun at ``start``-``end`` of ``doc_text`` (``end`` found from ``text`` when not given) has an
    "of"/"to" complement after it or a possessor before it ("Smith's", "Jones'", "his")."""
    if not doc_text:
        return False
    if end is None:
        words = [re.escape(w) for w in text.split()]
        found = re.compile(r"\s+".join(words)).match(doc_text, start) if words else None
        end = found.end() if found else start + len(text)
    if _COMPLEMENT_AFTER.match(doc_text[end : end + 8]):
        return True
    before = _WORD_BEFORE.search(doc_text[max(0, start - 40) : start])
    if not before:
        return False
    word = before.group(1)
    return word.lower() in POSSESSIVE_PRONOUNS or word.endswith(("'s", "’s", "s'", "s’"))


def takes_complement(synset) -> bool:
    """Whether the person noun ``synset`` is relational (module docstring): a kin term, or an agent noun."""
    if synset is None:
        return False
    if is_hyponym_of(synset, KIN):
        return True
    lemma = synset.lemmas()[0]
    name = lemma.name().lower()
    return name.endswith(AGENT_SUFFIXES) and any(f.synset().pos() == "v" for f in lemma.derivationally_related_forms())
