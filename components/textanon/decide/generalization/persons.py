"""Persons other than the protected one (who is always suppressed): the role word "another person" ("her father,
Jon Voight" -> "her father, another person"). The role words the text writes around the name stay visible as they
are. A PERSON label is not enough to be sure a span names a person (film titles are often taken for names), so a
mention is generalized only when

* a role word (:data:`PERSON_CUES`: "father", "actor", "director", "married"...) stands among the :data:`WINDOW`
  words before it in its sentence, or the words right before it say the name is a person's ("directed by",
  "opposite", "alongside": :data:`BY_PERSON`, :data:`NEXT_IS_PERSON`); or
* it is written as a personal name (:func:`is_personal_name`): two to five capitalized words (initials, name
  particles such as "de", "van" and surname prefixes "Mc", "O'" allowed) whose first is a given name of the
  ``gender-guesser`` name dictionary (offline, ~45,000 given names of many countries); a given name that is also an
  everyday English word ("Will", "Ben", "Rose") counts only before a surname that is not one ("Ben Affleck", not
  "Will Smith" or "Rose Red"); and the words before it do not say a work follows ("starred in Jane Eyre", "the novel
  Silas Marner": :data:`WORK_BEFORE`), nor is it quoted or followed by a release year ("Kate Leopold (2001)"); or
* it is one word that is such a name's surname elsewhere in the text ("Rooney" after "Mickey Rooney"), in no
  work's context. A lone given name is not enough: titles are named after them ("Leave It to Jane", "Jennifer on
  My Mind", the magazine "Jane").

A possessive mention ("Charlie Chaplin's") becomes "another person's". Otherwise the optimizer suppresses it."""

import re
from functools import lru_cache
from typing import List

from textanon.decide.generalization.base import POSSESSIVE_BEFORE, POSSESSIVE_END, Generalization, levels
from textanon.decide.generalization.context import SENTENCE_BREAKS, opens_sentence
from textanon.decide.generalization.hypernyms import person_noun, plural_bases, wordnet
from textanon.decide.generalization.works import followed_by_release
from textanon.detect.given_names import given_name

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


#: words right before a capitalized name that say it is a work's title, not a person's ("starred in Jane Eyre",
#: "the novel Silas Marner", "a production of Tom Jones")
WORK_BEFORE = set(
    """in of film films movie movies novel novels play plays series sitcom musical musicals opera operas album albums
    song songs show shows drama dramas adaptation production productions version title episode episodes book books
    role roles titled called entitled""".split()
)
#: lower-case words inside a name ("Vincent van Gogh", "Leonardo da Vinci")
PARTICLES = {"de", "da", "di", "del", "della", "der", "den", "van", "von", "du", "le", "la", "bin", "ibn", "al", "dos"}
#: last words that make a capitalized phrase a place's, an institution's or a work's name ("Chelsea Hospital")
NOT_A_SURNAME = set(
    """hospital clinic school college university academy institute opera theatre theater church cathedral chapel
    street road avenue lane park hall house center centre museum gallery library company club award awards prize
    festival studio studios records square bridge station airport hotel court county city town island islands river
    lake mountain mountains valley bay beach family show story series saga chronicles diaries""".split()
)
#: a capitalized name word: "Smith", "Smith-Jones", "O'Brien", "McCoy", "MacDonald", "DiCaprio", "D'Angelo"
_WORD = re.compile(r"^(?:[A-Z][a-z]{0,2}'?(?=[A-Z]))?[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)*$")
_INITIAL = re.compile(r"^[A-Z]\.$")


@lru_cache(maxsize=20000)
def everyday_word(word: str) -> bool:
    """An everyday English word, inflected or not (a WordNet lemma written in lower case: "will", "grace", "rose",
    "falls"), so no evidence of a name; proper names ("Thomas", "David") are capitalized in WordNet."""
    wn = wordnet()
    lower = word.lower()
    forms = {lower} | {base for pos in "nvar" for base in wn._morphy(lower, pos)}
    return any(lemma.name() == form for form in forms for synset in wn.synsets(form) for lemma in synset.lemmas())


