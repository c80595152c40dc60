"""What every generalizer returns: a :class:`Generalization` (a less specific, true replacement of a span), and
the wording helpers they share (articles, plurals)."""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import List, Optional, Sequence, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from wordfreq import zipf_frequency

from textanon.decide.generalization.hypernyms import has_sense, wordnet
from textanon.detect.gazetteer.wordnet import pluralize
from textanon.render.masking import OTHER_PERSON, is_other_people

#: determiners after which a replacement noun phrase is written without its own article ("the theatre")
DETERMINERS = {"the", "a", "an", "his", "her", "their", "its", "our", "my", "your", "this", "that", "these", "those"}
DETERMINERS |= {"every", "each", "no", "any", "another", "either", "neither", "which", "what", "whose", "some"}


@dataclass(frozen=True)
class Generalization:
    """One candidate replacement of an entity: ``text`` at generalization ``level`` (1 = the least general), made
    by generalizer ``kind`` (dates, numbers, nouns, nationalities, places, organizations, persons); ``members``:
    more specific terms it covers ("the 1990s": "1990" ... "1999"), whose documents the index risk counts as
    documents of the generalization too (:func:`textanon.decide.generalization.risk.index_forbidden`)."""

    text: str
    level: int
    kind: str
    members: Tuple[str, ...] = ()


@lru_cache(maxsize=1)
def load_frequencies() -> None:
    """Load wordfreq's English table (read on its first look-up, ~0.1 s): the generalizer asks with its first
    document, as the language model and WordNet load with theirs, so that no later document waits for it."""
    zipf_frequency("the", "en")


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
#: a capitalized article right before a replacement: inside a sentence, the replaced name's own
_NAME_ARTICLE_BEFORE = re.compile(r"(?<![\w-])(?:The|An?)[ \t]+$")
#: "a", "an" or "the" right before a replacement or a name (also the role word's: generalization/role.py)
ANY_ARTICLE_BEFORE = re.compile(r"(?<![\w-])(an?|the)(\s+)$", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"(?<![\w-])(\w+)(\s+)$")
#: words whose "'s" is "is", "has" or "us", never a possessive ("it's", "that's", "let's"): "it's Rhiannon" -> "it's the
#: person", not "it's person"
CONTRACTED_S = ("it", "he", "she", "that", "there", "here", "what", "who", "where", "when", "how", "why", "let")
#: a possessive right before a replacement ("Will Gluck's 2014 film" -> "Will Gluck's 2010s film", not "'s the 2010s");
#: a pronoun's contraction is none (:data:`CONTRACTED_S`)
POSSESSIVE_BEFORE = re.compile(
    r"(?<![\w'’])(?!(?:" + "|".join(CONTRACTED_S) + r")['’]s\s)[\w'’-]*?\w(?:['’]s|s['’])\s+$", re.IGNORECASE
)
#: a possessive ending ("Chaplin's", "James'", "Hay’s"): at the end of a mention, or (:data:`POSSESSIVE_AFTER`) right
#: after a name ("a revival of [Ian Hay]'s comedy")
POSSESSIVE_END = re.compile(r"['’]s?$")
POSSESSIVE_AFTER = re.compile(r"^['’]s?\b")
_OWN_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)
_ON_BEFORE = re.compile(r"(?<![\w-])([Oo]n)\s+$")
#: "on the" before a day written as an ordinal ("on the 21st of June 1999": the date's span has no "the"); not before a
#: year that modifies a noun ("on the 2009 tour" stays "on the 2000s tour")
_ON_THE_BEFORE = re.compile(r"(?<![\w-])([Oo]n)\s+the\s+$")
_ORDINAL_DAY = re.compile(r"(?:\d{1,2}(?:st|nd|rd|th)|[A-Za-z]+(?:-[A-Za-z]+)?(?:st|nd|rd|th))\b(?:\s+day)?\s+of\b")
#: a lower-case word of two letters or more right before a replacement (an adjective of its noun phrase, for a period:
#: a capitalized word before a year is a name the year follows, "the Road Traffic Act 1988", "Smith 1991: ...")
_LOWER_WORD_BEFORE = re.compile(r"(?<![\w'’.-])[a-z]{2,}\s+$")
#: a determiner and a number right before a replacement: "the 2019 ", "his 3 "
_DETERMINED_NUMBER_BEFORE = re.compile(
    r"(?<![\w'’-])(?:the|this|that|these|those|his|her|its|their|our|my|your)\s+\d[\d,.]*\s+$", re.IGNORECASE
)
#: a century without its "the" ("21st century"), and a word right after a replacement (the noun it modifies)
_CENTURY = re.compile(r"^\d{1,2}(?:st|nd|rd|th) century$")
_WORD_AFTER = re.compile(r"[ \t]+(\w+)")
#: a date generalized to a month, a year, a decade or a century: "in", never "on", before it
_PERIOD_LEVEL = re.compile(r"^(?:the\s+(?:\d{4}s|\d{1,2}(?:st|nd|rd|th)\s+century)|\d{4}|[A-Z][a-z]+\s+\d{4})(?!\w)")


