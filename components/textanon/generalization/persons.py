"""Persons other than the protected one (who is always suppressed): the role word "another person" ("her father,
Jon Voight" -> "her father, another person"). The role words the text writes around the name stay visible as they
are. A PERSON label is not enough to be sure a span names a person (film titles are often taken for names), so a
mention is generalized only when a role word (:data:`PERSON_CUES`: "father", "actor", "director", "married"...)
stands among the :data:`WINDOW` words before it in its sentence: otherwise the optimizer suppresses it."""

import re
from typing import List

from .base import Generalization, levels

WINDOW = 3
#: words that say the next name is a person's (roles, relatives, professions, titles, "married")
PERSON_CUES = set(
    """father mother wife husband son daughter brother sister partner boyfriend girlfriend fiance fiancee spouse
    uncle aunt grandfather grandmother cousin niece nephew stepfather stepmother widow widower
    actor actress director producer writer singer musician playwright author composer screenwriter photographer
    manager agent coach teacher politician president dancer comedian co-star costar novelist painter lawyer
    mr mrs ms dr sir lady lord married marry marrying divorced dating""".split()
)


def generalize_person(text: str, doc_text: str = "", start: int = 0) -> List[Generalization]:
    """ "another person" when the context says ``text`` (at ``start`` of ``doc_text``) names a person, else nothing."""
    before = re.split(r"[.!?;:()\n]", doc_text[max(0, start - 60) : start])[-1]
    words = re.findall(r"[A-Za-z-]+", before)[-WINDOW:]
    if not any(w.lower() in PERSON_CUES for w in words):
        return []
    return levels(["another person"], "persons", text)