def is_personal_name(text: str) -> bool:
    """``text`` is written as a personal name: 2-5 words, each capitalized (or an initial, or a particle), the
    last a capitalized word that names no place, institution or work (:data:`NOT_A_SURNAME`), the first a given
    name of the name dictionary that is not an everyday English word."""
    words = text.replace("\u2019", "'").split()
    if not 2 <= len(words) <= 5 or words[-1].endswith("'s"):
        return False
    if not all(_WORD.match(w) or _INITIAL.match(w) or w in PARTICLES for w in words) or not _WORD.match(words[-1]):
        return False
    if any(POSSESSIVE_END.search(w) for w in words):  # "Vincent Angelina's Ristorante" is a place, not a name
        return False
    if words[-1].lower() in NOT_A_SURNAME:
        return False
    first = words[0]
    if not _WORD.match(first) or "-" in first or not given_name(first):
        return False
    # "Will Smith" may be a sentence, "Rose Red" a title: an everyday given name needs a surname that is no word;
    # a plural noun ends places' names ("Victoria Falls", "Palm Springs") more often than persons'
    return (not everyday_word(first) or not everyday_word(words[-1])) and not _plural_noun(words[-1])


def _plural_noun(word: str) -> bool:
    """An everyday noun in the plural ("Falls", "Springs", "Heights")."""
    return any(everyday_word(base) for base in plural_bases(word))


def _surname_of_a_name(word: str, doc_text: str) -> bool:
    """Whether ``word`` ends a personal name written elsewhere in ``doc_text`` ("Rooney" after "Mickey Rooney")."""
    if not _WORD.match(word) or everyday_word(word):
        return False
    for m in re.finditer(r"(?<!\w)" + re.escape(word) + r"(?!\w)", doc_text):
        # the capitalized words right before it: "In 1950 Mickey Rooney" -> "Mickey Rooney", the shortest name first
        found = re.search(r"(?:[A-Z][\w.'-]*[ \t]+){1,4}$", doc_text[max(0, m.start() - 80) : m.start()])
        before = found.group(0).split() if found else []
        if any(is_personal_name(" ".join(before[i:] + [word])) for i in range(len(before) - 1, -1, -1)):
            return True
    return False


#: a lone capitalized word and "and" / "or" / a comma right before a name: "Celeste and [Jesse Forever]", "for
#: Mango, [Ralph Lauren]" (a preceding capitalized word or a sentence's start makes it no lone word: "Brad Pitt and")
_LONE_BEFORE = re.compile(r"(?:^|(?<=[\s(]))([A-Z][\w'\u2019-]*)(?:,|[ \t]+(?:and|or|&))[ \t]+$")
#: a capitalized word or an initial ending right before a position (then the word after it is no lone word)
_CAPITAL_WORD_BEFORE = re.compile(r"(?:^|\s)[A-Z][\w'\u2019.-]*[ \t]+$")
#: "and" / "or" / a comma and a lone capitalized word right after a name: "[Ralph Lauren] and L'Oréal,"
_LONE_AFTER = re.compile(r"^(?:,|[ \t]+(?:and|or|&))[ \t]+([A-Z][\w'\u2019-]*)(?![ \t]+[A-Z])(?=[\s,.;:)]|$)")


def _beside_a_lone_word(doc_text: str, start: int, end: int) -> bool:
    """Whether the name at ``start``–``end`` is coordinated with a lone capitalized word that is not a given name
    ("Celeste" is; then the pair is read as one title "Celeste and Jesse Forever") — a brand, a title's word, a
    place: the list is not sure to be of persons ("modelled for Mango, Ralph Lauren and L'Oréal"). A lone word
    that opens its sentence is no evidence, nor one that is the surname of a personal name written elsewhere in
    the text ("Hedy Lamarr" ... "supported Lamarr and John Hodiak"). Lists of full names ("Brad Pitt and Angelina
    Jolie") are not concerned."""
    before = doc_text[max(0, start - 40) : start]
    m = _LONE_BEFORE.search(before)
    at = start - len(before) + m.start(1) if m else 0
    opens = m and opens_sentence(doc_text, at, SENTENCE_BREAKS + ":")  # a colon too: "Cast: Mango, Ralph Lauren"
    if m and not opens and not _CAPITAL_WORD_BEFORE.search(doc_text[max(0, at - 40) : at]):
        word = m.group(1)
        joined = " and " in before[m.start(1) :] or " or " in before[m.start(1) :]
        if (joined or not given_name(word)) and not _surname_of_a_name(word, doc_text):
            return True
    m = _LONE_AFTER.match(doc_text[end : end + 40])
    return bool(m) and not given_name(m.group(1)) and not _surname_of_a_name(m.group(1), doc_text)