def fit_article(text: str, start: int, replacement: str, floor: int = 0, end: Optional[int] = None) -> Tuple[int, str]:
    """``(start, replacement)`` of a generalization written at ``start`` of ``text`` with its article fitted to
    the words before it (nothing before ``floor``, the end of the previous replacement, is touched):

    * after "a"/"an", the article is rewritten for the replacement's first word and taken into the replacement,
      whose own article ("a", "an", "the") is dropped: "an American" -> "a North American", "a Golden Globe" ->
      "an award", "a 2009 film" -> "a 2000s film";
    * after another determiner ("the", "her", ...; not "that" before a capitalized name: "announced that Smith was"
      -> "announced that the person was") or a possessive ("Will Gluck's the 2010s film" -> "Will Gluck's
      2010s film"), or after a premodifier (:func:`after_premodifier`) an "a"/"an" of the replacement's own, the
      replacement's own article is dropped: "her a work" -> "her work", "the an award" -> "the award", "the late a
      person" -> "the late person", "a struggling an entertainer" -> "a struggling entertainer";
    * after nouns joined by "and"/"or" to one determiner, the replacement's own "a"/"an" is dropped: "the actress
      and a performer" -> "the actress and performer" (:func:`after_shared_determiner`);
    * after a determiner and a number ("the 2019 Innovation Medal", "his 3 Emmys"), the replacement's own "a"/"an" is
      dropped: "the 2019 medal", never "the 2019 a medal";
    * a century written without its "the" before a word it modifies is hyphenated: "the 2019 Innovation Medal" ->
      "the 21st-century Innovation Medal", never "the 21st century Innovation Medal";
    * a capitalized "The", "A" or "An" right before a capitalized replaced text, inside a sentence, is the name's own
      ("a revival of The Music Man", "moved to The Hague"): the replacement takes it in, with its own article fitted
      to what comes before ("a revival of a work", "moved to a city in the Netherlands", never "of The work");
    * "another person" takes no article before it ("a another person" -> "another person"); after "a", "an" or "the"
      and before the common noun it modifies (``end``, :func:`modifies_noun_after`) the name is the noun's owner and
      takes the article in: "in the Susan Stroman revival" -> "in another person's revival", never "in the another
      person revival"; "in a Pete Smith short" -> "in another person's short";
    * a name used as the modifier of the noun after it (``end``: where the replaced text ends) takes no article of the
      replacement's own when none stands before it: "received Academy Award nominations" -> "received award
      nominations", never "an award nominations" (:func:`modifies_noun_after`);
    * a date generalized to a decade or a century after a lower-case adjective of its noun phrase drops its "the"
      ("the influential 1916 screen version" -> "the influential 1910s screen version"), read in the text even where
      the previous mask covers the adjective ("the *** 1910s screen version"); after a capitalized word the year
      follows a name and keeps it ("the Road Traffic Act 1988" -> "the Road Traffic Act the 1980s");
    * a date generalized to a month, a year, a decade or a century after "on" takes "in" ("on 26 July 1945" ->
      "in the 1940s", "on the 21st of June 1999" -> "in the 1990s"): the "on" (and "the") is taken into the
      replacement;
    * at the start of a sentence the replacement starts with a capital letter.
    """
    if not replacement:
        return start, replacement
    start = name_start(text, start, floor)  # "a revival of The Music Man" -> "a revival of a work"
    before = text[max(floor, start - 12) : start]
    on = _ON_BEFORE.search(before) or (_ORDINAL_DAY.match(text, start) and _ON_THE_BEFORE.search(before))
    if on and _PERIOD_LEVEL.match(replacement):  # "on 26 July 1945" -> "in the 1940s", not "on the 1940s"
        return start - len(on.group(0)), ("In " if on.group(1)[0].isupper() else "in ") + replacement
    own = _OWN_ARTICLE.match(replacement)
    bare = replacement[own.end() :] if own else replacement
    det = ANY_ARTICLE_BEFORE.search(before)
    if det and replacement == OTHER_PERSON[0] and end is not None and modifies_noun_after(text, end):
        owner = OTHER_PERSON[1]  # "the Susan Stroman revival" -> "another person's revival"
        return start - len(det.group(0)), (owner[0].upper() + owner[1:]) if det.group(1)[0].isupper() else owner
    m = _ARTICLE_BEFORE.search(before)
    if m and bare:
        start -= len(m.group(0))
        if is_other_people(bare):  # "a another person", "a two other people": the article goes
            replacement = bare
        else:
            replacement = article(bare)
        if m.group(1)[0].isupper():
            replacement = replacement[0].upper() + replacement[1:]
        return start, replacement
    w = _WORD_BEFORE.search(before)
    indefinite = bool(own) and own.group(0).strip().lower() in ("a", "an")  # a generalizer's, not the role's "the"
    # the text's possessive, even inside the previous mask ("of [Ian Hay's] 1936 comedy" -> "of *** 1930s comedy")
    possessive = bool(POSSESSIVE_BEFORE.search(text[max(0, start - 12) : start])) and not is_other_people(bare)
    if (
        own
        and bare
        and (
            (w and determines(w.group(1), name_follows=text[start : start + 1].isupper()))
            or possessive
            or (indefinite and after_premodifier(text, start, floor))
            # a period after an adjective of the same noun phrase, read in the text even inside the previous mask:
            # "the influential 1916 screen version" -> "the influential 1910s screen version" (or "the *** 1910s")
            or (
                _PERIOD_LEVEL.match(replacement)
                and _LOWER_WORD_BEFORE.search(text[max(0, start - 40) : start])
                and after_premodifier(text, start)
            )
            or (indefinite and after_shared_determiner(text, start, floor))
            or (indefinite and _DETERMINED_NUMBER_BEFORE.search(text[max(floor, start - 30) : start]))
            # a possessive owns the noun after it, not modifies it: "played a person's wife", never "person's wife"
            or (indefinite and end is not None and not POSSESSIVE_END.search(bare) and modifies_noun_after(text, end))
        )
    ):
        after = _WORD_AFTER.match(text, end) if end is not None and _CENTURY.match(bare) else None
        if after and after.group(1).lower() not in STOP_WORDS:  # "the 21st-century Medal", "the 21st century and"
            bare = bare.replace(" century", "-century")
        return start, bare
    if sentence_start(text, start, floor):
        replacement = replacement[0].upper() + replacement[1:]
    return start, replacement


