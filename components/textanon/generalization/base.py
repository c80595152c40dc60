"""What every generalizer returns: a :class:`Generalization` (a less specific, true replacement of a span), and
the wording helpers they share (articles, plurals)."""

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

#: determiners after which a replacement noun phrase is written without its own article ("the theatre")
DETERMINERS = {"the", "a", "an", "his", "her", "their", "its", "our", "my", "your", "this", "that", "these", "those"}


@dataclass(frozen=True)
class Generalization:
    """One candidate replacement of an entity: ``text`` at generalization ``level`` (1 = the least general), made
    by generalizer ``kind`` (dates, numbers, nouns, nationalities, places, organizations, persons); ``members``:
    more specific terms it covers ("the 1990s": "1990" ... "1999"), whose documents the index risk counts as
    documents of the generalization too (:func:`textanon.generalization.risk.index_forbidden`)."""

    text: str
    level: int
    kind: str
    members: Tuple[str, ...] = ()


def levels(
    texts: Sequence[Optional[str]], kind: str, original: str = "", members: Sequence[Sequence[str]] = ()
) -> List[Generalization]:
    """Generalizations numbered 1, 2, ... from ``texts`` (most specific first; ``members[i]``: those of
    ``texts[i]``): empty, repeated and identical to ``original`` (case-insensitive) entries dropped."""
    out: List[Generalization] = []
    seen = {" ".join(original.lower().split())}
    for i, text in enumerate(texts):
        if not text:
            continue
        key = " ".join(text.lower().split())
        if key in seen:
            continue
        seen.add(key)
        covered = tuple(members[i]) if i < len(members) else ()
        out.append(Generalization(" ".join(text.split()), len(out) + 1, kind, covered))
    return out


def article(noun: str) -> str:
    """``noun`` with "a" or "an" ("an actor", "a university": by the first letters, "an hour" not handled)."""
    low = noun.lower()
    vowel = low[:1] in "aeiou" and not low.startswith(("uni", "use", "usu", "eu", "one", "ur"))
    return ("an " if vowel else "a ") + noun


def after_determiner(text: str, start: int) -> bool:
    """Whether the word right before character ``start`` of ``text`` is a determiner ("the", "his", ...)."""
    m = re.search(r"(\w+)\s*$", text[max(0, start - 30) : start])
    return bool(m) and m.group(1).lower() in DETERMINERS


def noun_phrase(noun: str, text: str, start: int, plural: bool = False) -> str:
    """``noun`` as it fits at ``start`` of ``text``: bare after a determiner or in the plural, else with "a"/"an"."""
    if plural:
        from ..gazetteer.wordnet import pluralize

        noun = pluralize(noun) or noun
    return noun if plural or after_determiner(text, start) else article(noun)
