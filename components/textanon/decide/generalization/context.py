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


#: the character class that ends the stretch of text :func:`words_before` reads (a sentence, a parenthesis, a line)
SENTENCE_BREAK_PATTERN = r"[.!?;:()\n]"


def words_before(doc_text: str, start: int, window: int = WINDOW, breaks: str = SENTENCE_BREAK_PATTERN) -> list:
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


#: a word that starts with a capital letter (a name's word: "Kingsman", "Popper's", "O'Neill")
_CAPITALIZED = re.compile(r"[A-Z][\w'\u2019.-]*$")
#: a release year in parentheses within a title's length after a point: "'s Penguins (2011)"
_YEAR_AHEAD = re.compile(r"[^()\n]{0,60}?\((?:1[89]\d\d|20\d\d)\)")


def inside_longer_name(text: str, doc_text: str, start: int, next_words: bool = True) -> bool:
    """Whether the name ``text`` at ``start`` of ``doc_text`` is only part of a longer name or title, so that no type
    read from it is sure of the whole: "Kingsman: The [Golden Circle]", "Pirates of the Caribbean: On [Stranger
    Tides]", "Underworld: Blood [Wars]", "[Avengers]: Infinity War", "[Mr. Popper]'s Penguins (2011)", "[Los
    Angeles] Times". One rule instead of one pattern per title: the name continues into the capitalized words next
    to it, on the left over at most one capitalized function word ("The", "On": :data:`TITLE_OPENERS`) and a colon,
    on the right over a colon, a number ("[Alien] 3 (1992)") or a work's noun ("the [Madagascar] series": the name
    is a work's, not a country's). A capitalized word that opens its sentence, and a title's own opening article
    ("starred in The [Matrix]"), do not continue the name. A possessive ("[Popper]'s Penguins") and a comma
    ("Girl, [Interrupted]") join two names only when a release year follows (a title): "Smith's Oscar" and "Tom
    Hanks, Meg Ryan" are two names. Without ``next_words`` a capitalized word right next to the name does not
    continue it (a person's given name and surname: "Mickey [Rooney]" is a person too); a colon, a title's function
    word and a title's possessive still do. A false answer only costs a generalization (the name is suppressed)."""
    if not doc_text or not text[:1].isupper():
        return False
    end = start + len(text)
    return _continues_left(doc_text, start, next_words) or _continues_right(doc_text, end, next_words)


def _previous_word(doc_text: str, pos: int):
    """(the word ending right before ``pos`` after spaces, its start, the punctuation between) or None."""
    before = doc_text[max(0, pos - 60) : pos]
    m = re.search(r"(\S+?)([:,]?)([ \t]+)$", before)
    if not m:
        return None
    return m.group(1), pos - len(before) + m.start(1), m.group(2)


#: the characters after which a word opens a sentence, a line or a parenthesis
SENTENCE_BREAKS = ".!?\n(;"


def opens_sentence(doc_text: str, pos: int, breaks: str = SENTENCE_BREAKS) -> bool:
    """Whether the word at ``pos`` is the first of its sentence, line or parenthesis: nothing but quotes and spaces
    between it and one of ``breaks`` (or the text's start)."""
    before = doc_text[max(0, pos - 4) : pos].rstrip(" \t\"'\u201c\u2018")
    return not before or before[-1] in breaks


def _continues_left(doc_text: str, start: int, next_words: bool) -> bool:
    prev = _previous_word(doc_text, start)
    if prev is None:
        return False
    word, at, punct = prev
    if not _CAPITALIZED.match(word) or opens_sentence(doc_text, at):
        return False
    if punct == ",":  # "Girl, [Interrupted] (1999)"; "Tom Hanks, [Meg Ryan]" is a list
        return bool(_YEAR_AHEAD.match(doc_text[start : start + 80]))
    if punct == ":":
        return True  # "Underworld: [Evolution]"
    if word not in TITLE_OPENERS:
        return next_words  # "Blood [Wars]"
    # a capitalized "The"/"On" mid-sentence: a title's first word ("in The [Crown]"), unless a name comes before it
    before = _previous_word(doc_text, at)
    return before is not None and bool(_CAPITALIZED.match(before[0])) and not opens_sentence(doc_text, before[1])


#: a number right after a name, a sequel's or a title's ("[Alien] 3 (1992)", "[Toy Story] 2", "[Rocky] II")
_NUMBER_AFTER = re.compile(r"[ \t]+(?:\d{1,3}|[IVX]{1,4})(?![\w.,%:/-]\S)\b")
#: a work's noun right after a name: the name is a work's ("the [Madagascar] series", "the [Harry Potter] films")
_WORK_NOUN_AFTER = re.compile(
    r"[ \t]+(?:series|franchise|films?|movies?|trilogy|saga|sequels?|prequels?|soundtrack|album|musical|sitcom)\b"
)


def _continues_right(doc_text: str, end: int, next_words: bool) -> bool:
    after = doc_text[end : end + 80]
    if _NUMBER_AFTER.match(after) or _WORK_NOUN_AFTER.match(after):  # "[Alien] 3", "the [Madagascar] series"
        return True
    if re.match(r"['\u2019]s\s+[A-Z]", after):  # "[Mr. Popper]'s Penguins (2011)"
        return bool(_YEAR_AHEAD.match(after))
    if re.match(r":[ \t]+[A-Z]", after):  # "[Avengers]: Infinity War"
        return True
    return next_words and bool(re.match(r"[ \t]+[A-Z]", after)) and not re.match(r"[ \t]+I\b", after)
