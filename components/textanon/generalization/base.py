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


_ARTICLE_BEFORE = re.compile(r"(?<![\w-])(an?)(\s+)$", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"(?<![\w-])(\w+)(\s+)$")
_OWN_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)


def fit_article(text: str, start: int, replacement: str, floor: int = 0) -> Tuple[int, str]:
    """``(start, replacement)`` of a generalization written at ``start`` of ``text`` with its article fitted to
    the words before it (nothing before ``floor``, the end of the previous replacement, is touched):

    * after "a"/"an", the article is rewritten for the replacement's first word and taken into the replacement,
      whose own article ("a", "an", "the") is dropped: "an American" -> "a North American", "a Golden Globe" ->
      "an award", "a 2009 film" -> "a 2000s film";
    * after another determiner ("the", "her", ...) the replacement's own article is dropped: "her a work" ->
      "her work", "the an award" -> "the award";
    * "another person" takes no article before it ("a another person" -> "another person");
    * at the start of a sentence the replacement starts with a capital letter.
    """
    if not replacement:
        return start, replacement
    before = text[max(floor, start - 12) : start]
    own = _OWN_ARTICLE.match(replacement)
    bare = replacement[own.end() :] if own else replacement
    m = _ARTICLE_BEFORE.search(before)
    if m and bare:
        start -= len(m.group(0))
        if bare.lower().startswith("another "):
            replacement = bare
        else:
            replacement = article(bare)
        if m.group(1)[0].isupper():
            replacement = replacement[0].upper() + replacement[1:]
        return start, replacement
    w = _WORD_BEFORE.search(before)
    if w and w.group(1).lower() in DETERMINERS and own and bare:
        return start, bare
    if sentence_start(text, start, floor):
        replacement = replacement[0].upper() + replacement[1:]
    return start, replacement


def sentence_start(text: str, start: int, floor: int = 0) -> bool:
    """Whether ``start`` of ``text`` begins a sentence (the text's start, or after ". ", "! ", "? ", a line break)."""
    head = text[:start].rstrip(" \t")
    if not head.strip():
        return True
    if head[-1] == "." and re.search(r"(?<![\w.])(?:[A-Za-z]|mr|mrs|ms|dr|st|jr|sr|prof|no|vs)\.$", head, re.I):
        return False  # "Mr. Smith", "J. Smith", "U.S. Army": an abbreviation, not a sentence's end
    return head[-1] in ".!?\n" and start > floor


def fit_articles(text: str, masks, generalized) -> list:
    """``masks`` (sorted, merged ``(start, end, replacement)``) with every replacement in ``generalized`` (the
    generalizations' strings) fitted to its context by :func:`fit_article`; other masks are left as they are."""
    out: list = []
    for start, end, rep in masks:
        if rep is not None and rep in generalized:
            start, rep = fit_article(text, start, rep, out[-1][1] if out else 0)
        out.append((start, end, rep))
    return out


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