#: words right before a name that make it a birth or former name of the person the sentence is about
BIRTH_NAME_CUES = {"born", "née", "nee", "formerly"}


def generalize_person(text: str, doc_text: str = "", start: int = 0) -> List[Generalization]:
    """ "another person" when the context says ``text`` (at ``start`` of ``doc_text``) names a person, or it is
    written as a personal name in no work's context (module docstring), else nothing."""
    before = re.split(r"[.!?;:()\n]", doc_text[max(0, start - 60) : start])[-1]
    words = re.findall(r"[A-Za-z-]+", before)[-WINDOW:]
    last = [w.lower() for w in words[-2:]]
    cued = any(w.lower() in PERSON_CUES for w in words)
    cued = cued or (bool(last) and last[-1] in NEXT_IS_PERSON) or (len(last) == 2 and tuple(last) in BY_PERSON)
    written_as = " ".join(text.split())
    name = POSSESSIVE_END.sub("", written_as)
    if bool(last) and last[-1] in WORK_BEFORE and followed_by_release(doc_text, start + len(text)):
        return []  # "as boxer Muhammad Ali in Ali (2001)": a film's title after "in", whatever cue came before
    if last and last[-1] == "from" and " " not in name:
        return []  # "an English actress from Yorkshire": one word after "from" is as often a place as a person
    if last and last[-1] in BIRTH_NAME_CUES:
        return []  # "Julianne Moore (born Julie Anne Smith;": a birth name is the person's own, not another person
    if POSSESSIVE_BEFORE.search(doc_text[max(0, start - 30) : start]):
        return []  # "with Variety's Todd McCarthy": "Variety's another person" reads as no English; suppressed instead
    if not cued and _beside_a_lone_word(doc_text, start, start + len(text)):
        return []  # "Celeste and [Jesse Forever]" (a title's end), "for Mango, [Ralph Lauren] and L'Oréal" (brands)
    if not cued and name:
        quoted = before.rstrip().endswith(('"', "'", "\u201c", "\u2018"))
        # "Kate Leopold (2001)": a name followed by a release year is a film's title, written as a name or not
        work = bool(last) and last[-1] in WORK_BEFORE or followed_by_release(doc_text, start + len(text))
        if " " in name:
            written = is_personal_name(name)
        else:
            written = _surname_of_a_name(name, doc_text)
        cued = not quoted and not work and written
    if not cued or titled(doc_text, start):
        return []
    return levels(["another person's" if name != written_as else "another person"], "persons", text)


#: a capitalized word right before a name, a hyphenated prefix allowed ("then-Governor"), only spaces in between
_CAPITALIZED_BEFORE = re.compile(r"(?<![\w'’.-])(?:[A-Za-z]+-)?([A-Z][a-z]+)[ \t]+$")


def titled(doc_text: str, start: int) -> bool:
    """Whether the name at ``start`` of ``doc_text`` comes right after its title: a capitalized word that WordNet
    knows as a person noun ("played Doctor [Ted Lewis]", "President [Barack Obama]", "then-Governor [Gray Davis]",
    "Director [Steven Spielberg] said"). "another person" there reads as no English ("Doctor another person"); the
    name is suppressed instead ("Doctor ***"). Courtesy titles ("Mr", "Dr") are the recognizer's: inside the name's
    span; a given name is no title ("Mickey", "Dean", "King")."""
    m = _CAPITALIZED_BEFORE.search(doc_text[max(0, start - 40) : start])
    # a given name is the name's own first word ("Mickey Rooney", "Dean Martin": WordNet's "mickey", "dean" are
    # person nouns too), taken in by "another person" (:func:`textanon.decide.units.cover_names`)
    return bool(m) and person_noun(m.group(1)) and not given_name(m.group(1))
