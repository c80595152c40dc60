"""Names in a text written in lower case: chats, posts and messages ("went to the pub with tom hughes and sarah",
"my mum works at morriston hospital"). The generic NER reads capitals: in such a text it finds almost no name, and
the risk scoring then keeps "tom hughes" as two ordinary words.

A text is written in lower case (:func:`written_in_lower_case`) when it uses the pronoun "i" in lower case ("i'm",
"i went"), or when most of its sentences begin with a lower-case letter. In such a text only (a text with capitals
is the NER's), a lower-case word is a name:

* a given name (gender_guesser's dictionary, :func:`textanon.detect.given_names.given_name`) followed by a word that
  is no ordinary English word ("tom hughes", "grace okafor") or one of the ordinary words that are also surnames
  (:func:`textanon.detect.target.is_common_word`: "tom smith"): a PERSON, both words;
* a given name alone that is no ordinary English word ("sarah", "rhiannon"; not "will", "rose" or "tom"): a PERSON;
* the word after a title in lower case ("dr patel", "mrs evans"): a PERSON;
* a word that is no ordinary English word before the name of an institution ("morriston hospital", "oakfield
  academy"): an ORG, both words;
* a word before a street type ("mill lane", "station road"; not a kind of road: "the fast lane", "a hard drive",
  :data:`NOT_STREET_NAMES`): a LOC, both words.

"Ordinary English word" is the caller's test (``ordinary``: the recognizer passes WordNet's lower-case lemmas, as the
generalizer reads them), with spaCy's stop words, the table of verbs and adverbs
(:func:`textanon.detect.word_classes.verb_adverb_words`) and words of fewer than three letters ("im", "ok") left out
of any name. The spans are candidates like the NER's: the risk scoring decides them."""

import re
from typing import Callable, Iterator, List, Tuple

from spacy.lang.en.stop_words import STOP_WORDS

from textanon.detect.given_names import given_name
from textanon.detect.target import is_common_word
from textanon.detect.word_classes import verb_adverb_words
from textanon.labels import LOC, ORG, PERSON

Match = Tuple[int, int, str, str]
#: the pronoun "i" in lower case, contracted or before a word ("i'm", "i went"): a text written in lower case
_LOWER_I = re.compile(r"(?<![\w'’.@/-])i(?:['’](?:m|ve|ll|d)\b|[ \t]+[a-z])")
#: the first letter of a sentence: at the text's start, after a full stop, "!" or "?" and a space, on a new line, or
#: after a field's colon ("Customer: it's ..."); not of a speaker's or a field's label ("Customer:")
_SENTENCE_LETTER = re.compile(r"(?:^|[.!?][\"”’)]*[ \t]+|\n[ \t]*|:[ \t]+)([^\W\d_])(?![\w'’ -]{0,30}:)")
#: the share of sentences beginning in lower case above which a text is written in lower case
LOWER_START_SHARE = 0.75
#: a word of the text, not part of an e-mail address, a handle, a path, a hashtag or a file name (other rules read
#: those)
_WORD = re.compile(r"(?<![\w'’@#./\\-])[a-z][a-z'’-]*[a-z](?![\w@#/\\-]|\.\w)")
_POSSESSIVE = re.compile(r"['’]s$")
#: the names of institutions a person works at, studies at or is treated at
INSTITUTIONS = frozenset(
    "hospital hospice clinic surgery infirmary school academy college university uni nursery prison church mosque "
    "synagogue temple council".split()
)
#: street types after a street's name ("mill lane", "station road")
STREET_TYPES = frozenset("street road lane avenue crescent terrace grove close drive".split())
#: words before a street type that make a kind of road, not a street's name ("the fast lane", "a hard drive")
NOT_STREET_NAMES = frozenset(
    "main side back fast slow wrong long open country dirt toll ring private public busy quiet same other next last "
    "test hard disk flash thumb external usb cd dvd sex blood fund charity road street new old big little short".split()
)
#: titles before a surname written in lower case ("dr patel": the surname is a name, whatever word it is)
LOWER_TITLES = frozenset("dr mr mrs ms miss prof mx".split())
#: the shortest word read as a name
MIN_NAME_CHARS = 3


def written_in_lower_case(text: str) -> bool:
    """Whether ``text`` is written in lower case (module docstring): the lower-case pronoun "i", or at least two
    sentences of which :data:`LOWER_START_SHARE` or more begin with a lower-case letter."""
    if _LOWER_I.search(text):
        return True
    starts = [m.group(1) for m in _SENTENCE_LETTER.finditer(text)]
    return len(starts) >= 2 and sum(c.islower() for c in starts) >= LOWER_START_SHARE * len(starts)


def find_lower_case_names(text: str, ordinary: Callable[[str], bool]) -> Iterator[Match]:
    """``(start, end, label, rule)`` of the names of a text written in lower case (module docstring); nothing for
    any other text. ``ordinary(word)``: whether a lower-case word is an ordinary English word."""
    if not text or not written_in_lower_case(text):
        return
    words: List[Tuple[int, int, str]] = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
    excluded = verb_adverb_words()

    def plain(word: str) -> bool:  # never a name: a stop word, a verb or adverb, a word too short
        return len(word) < MIN_NAME_CHARS or word in STOP_WORDS or word in excluded

    i = 0
    while i < len(words):
        start, end, word = words[i]
        gap = text[end : words[i + 1][0]] if i + 1 < len(words) else None
        nxt = words[i + 1] if gap in (" ", "\t") else None
        surname = _POSSESSIVE.sub("", words[i + 1][2]) if gap is not None else ""
        if word in LOWER_TITLES and gap in (" ", "\t", ". ") and not plain(surname) and "'" not in surname:
            nxt = words[i + 1]  # "dr patel", "mrs evans", "dr mehta's" (the possessive left out)
            yield nxt[0], nxt[0] + len(surname), PERSON, "lower_case_name"
            i += 2
            continue
        if plain(word) or "'" in word or "’" in word:
            i += 1
            continue
        if nxt is not None and nxt[2] in INSTITUTIONS and not ordinary(word) and not is_common_word(word):
            yield start, nxt[1], ORG, "lower_case_institution"
            i += 2
            continue
        if nxt is not None and nxt[2] in STREET_TYPES and word not in NOT_STREET_NAMES:
            yield start, nxt[1], LOC, "lower_case_street"  # "mill lane": the street's name, ordinary word or not
            i += 2
            continue
        if given_name(word):
            if nxt is not None and not plain(nxt[2]) and "'" not in nxt[2] and _surname(nxt[2], ordinary):
                yield start, nxt[1], PERSON, "lower_case_name"
                i += 2
                continue
            if not is_common_word(word) and not ordinary(word):
                yield start, end, PERSON, "lower_case_name"
        i += 1


def _surname(word: str, ordinary: Callable[[str], bool]) -> bool:
    """A lower-case word after a given name that reads as its surname: no ordinary English word, or one of the
    ordinary words that are also surnames ("smith", "brown")."""
    return word not in INSTITUTIONS and (is_common_word(word) or not ordinary(word))