def determines(word: str, name_follows: bool = False) -> bool:
    """Whether ``word``, right before a replacement, is its determiner (:data:`DETERMINERS`), so that the replacement
    takes no article of its own. "that" right before a name (``name_follows``) is a conjunction far more often:
    "announced that Smith was cast" -> "that the person was cast", never "that person"."""
    low = word.lower()
    return low in DETERMINERS and not (name_follows and low == "that")


def name_start(text: str, start: int, floor: int = 0) -> int:
    """Where the name at ``start`` of ``text`` begins with its own article: a capitalized "The", "A" or "An" right
    before a capitalized name inside a sentence ("a revival of The Music Man": at "The"); else ``start``. Nothing
    before ``floor`` is read."""
    own_article = _NAME_ARTICLE_BEFORE.search(text[max(floor, start - 4) : start])
    if own_article and text[start : start + 1].isupper():
        at = start - len(own_article.group(0))
        if not sentence_start(text, at, floor):
            return at
    return start


def sentence_start(text: str, start: int, floor: int = 0) -> bool:
    """Whether ``start`` of ``text`` begins a sentence (the text's start, or after ". ", "! ", "? ", a line break)."""
    end = start  # the text before ``start`` without its trailing spaces and tabs, read back from ``start`` (a copy of
    while end > 0 and text[end - 1] in " \t":  # the text before it would cost a long document's length at every call)
        end -= 1
    blank = end
    while blank > 0 and text[blank - 1].isspace():
        blank -= 1
    if blank == 0:
        return True  # only whitespace before
    last = text[end - 1]
    tail = text[max(0, end - 12) : end]  # the abbreviation and the character before it
    if last == "." and re.search(r"(?<![\w.])(?:[A-Za-z]|mr|mrs|ms|dr|st|jr|sr|prof|no|vs)\.$", tail, re.I):
        return False  # "Mr. Smith", "J. Smith", "U.S. Army": an abbreviation, not a sentence's end
    return last in ".!?\n" and start > floor


