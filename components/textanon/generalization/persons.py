"""Persons other than the protected one (who is always suppressed): the role word "another person" ("her father,
Jon Voight" -> "her father, another person"). The role words the text writes around the name stay visible as they
are. A PERSON label is not enough to be sure a span names a person (film titles are often taken for names), so a
mention is generalized only when a role word (:data:`PERSON_CUES`: "father", "actor", "director", "married"...)
stands among the :data:`WINDOW` words before it in its sentence, or the words right before it say the name is a
person's ("directed by", "opposite", "alongside": :data:`BY_PERSON`, :data:`NEXT_IS_PERSON`): otherwise the
optimizer suppresses it."""

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

#: words right before a name that make it a person's ("opposite Jon Voight", "alongside ...", "starring ...")
NEXT_IS_PERSON = {"opposite", "alongside", "starring", "co-starring", "costarring"}
#: "directed by", "written by" ...: whoever did it is a person (only right before the name)
BY_PERSON = {
    (verb, "by")
    for verb in """directed written co-written produced co-produced created composed choreographed photographed
    played portrayed voiced adopted raised coached discovered""".split()
}


def generalize_person(text: str, doc_text: str = "", start: int = 0) -> List[Generalization]:
    """ "another person" when the context says ``text`` (at ``start`` of ``doc_text``) names a person, else nothing."""
    before = re.split(r"[.!?;:()\n]", doc_text[max(0, start - 60) : start])[-1]
    words = re.findall(r"[A-Za-z-]+", before)[-WINDOW:]
    last = [w.lower() for w in words[-2:]]
    cued = any(w.lower() in PERSON_CUES for w in words)
    cued = cued or (bool(last) and last[-1] in NEXT_IS_PERSON) or (len(last) == 2 and tuple(last) in BY_PERSON)
    if not cued:
        return []
    return levels(["another person"], "persons", text)
