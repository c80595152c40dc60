"""Titles of works: a name followed by a year in parentheses ("Hackers (1995)", "Cyborg 2 (1993)") is the title of a
work released that year (a film, a series, a play, an album), whatever label the recognizer gave it; it becomes
"a work". Only a single four-digit year right after the name counts ("John Smith (1920-2001)" is a lifespan, not
a release). So does a capitalized name right after words that only a work's title follows ("starred in Hackers",
"a revival of Hay Fever", "an episode of Doomwatch": :data:`WORK_CUES`), unless the name is an event's
(:data:`EVENT_WORDS`: "starred in the World Cup" says nothing of a work) or an owner's (a possessive: "a revival of
Ian Hay's 1936 comedy" names the work's author), nor a role and its work in one span
("voiced Mumble in Happy Feet (2006)": :func:`role_and_work`); ``works_in_context`` is off for ORG
mentions (the caller's choice: "a production of the National Theatre" names a company)."""

import re
from typing import List

from textanon.decide.generalization.base import POSSESSIVE_AFTER, POSSESSIVE_END, Generalization, levels, noun_phrase
from textanon.decide.generalization.context import continues_a_name, words_before

_RELEASE = re.compile(r"^\s*\((?:1[89]\d\d|20\d\d)\)")
#: the two words before a name that only a work's title follows
WORK_CUES = {
    ("starred", "in"),
    ("co-starred", "in"),
    ("costarred", "in"),
    ("production", "of"),
    ("productions", "of"),
    ("revival", "of"),
    ("adaptation", "of"),
    ("episode", "of"),
    ("episodes", "of"),
    ("sequel", "to"),
    ("remake", "of"),
    ("cast", "of"),
}
#: words of an event's name, not a work's ("the World Cup", "the Olympic Games")
EVENT_WORDS = set(
    """war wars cup games olympics olympic championship championships tournament open festival award awards prize
    league election elections marathon grand prix""".split()
)


#: words before a span that make it a role ("voiced Mumble in Happy Feet"): a span that goes on with "in"/"from" and a
#: capitalized name is then a role and its work in one span, and "a work" would be false for the role
ROLE_CUES = {"as", "voiced", "voicing", "voices", "played", "playing", "plays", "portrayed", "portraying", "portrays"}
_ROLE_AND_WORK = re.compile(r"\s(?:in|from)\s+[A-Z]")


def role_and_work(text: str, doc_text: str, start: int) -> bool:
    """Whether ``text`` at ``start`` of ``doc_text`` is a role and its work in one span: a role cue
    (:data:`ROLE_CUES`, or "role of") right before it and "in"/"from" + a capitalized name inside ("as Mumble in
    Happy Feet", "the role of Mumble in Happy Feet")."""
    words = words_before(doc_text, start, 2, breaks=r"[.!?;:()\n\"\u201c]")
    cued = bool(words) and (words[-1] in ROLE_CUES or words[-2:] in (["role", "of"], ["roles", "of"]))
    return cued and bool(_ROLE_AND_WORK.search(text))


#: a capitalised word right before a name, not a title's opening article nor a sentence's first word: "My [Best
#: Friend's Wedding]", "Underworld: Blood [Wars]"
_CAPITAL_BEFORE = re.compile(r"(?<![.!?]\s)(?<![.!?])\b(?!(?:The|A|An|In|On|At|And|As|Also)\s)[A-Z][\w'-]*\s+$")


#: a capitalised word and a colon or a comma right before a name: "Lara Croft: [Tomb Raider]", "Girl, [Interrupted]"
_PUNCTUATED_BEFORE = re.compile(r"\b[A-Z][\w'-]*[:,]\s+$")
#: a colon and a capitalised word right after a name, then a release year: "[Avengers]: Age of Ultron (2015)"
_CONTINUED_AFTER = re.compile(r"^:\s+[A-Z][^()\n]{0,60}?\s\((?:1[89]\d\d|20\d\d)\)")


def title_part(text: str, doc_text: str, start: int) -> bool:
    """Whether the name ``text`` at ``start`` of ``doc_text`` is part of a longer title that punctuation splits:
    after a capitalised word and a colon or comma ("The Lost World: [Jurassic Park] (1997)", "Girl, [Interrupted]
    (1999)") with a release year after it, or before a colon that the rest of the title and its year follow
    ("[Avengers]: Age of Ultron (2015)"). A list of titles ("Big (1988), [Splash] (1984)") is not: the word before
    the comma is a year's parenthesis."""
    end = start + len(text)
    before = doc_text[max(0, start - 40) : start]
    if _PUNCTUATED_BEFORE.search(before) and followed_by_release(doc_text, end):
        return True
    return bool(_CONTINUED_AFTER.match(doc_text[end : end + 90]))


def title_fragment(doc_text: str, start: int) -> bool:
    """Whether a name at ``start`` of ``doc_text`` is the end of a longer title: a capitalised word right before it
    ("My [Best Friend's Wedding] (1996)"), or a capitalised word and a preposition ("Eternal Sunshine of the
    [Spotless Mind]", "Alice in [Wonderland]": :func:`.context.continues_a_name`). "a work" would be false of it."""
    before = doc_text[max(0, start - 40) : start]
    return bool(_CAPITAL_BEFORE.search(before)) or continues_a_name(doc_text, start)


def followed_by_release(doc_text: str, end: int) -> bool:
    """Whether a release year in parentheses follows character ``end`` of ``doc_text`` ("Hackers (1995)")."""
    return bool(_RELEASE.match(doc_text[end:]))


def _cued(text: str, doc_text: str, start: int) -> bool:
    if not text[:1].isupper() or EVENT_WORDS & {w.lower() for w in re.findall(r"[A-Za-z]+", text)}:
        return False
    end = start + len(text)
    after = doc_text[end : end + 3]
    if POSSESSIVE_END.search(text) or POSSESSIVE_AFTER.search(after) or POSSESSIVE_END.search(after):
        return False  # "a revival of Ian Hay's 1936 comedy": the cue's work is the owner's, the name no work
    words = words_before(doc_text, start, 3, breaks=r"[.!?;:()\n\"\u201c]")  # an opening quote ends the cue
    if words and words[-1] == "the":  # "starred in the Hackers": the article belongs to the title or not
        words = words[:-1]
    return len(words) >= 2 and (words[-2], words[-1]) in WORK_CUES


def generalize_title(
    text: str, doc_text: str = "", start: int = 0, works_in_context: bool = True
) -> List[Generalization]:
    """ "a work" when the name ``text`` (at ``start`` of ``doc_text``) is followed by a release year, or (with
    ``works_in_context``) comes right after a work's cue (module docstring), else nothing."""
    if not followed_by_release(doc_text, start + len(text)) and not (works_in_context and _cued(text, doc_text, start)):
        return []
    if role_and_work(text, doc_text, start) or title_fragment(doc_text, start) or title_part(text, doc_text, start):
        return []  # "voiced Mumble in Happy Feet (2006)": the role is no work; "My [Best Friend's Wedding]" neither
    return levels([noun_phrase("work", doc_text, start)], "works", text)