def fit_articles(text: str, masks, generalized) -> list:
    """``masks`` (sorted, merged ``(start, end, replacement)``) with every replacement in ``generalized`` (the
    generalizations' strings) fitted to its context by :func:`fit_article`; other masks are left as they are."""
    out: list = []
    for start, end, rep in masks:
        if rep is not None and rep in generalized:
            start, rep = fit_article(text, start, rep, out[-1][1] if out else 0, end)
        out.append((start, end, rep))
    return out


def modifies_noun_after(text: str, end: int) -> bool:
    """Whether the text replaced up to ``end`` modifies the common noun right after it ("Academy Award nominations",
    "Oscar winner"): the next word, after spaces only, is lower case, no stop word, a noun WordNet knows, and no
    "-ing" or "-ed" form of a verb ("won an Academy Award playing a nurse": "playing" is a verb there) nor an irregular
    form of one (WordNet's verb exceptions: "a national of Eritrea born in 1994", where "born" is a noun only as the
    physicist's name, had lost its article: "a national of country born"; "Leeds saw", "Titanic won")."""
    m = re.match(r"[ \t]+([a-z]+)\b(?![-'’])", text[end : end + 40])
    if not m:
        return False
    word = m.group(1)
    if len(word) <= 2 and text[end + m.end() : end + m.end() + 1] == ".":
        return False  # an abbreviation: "UNITED STATES v. Reyes" ("v" is no noun it modifies)
    if word in STOP_WORDS or word in DETERMINERS:
        return False
    wn = wordnet()
    if word.endswith(("ing", "ed")) and has_sense(word, wn.VERB):
        return False
    if word in wn._exception_map[wn.VERB]:
        return False
    return has_sense(word, wn.NOUN)


def after_determiner(text: str, start: int) -> bool:
    """Whether the word right before character ``start`` of ``text`` is a determiner ("the", "his", ...) or a
    possessive ("Smith's wife" -> "Smith's spouse", not "Smith's a spouse")."""
    if POSSESSIVE_BEFORE.search(text[max(0, start - 30) : start]):
        return True
    m = re.search(r"(\w+)\s*$", text[max(0, start - 30) : start])
    return bool(m) and m.group(1).lower() in DETERMINERS


_JOINED = re.compile(r"(?<![\w'’-])(?:and|or|&)\s+$", re.I)


def after_shared_determiner(text: str, start: int, floor: int = 0) -> bool:
    """Whether the noun at ``start`` is the last of nouns joined by "and"/"or" after one determiner, which it shares
    ("the actress and singer", "an actor, writer and director"): no article of its own may come in ("the actress and
    performer", never "the actress and a performer"). Between the determiner and the "and", one to four words, no stop
    word (spaCy's): "the film was released and director Ann" is two clauses. Nothing before ``floor`` is read."""
    before = text[max(floor, start - 60) : start]
    joined = _JOINED.search(before)
    if not joined:
        return False
    words = 0
    for word in reversed(re.findall(r"[\w'’-]+", before[: joined.start()])):
        low = word.lower()
        if low in DETERMINERS:
            return words >= 1
        if low in STOP_WORDS or words == 4:
            return False
        words += 1
    return False


#: prepositions after which a past participle can only modify the noun after it (:func:`after_premodifier`)
PREPOSITIONS = frozenset(
    "about above after against along alongside among at before behind below beside between beyond by despite during "
    "for from in including inside into like near of off on onto over through to toward towards under unlike upon "
    "with within without".split()
)


