"""Titles of works: a name followed by a year in parentheses ("Hackers (1995)", "Cyborg 2 (1993)") is the title of a
work released that year (a film, a series, a play, an album), whatever label the recognizer gave it; it becomes
"a work". Only a single four-digit year right after the name counts ("John Smith (1920-2001)" is a lifespan, not
a release)."""

import re
from typing import List

from .base import Generalization, levels, noun_phrase

_RELEASE = re.compile(r"^\s*\((?:1[89]\d\d|20\d\d)\)")


def generalize_title(text: str, doc_text: str = "", start: int = 0) -> List[Generalization]:
    """ "a work" when the name ``text`` (at ``start`` of ``doc_text``) is followed by a release year, else nothing."""
    if not _RELEASE.match(doc_text[start + len(text) :]):
        return []
    return levels([noun_phrase("work", doc_text, start)], "works", text)
