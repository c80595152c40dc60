"""Cues in the words before a name that say it is the title of a work or a person's name, not an organization or a
place: "she starred in Suicide Squad", "a role in House of Wax", "she played in The Crown", "her next project, Suicide
Squad", "she starred alongside Will Smith in Suicide Squad". A name in such a context gets no organization type and
no place (:mod:`.organizations`, :mod:`.places`): the optimizer suppresses it. A false cue only costs a
generalization (the name is suppressed instead), never truth."""

import re

#: how many words before a name are read for a cue (within its sentence)
WINDOW = 3
#: words that say the next name is a work's title (performing in it, making it, a kind of work)
TITLE_CUES = set(
    """starred star stars starring appeared appear appears appearing role roles cast played plays playing
    film films movie movies series sitcom show shows episode episodes album albums song songs single novel novels
    book books play musical opera sequel remake documentary miniseries soap drama comedy thriller feature
    voiced narrated directed wrote co-wrote produced released filmed adaptation version premiere
    project projects production productions picture pictures blockbuster blockbusters franchise installment
    instalment title titles hit hits debut cameo prequel spin-off reboot pilot season seasons credits""".split()
)
#: words that, anywhere earlier in the sentence (up to :data:`SENTENCE_WINDOW` words), make a name right after "in"
#: or "on" a work's title: "she starred alongside Will Smith in Suicide Squad"
PERFORMING = set(
    """starred star stars starring co-starred costarred appeared appears appearing played plays playing cast role
    roles voiced guest-starred""".split()
)
SENTENCE_WINDOW = 12


#: characters that end the stretch of text :func:`words_before` reads (a sentence, a parenthesis, a line)
SENTENCE_BREAKS = r"[.!?;:()\n]"


def words_before(doc_text: str, start: int, window: int = WINDOW, breaks: str = SENTENCE_BREAKS) -> list:
    """The last ``window`` words (lower case) before ``start`` in ``doc_text``, within the sentence (the text after
    the last match of the character class ``breaks``). A possessive "'s" is no word: "the series Dirk Gently's
    Holistic Detective Agency" reads "series", "dirk", "gently" before "Holistic"."""
    before = re.split(breaks, doc_text[max(0, start - max(80, 12 * window)) : start])[-1]
    before = re.sub(r"['\u2019]s\b", "", before)
    return [w.lower() for w in re.findall(r"[A-Za-z-]+", before)][-window:]


def title_context(doc_text: str, start: int) -> bool:
    """Whether a cue word (:data:`TITLE_CUES`) stands among the :data:`WINDOW` words before ``start``, or the name
    follows "in"/"on" in a sentence about performing (:data:`PERFORMING`): the name there may be a work's title
    whatever its head noun or its place name says."""
    if any(w in TITLE_CUES for w in words_before(doc_text, start)):
        return True
    earlier = words_before(doc_text, start, SENTENCE_WINDOW)
    return bool(earlier) and earlier[-1] in ("in", "on") and any(w in PERFORMING for w in earlier)


#: capitalised function words that open a title in mid-sentence ("in The Crown", "a revival of In Celebration")
TITLE_OPENERS = ("The", "A", "An", "In", "On", "Of", "At", "To", "For", "And", "With", "From", "By")
_OPENER_BEFORE = re.compile(r"(\S*)\s+(?:" + "|".join(TITLE_OPENERS) + r")\s+$")


def capital_the_before(doc_text: str, start: int) -> bool:
    """Whether the name at ``start`` is preceded by a capitalised "The" (or another function word: "In", "A"...,
    :data:`TITLE_OPENERS`) in mid-sentence ("in The Crown", "in In Celebration"): a title's first word, not an
    organization's article ("at the Juilliard School")."""
    before = doc_text[max(0, start - 40) : start]
    m = _OPENER_BEFORE.search(before)
    return bool(m) and not re.search(r"[.!?:]$", m.group(1) or ".")


def continues_a_name(doc_text: str, start: int) -> bool:
    """Whether the name at ``start`` follows a capitalised word and a lower-case preposition or article ("No Country
    for Old Men", "Lord of the Rings"): the end of a longer title or name, whose last words say nothing of it."""
    before = doc_text[max(0, start - 40) : start]
    return bool(_CONTINUED.search(before))


#: a capitalised word, then a lower-case preposition (and an article), right before a name
_CONTINUED = re.compile(r"(?<![.!?:]\s)\b[A-Z][\w'-]*\s+(?:for|of|in|on|and|to|with|from)(?:\s+(?:the|a|an))?\s+$")