#: a hyphenated premodifier ("58-year-old") or an age ("75 y/o", "75yo", "75 yrs old", "75 years old") right before a
#: participle: the participle then modifies the noun after it too (:func:`after_premodifier`)
_PREMODIFIER_BEFORE_PARTICIPLE = re.compile(
    r"(?:(?<![\w'’.-])[\w'’]+-[A-Za-z][\w'’-]*|\d[ \t]*(?:y/?o|y\.o\.|yrs?\.?[ \t]*old|years?[ \t]+old))\s+$",
    re.IGNORECASE,
)
#: the first word of a hyphenated number ("twenty-five"): a quantifier, no premodifier
_TENS = frozenset("twenty thirty forty fifty sixty seventy eighty ninety".split())


#: spaCy stop words that, right before a noun, are adjectives modifying it ("a former postman", "the first actress",
#: "her own company"): no article may come between them and the noun
PREMODIFYING_STOP_WORDS = frozenset("former latter first last next same other own whole several various".split())


def after_premodifier(text: str, start: int, floor: int = 0) -> bool:
    """Whether the word right before ``start`` modifies the noun there, so that no article may come between them
    ("the late father", "executive producer", "American actress", "co-star", "type 2 diabetes", "Nigerian-born
    engineer"): a hyphen or a hyphenated compound, a word
    that is no stop word and its number, or a word that is no stop
    word (spaCy's) and that WordNet knows as an adjective or a noun, capitalized ("American", "Oscar") or not; a
    participle WordNet knows as a verb ("named director", "starring actor") is none; nor is anything before a
    capitalized mention (a name in apposition: "the film Hackers"). Nothing before ``floor`` (the end of a previous
    replacement) is read."""

    if text[start : start + 1].isupper():
        return False  # a name after a noun is its apposition ("the film Hackers"), not a modified noun
    before = text[max(floor, start - 40) : start]
    if "\n" in before[len(before.rstrip()) :]:
        return False  # a line's first word: the last word of the line before modifies nothing here ("NEW YORK\nSTATES")
    if re.search(r"\w-$", before):
        return True
    compound = re.search(r"([^\W\d_]+)-[^\W\d_]+\s+$", before)
    if compound and compound.group(1).lower() not in _TENS:
        return True  # a hyphenated compound modifies the noun ("Nigerian-born engineer"); a number ("Twenty-five") no
    numbered = re.search(r"(?<![\w'’.-])([A-Za-z]+)\s+\d[\w.]*\s+$", before)
    if numbered and numbered.group(1).lower() not in STOP_WORDS:
        return True  # a word and its number modify the noun: "type 2 diabetes", "stage 4 cancer"
    m = re.search(r"(?<![\w'’.-])([A-Za-z]+)\s+$", before)
    if not m:
        return False
    low = m.group(1).lower()
    if low in PREMODIFYING_STOP_WORDS:
        return True  # "a former postman", "her own car": spaCy's stop words, but adjectives before the noun
    if low in STOP_WORDS or low in DETERMINERS:
        return False
    if m.group(1)[0].isupper():
        return True
    wn = wordnet()
    if low.endswith(("ed", "ing")) and has_sense(low, wn.VERB):
        # a participle right after a determiner modifies the noun ("a struggling dancer", "her celebrated role"), and
        # so does a past participle right after a preposition ("by acclaimed director": no verb form follows "by");
        # after anything else it may be a verb ("He was named director", "known for playing detective roles")
        previous = re.search(r"(?<![\w'’.-])([A-Za-z]+)\s+$", before[: m.start(1)])
        word = previous.group(1).lower() if previous else ""
        if word in DETERMINERS or (low.endswith("ed") and word in PREPOSITIONS):
            return True
        # after a hyphenated premodifier or an age, read in the text even inside the previous mask: "this 58-year-old
        # retired miner" -> "this *** retired laborer", never "retired a laborer"; a clinical note's "75 y/o retired
        # coal miner", "75 years old retired"
        at = start - len(before) + m.start(1)
        return bool(_PREMODIFIER_BEFORE_PARTICIPLE.search(text[max(0, at - 40) : at]))
    if low.endswith("s") and not low.endswith(("ss", "us", "is")) and low not in wn._lemma_pos_offset_map:
        if has_sense(low, wn.VERB):
            return False  # a verb's third person, no plural noun before its own: "the log says 1999-02-03" had read
            # "the log says 20th century" ("says" is also the plural of the noun "say")
    return has_sense(low, wn.ADJ) or has_sense(low, wn.NOUN)


#: words before a noun that make it plural: cardinal numbers from two and quantifiers. A singular noun right after one
#: modifies a plural noun after it ("two veteran CIA officers", "many Los Angeles charities"): a replacement with a
#: determiner of its own reads as no English there ("two a person", "many a city in North America")
PLURAL_QUANTIFIERS = frozenset(
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
    "nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion dozen several "
    "many few numerous multiple various countless".split()
)
_QUANTIFIER_BEFORE = re.compile(r"(?<![\w'’.,:/-])(?:[A-Za-z]+-)?([A-Za-z]+|\d{1,3})[ \t]+$")


def after_plural_quantifier(text: str, start: int) -> bool:
    """Whether the word right before ``start`` of ``text`` is a cardinal number from two (a word, "twenty-five", or
    2 to 999 in digits: a year, "In 1989 Wright", is none) or a plural quantifier ("several", "many"):
    :data:`PLURAL_QUANTIFIERS`."""
    m = _QUANTIFIER_BEFORE.search(text[max(0, start - 30) : start])
    if not m:
        return False
    word = m.group(1)
    return int(word) >= 2 if word.isdigit() else word.lower() in PLURAL_QUANTIFIERS


def reads_after_quantifier(replacement: str, text: str, end: int) -> bool:
    """Whether ``replacement``, written after a plural quantifier (:func:`after_plural_quantifier`) in place of a
    mention that ends at ``end``, reads as English there: it takes no determiner of its own ("two awards"), or its
    "a"/"an" is dropped because it modifies the noun after it ("two Oscar nominations" -> "two award nominations":
    :func:`fit_article`). "two the 2000s films", "two a person CIA officers" do not."""
    own = re.match(r"(an?|the|another)\s", replacement, re.IGNORECASE)
    return own is None or (own.group(1).lower() in ("a", "an") and modifies_noun_after(text, end))


#: hyphens that join a word to the next or the previous one into a compound ("Zemeckis-directed", "mid-1994")
_HYPHENS = "-\u2010\u2011"


def in_hyphen_compound(text: str, start: int, end: int) -> bool:
    """Whether the mention at ``start``..``end`` of ``text`` is joined by a hyphen to a word right after it ("the
    Robert Zemeckis-directed film", "a Los Angeles-based charity") or right before it ("mid-1994")."""
    after = end + 1 < len(text) and text[end] in _HYPHENS and text[end + 1].isalpha()
    before = start >= 2 and text[start - 1] in _HYPHENS and text[start - 2].isalpha()
    return after or before


def reads_in_compound(replacement: str) -> bool:
    """Whether ``replacement`` can take a mention's place inside a hyphenated compound (:func:`in_hyphen_compound`):
    one word, as the compound's part was ("Oscar-winning" -> "award-winning"); a phrase, with or without its own
    determiner, reads as no English there ("the another person-directed film", "a a city in North America-based
    charity", "mid-the 1990s")."""
    return len(replacement.split()) == 1


def noun_phrase(noun: str, text: str, start: int, plural: bool = False) -> str:
    """``noun`` as it fits at ``start`` of ``text`` (in place of a name's own capitalized article too: "a production
    of The Goose Girl" -> "a production of a work", never "of work": :func:`name_start`): bare after a determiner or
    a premodifier (:func:`after_premodifier`) or in the plural, else with "a"/"an"."""
    if plural:
        noun = plural_of(noun)
    start = name_start(text, start)
    return noun if plural or after_determiner(text, start) or after_premodifier(text, start) else article(noun)


def plural_of(noun: str) -> str:
    """The plural of ``noun`` (its last word): the regular one, or an irregular one WordNet lists (its noun
    exceptions: "child" -> "children", "brother" -> "brethren"), whichever English uses more (``wordfreq``):
    "children", not "childs"; "brothers", not "brethren"."""

    regular = pluralize(noun) or noun
    head, _, rest = noun.rpartition(" ")
    exceptions = [p for p, bases in wordnet()._exception_map["n"].items() if rest in bases and p != rest]
    found = max([regular.rpartition(" ")[2]] + exceptions, key=lambda w: zipf_frequency(w, "en"))
    return f"{head} {found}" if head else found
