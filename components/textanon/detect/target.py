"""The protected person's name: its variants, and every place they occur in a text.

The recognizer may miss the protected person, cut the name, or give it another label (ORG, LOC, a
gazetteer term). The target's name is a direct identifier, so it is found here from the string the
user gave, whatever the recognizer said, and masked by the optimizer, floored under the LLM
anonymizer, and given to every system of a benchmark alike.

Variants of "Mr Igor V. Munteanu Jr.": the full name, first + surname ("Igor Munteanu"), the surname
alone ("Munteanu"), the first name alone ("Igor"), initials + surname ("I. Munteanu", "I.V. Munteanu",
"I Munteanu"), surname + initials ("Munteanu I."). Matching is on whole words, folds diacritics
("Muntéanu" = "Munteanu"), tolerates any run of whitespace (line breaks) between words, and covers
possessives ("Munteanu's"). Multi-word variants match in any letter case. A single-word variant
matches capitalized or upper case ("Munteanu", "MUNTEANU"), and in lower case too unless the word is
an ordinary lower-case English word ("will", "hope", "power"), so that "Mr Will Power" is masked
without masking every "will" of the text; a lower-case "will power" is still caught as a full name.

A biography often spells out how the name is said right after it: "Lena Headey ( LEE-nə HEE-dee; born ...)",
"Arnold Schwarzenegger (; German: [ˈaɐ̯nɔlt ...]; born ...)". Such a respelling or IPA transcription is the name
again, so :func:`name_occurrences` also returns it (:func:`pronunciations`).
"""

import bisect
import re
import unicodedata
from array import array
from functools import lru_cache
from typing import Collection, Dict, List, Optional, Sequence, Tuple

from anyascii import anyascii
from nicknames import NickNamer
from spacy.lang.en.stop_words import STOP_WORDS
from wordfreq import zipf_frequency

from textanon.detect.normalize import NormalizedView, normalized
from textanon.regions import merge

#: Courtesy and professional titles before a person's name, lower case without the full stop: the recognizer
#: extends a PERSON span over them, the linker leaves them out when it compares names (:func:`name_parts`).
COURTESY_TITLES = frozenset(
    {"mr", "mrs", "ms", "miss", "dr", "prof", "professor", "judge", "sir", "dame", "lord", "lady", "mme", "m"}
)
#: Every title dropped from the front of the protected person's name (:func:`name_words`): the courtesy titles and
#: foreign or religious ones that elsewhere may be a given name or begin the name of a place ("Don", "St", "Fr").
TITLES = COURTESY_TITLES | frozenset(
    {"mx", "mlle", "herr", "frau", "sr", "sra", "srta", "don", "doña", "dona", "rev", "fr", "st"}
)
#: Titles after which the rules take the next words for a person's name (:data:`textanon.detect.rules.NAME_TITLES`):
#: not "M" (an initial), nor titles that also begin names of places and works ("St Louis", "Don Jon").
RULE_TITLES = (COURTESY_TITLES - {"m"}) | frozenset(
    # and titles of a profession before a name ("Nurse Agnes Obi" was read as an ORG; police ranks: ranked_name)
    {"mx", "mlle", "madam", "madame", "rev", "nurse", "pastor", "rabbi"}
)
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "v", "phd", "md", "esq", "qc", "kc", "obe", "mbe", "cbe"})
PARTICLES = frozenset(
    {
        "van",
        "von",
        "der",
        "den",
        "de",
        "del",
        "della",
        "di",
        "da",
        "du",
        "des",
        "la",
        "le",
        "bin",
        "ibn",
        "al",
        "el",
        "ter",
        "ten",
        "dos",
        "das",
        "y",
        "af",
        "zu",
        # Irish and Scottish Gaelic, folded ("Seán Ó Briain", "Máire Ní Bhriain", "Eoin Mac Giolla"): the surname
        # begins at them, so "Ó BRIAIN:" is the name, never "Ó the person:"
        "o",
        "ni",
        "nic",
        "ui",
        "ua",
        "mac",
    }
)
# Ordinary lower-case English words that are also first names or surnames. A single-word name variant
# equal to one of these is matched only when capitalized or in upper case.
_COMMON_WORDS = frozenset(
    """
a all an and are as at be bell bill bird black blue born brown bush by can carpenter case chance church
clay cook cross day dean do down duke early faith fair field fisher fletcher ford fox frank free friend
gay gold good grace green grey hall hand happy hart hay heart hill holly hope house hunt hunter is it
joy judge just king knight lamb lane law lee long love low major mark marsh mason may miles mill miller
moon moore more new north page park parker partridge penny person pierce pope porter pound power price
prince read reed rich ring rose rule rush salt sharp shepherd short smith snow spring star stone story
strong summer summers sunday swift tanner taylor the thatcher turner victor wall walker ward warren
waters way webb well west white wolf wood woods young will wills winter wise worth
""".split()
)

#: the ordinary words above that are also names (public: a lower-case one after a title may be a name)
NAME_LIKE_WORDS = _COMMON_WORDS
Span = Tuple[int, int]


def fold(text: str) -> str:
    """Lower-case, diacritics removed, one character per character (offsets are preserved).

    Linear in the text with a per-character cache; the last few texts of :data:`_REMEMBERED_FOLD` characters or more
    are remembered, since the name search folds the same document once per name (a court case with a hundred full
    names, a 1,000,000-character document with a thousand)."""
    if len(text) < _REMEMBERED_FOLD:
        return "".join(map(_fold_char, text))
    folded = _FOLDED_TEXTS.get(text)
    if folded is None:
        folded = "".join(map(_fold_char, text))
        _FOLDED_TEXTS[text] = folded
        while len(_FOLDED_TEXTS) > 4:
            _FOLDED_TEXTS.pop(next(iter(_FOLDED_TEXTS)))
    return folded


#: texts at least this long are searched by regions (:func:`_regions`) and their name occurrences remembered
_LONG_TEXT = 10_000
#: texts at least this long are remembered by :func:`fold` (a court case is folded once per full name in it)
_REMEMBERED_FOLD = 1_000
_FOLDED_TEXTS: Dict[str, str] = {}


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return base.lower() if len(base) == 1 else ch.lower() if len(ch.lower()) == 1 else ch


def name_words(name: str) -> List[str]:
    """The name's words in order, without titles, suffixes or punctuation: "Mr Igor V. Munteanu Jr." ->
    ["Igor", "V", "Munteanu"]."""
    words = re.findall(r"[^\W\d_](?:[\w'’-]*[^\W_])?", unicodedata.normalize("NFC", normalized(name or "").text))
    while len(words) > 1 and fold(words[0]) in TITLES:
        words = words[1:]
    while len(words) > 1 and fold(words[-1]) in SUFFIXES:
        words = words[:-1]
    return words


def name_parts(text: str) -> List[str]:
    """Name words, lower case, without courtesy titles or trailing suffixes, for comparing mentions: "Mr G. Yalman"
    -> ["g", "yalman"], "Martin Luther King Jr." -> ["martin", "luther", "king"]."""
    words = re.findall(r"\w+", normalized(text).text.lower())
    words = [w for w in words if w not in COURTESY_TITLES] or words
    while len(words) > 1 and words[-1] in SUFFIXES:
        words = words[:-1]
    return words


def given_name_fits(parts: List[str], full: List[str], dotted: bool) -> bool:
    """A short form of the full name ``full`` that is not its surname: its first name alone ("Julia" of "Julia
    Novak") or, written with periods (``dotted``: not a designated letter "K"), its initials ("J.", "J.N.")."""
    if len(parts) == 1 and len(parts[0]) > 1:
        return parts[0] == full[0]
    if not dotted or not all(len(p) == 1 for p in parts):
        return False
    if len(parts) == 1:
        return full[0].startswith(parts[0])
    return parts == [w[0] for w in full]


def initials_fit(initials: List[str], given_names: List[str]) -> bool:
    """ "G." fits "Galip"; no initials fit any given names."""
    if len(initials) > len(given_names):
        return False
    return all(g.startswith(i) for i, g in zip(initials, given_names))


def short_form_fits(parts: List[str], full: List[str], dotted: bool) -> bool:
    """Whether the name words ``parts`` (:func:`name_parts`) of a short mention may stand for the full name ``full``:
    its surname with initials that fit ("Yalman", "G. Yalman" of "Galip Yalman"), or :func:`given_name_fits`."""
    return bool(parts) and (
        (parts[-1] == full[-1] and initials_fit([w[0] for w in parts[:-1]], full[:-1]))
        or given_name_fits(parts, full, dotted)
    )


def target_variants(name: str) -> List[str]:
    """Surface variants of the protected person's name, longest first (see the module docstring)."""
    words = name_words(name)
    if not words:
        return []
    if len(words) == 1:
        return [words[0]]
    surname_start = len(words) - 1
    while surname_start > 1 and fold(words[surname_start - 1]) in PARTICLES:
        surname_start -= 1
    given, surname = words[:surname_start], words[surname_start:]
    surname_str = " ".join(surname)
    variants = {" ".join(words), f"{given[0]} {surname_str}", surname_str, surname[-1]}
    initials = [g[0] for g in given if g[0].isalpha()]
    if initials:
        variants |= {
            ". ".join(initials) + ". " + surname_str,
            ".".join(initials) + ". " + surname_str,
            " ".join(initials) + " " + surname_str,
            "".join(initials) + " " + surname_str,
            f"{initials[0]}. {surname_str}",
            f"{initials[0]} {surname_str}",
            f"{surname_str} {initials[0]}.",
            f"{surname_str}, {given[0]}",
        }
    for g in given:
        if len(g) >= 2:
            variants.add(g)
    if len(surname) > 1:  # "De Niro" -> also "Niro"
        variants.add(surname[-1])
    return sorted((v for v in variants if len(v.replace(".", "").strip()) >= 2), key=lambda v: (-len(v), v))


def _variant_pieces(variant: str) -> List[str]:
    """The literal pieces of :func:`_variant_pattern` (folded words, split at full stops): each is in every match."""
    return [p for part in re.split(r"\s+", fold(variant).strip()) for p in part.split(".") if p]


@lru_cache(maxsize=4096)
def _variant_regex(variant: str) -> "re.Pattern[str]":
    """:func:`_variant_pattern` between word boundaries, compiled once per variant."""
    return re.compile(r"(?<!\w)" + _variant_pattern(variant) + r"(?!\w)")


def _variant_pattern(variant: str) -> str:
    """Regex over folded text: words separated by any whitespace (or a comma), an initial with or
    without its full stop."""

    def word(piece: str) -> str:
        return re.escape(piece) + (r"\.?" if len(piece) == 1 else "")

    parts = [[p for p in part.split(".") if p] for part in re.split(r"\s+", fold(variant).strip())]
    return r"[\s,]*".join(r"\s*".join(word(p) for p in pieces) for pieces in parts if pieces)


def find_target_mentions(text: str, name: str, view: Optional[NormalizedView] = None) -> List[Span]:
    """Character spans of every occurrence of a variant of ``name`` in ``text`` (sorted, non-overlapping).

    A possessive "'s" stays outside the span; a span never starts or ends inside a word. The search reads the
    normalized view of the text (:func:`textanon.detect.normalize.normalized`: a soft hyphen or zero-width character
    inside
    the name, end-of-line hyphenation, look-alike Cyrillic letters); a span covers every original character of the
    occurrence, invisible ones included. The name's words also match written apart, letter-spaced or inflected
    (:func:`_text_forms`). ``view``: the text's normalized view, when the caller has it already.
    """
    variants = target_variants(name)
    if not variants or not text:
        return []
    view = view if view is not None else normalized(text)
    text = view.text
    folded = fold(text)
    regions = _regions(folded, variants) if len(text) >= _LONG_TEXT else None
    spans: List[Span] = []
    for variant in variants:
        if not all(piece in folded for piece in _variant_pieces(variant)):
            continue  # a piece of the variant is nowhere in the text: no match (nothing compiled, nothing searched)
        single = len(re.findall(r"\w+", variant)) == 1
        for m in _search(_variant_regex(variant), folded, regions):
            if single and not _single_word_case_ok(text[m.start() : m.end()], variant):
                continue
            if not single and not _initials_ok(text, m.start(), m.end()):
                continue
            spans.append((m.start(), m.end()))
    words = name_words(name)
    spans += _text_forms(text, folded, words, regions is not None)
    spans += _other_script_forms(text, words)
    return [(s, e) for s, e, _ in merge(view.spans_to_original(spans), adjacent=True)]


#: the shortest name word matched written apart, letter-spaced or inflected (:func:`_text_forms`)
FORM_MIN_CHARS = 4
#: the longest ending after a name word read as an inflection ("Petrescului": "Petrescu" + "lui")
INFLECTION_MAX_CHARS = 3
#: endings that make another name of a name, not an inflection of it ("Peterson", "Jansen", "Petrovski")
NAME_FORMING_ENDINGS = frozenset({"son", "sen", "kin", "ski", "sky"})
_LETTER = r"[^\W\d_]"
#: a run of four or more single letters, each apart from the next by a space, a full stop, a hyphen or a middle dot
#: ("P E T R E S C U", "P.E.T.R.E.S.C.U", "P-E-T-R")
_SPACED_RUN = re.compile(
    rf"(?<!{_LETTER}){_LETTER}(?!{_LETTER})(?:(?:[ \t]|[.\-\u00b7\u2010][ \t]?){_LETTER}(?!{_LETTER})){{3,}}"
)


def _other_script_forms(text: str, words: Sequence[str]) -> List[Span]:
    """A name word written in another script: a word whose transliteration (``anyascii``, folded; Greek "ου" read
    "ou" as well as anyascii's "oy") is one of the name's words of three letters or more, capitalized where the script
    has capitals: "Иван Петров" for Ivan Petrov, "Παπαδόπουλος" for Papadopoulos. A run of Chinese characters
    (:data:`HAN_MIN_CHARS` or more; written without spaces) whose pinyin is the name's words run together, surname
    first or last, or one of its words of two syllables or more: "陈伟玲" or "伟玲" for Chen Wei-Ling. Romanizations
    that differ from anyascii's ("Γιώργος" is Giorgos, not Georgios; Korean "김" is "Gim", not "Kim") are not found.
    Offsets of ``text``."""
    if text.isascii():
        return []
    forms = {fold(w) for w in words if len(w) >= 3 and w.isalpha()}
    found = [span for span, latin in _other_script_words(text) if latin in forms or latin.replace("oy", "ou") in forms]
    han = _han_runs(text) if words else ()
    if han:
        joined = [re.sub(r"[^a-z]", "", fold(w)) for w in words]
        runs = {"".join(joined), "".join(joined[-1:] + joined[:-1])} | {w for w in joined if len(w) >= 4}
        found += [span for span, latin in han if latin in runs]
    return sorted(found)


#: a letter of another script than Latin (from U+0370: Greek, Cyrillic, Armenian, Hebrew, Arabic...), Latin Extended
#: Additional (U+1E00-U+1EFF: Vietnamese) aside
_OTHER_SCRIPT_LETTER = re.compile(r"[^\W\d_\u0000-\u036f\u1e00-\u1eff]")
_OTHER_SCRIPT_ONLY = re.compile(r"(?=.*[^\W\d_\u0000-\u036f\u1e00-\u1eff])[^a-zA-Z\u00c0-\u036f\u1e00-\u1eff]+", re.S)


def in_other_script(text: str) -> bool:
    """Letters of another script than Latin (:data:`_OTHER_SCRIPT_LETTER`) and no Latin letter: a name written in its
    own script ("陈伟玲", "Иван Петров")."""
    return _OTHER_SCRIPT_ONLY.fullmatch(text) is not None


#: the fewest Chinese characters read as a name (:func:`_other_script_forms`): one character is one syllable, too
#: short to tell a name
HAN_MIN_CHARS = 2
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{%d,}" % HAN_MIN_CHARS)


@lru_cache(maxsize=64)
def _han_runs(text: str) -> Tuple[Tuple[Span, str], ...]:
    """``(span, pinyin folded, letters only)`` of every run of Chinese characters in ``text``."""
    return tuple((m.span(), re.sub(r"[^a-z]", "", fold(anyascii(m.group())))) for m in _HAN_RUN.finditer(text))


@lru_cache(maxsize=64)
def _other_script_words(text: str) -> Tuple[Tuple[Span, str], ...]:
    """``(span, folded transliteration)`` of every capitalized word of ``text`` with a letter of another script, read
    once per text (one scan when it has none, as most texts)."""
    if _OTHER_SCRIPT_LETTER.search(text) is None:
        return ()
    return tuple(
        (m.span(), fold(anyascii(m.group())))
        for m in re.finditer(r"[^\W\d_]+", text)
        if m.group()[0].isupper() and _OTHER_SCRIPT_LETTER.search(m.group())
    )


def _text_forms(text: str, folded: str, words: Sequence[str], long_text: bool) -> List[Span]:
    """Occurrences of a name word of :data:`FORM_MIN_CHARS` letters or more that is not an ordinary English word
    (:func:`is_common_word`), written as OCR and typing leave it: split by spaces ("Petr escu"; not when every piece
    is an English word: "a dam" is not "Adam"), letter-spaced ("P E T R E S C U", "P.E.T.R.E.S.C.U"), or followed by
    an ending of up to :data:`INFLECTION_MAX_CHARS` letters ("Petrescului"; the whole word; not the endings that
    make another name, :data:`NAME_FORMING_ENDINGS`). Offsets of ``text`` (the normalized view)."""
    spans: List[Span] = []
    forms = {fold(w) for w in words if len(w) >= FORM_MIN_CHARS and w.isalpha() and not is_common_word(w)}
    if not forms:
        return spans
    for run_start, letters, offsets in _spaced_runs(folded):
        for form in forms:
            at = letters.find(form)
            while at >= 0:
                spans.append((offsets[at], offsets[at + len(form) - 1] + 1))
                at = letters.find(form, at + 1)
    # one scan for every form: written apart (a space or none between its letters) or with an ending
    alternatives = [" ?".join(map(re.escape, f)) for f in sorted(forms)]
    alternatives += [re.escape(f) + rf"{_LETTER}{{1,{INFLECTION_MAX_CHARS}}}" for f in sorted(forms)]
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")
    halves = {h for f in forms for h in (f[: (len(f) + 1) // 2], f[len(f) // 2 :])}  # one is whole in any split
    for m in _search(pattern, folded, _anchor_regions(folded, halves) if long_text else None):
        found = m.group(0)
        if found in forms:  # the word itself: a variant
            continue
        surface = text[m.start() : m.end()]
        if " " in found:
            if not all(_english_word(p) for p in surface.split(" ")):
                spans.append(m.span())
            continue
        form = max((f for f in forms if found.startswith(f)), key=len)
        ending = surface[len(form) :]
        if fold(ending) not in NAME_FORMING_ENDINGS and (ending.islower() or surface.isupper()):
            spans.append(m.span())
    return spans


def _spaced_runs(folded: str) -> List[Tuple[int, str, List[int]]]:
    """``(start, letters, offset of each letter)`` for every letter-spaced run of ``folded`` (:data:`_SPACED_RUN`);
    remembered for long texts."""
    if len(folded) >= _LONG_TEXT and folded in _SPACED_RUNS:
        return _SPACED_RUNS[folded]
    runs = []
    for m in _SPACED_RUN.finditer(folded):
        offsets = [m.start() + i for i, ch in enumerate(m.group(0)) if ch.isalpha()]
        runs.append((m.start(), "".join(folded[i] for i in offsets), offsets))
    if len(folded) >= _LONG_TEXT:
        _SPACED_RUNS[folded] = runs
        while len(_SPACED_RUNS) > 4:
            _SPACED_RUNS.pop(next(iter(_SPACED_RUNS)))
    return runs


_SPACED_RUNS: Dict[str, List[Tuple[int, str, List[int]]]] = {}


def _english_word(piece: str) -> bool:
    """A piece of a split name that is an English word on its own ("a", "dam"): ordinary words
    (:func:`is_common_word`) and words of a Zipf frequency of 3 or more (wordfreq), "a" and "i" for single letters."""
    low = fold(piece)
    if len(low) == 1:
        return low in ("a", "i")
    if is_common_word(low):
        return True
    return zipf_frequency(low, "en") >= 3.0


#: characters (not counting whitespace and commas) read on each side of a name word found in a long text (a variant's
#: match holds one of its words)
REGION_MARGIN = 200


def _regions(folded: str, variants: Sequence[str]) -> Optional[List[Span]]:
    """The parts of a long folded text where a variant can match: around every place one of its words (of two or
    more letters) occurs, found with ``str.find`` instead of running every variant's pattern over the whole text.
    None (search everywhere) when a variant has no such word or the parts would cover half the text."""
    anchors = set()
    for variant in variants:
        words = [w for w in re.findall(r"\w+", fold(variant)) if len(w) >= 2]
        if not words:
            return None
        anchors.add(max(words, key=len))
    return _anchor_regions(folded, anchors)


def _anchor_regions(folded: str, anchors) -> Optional[List[Span]]:
    """The parts of ``folded`` around every occurrence of one of ``anchors`` (:func:`_regions`); None when they would
    cover half the text, or when the anchors occur so often that their parts would (counted first: reading the
    parts around tens of thousands of occurrences costs more than one scan of the text)."""
    if sum(folded.count(word) for word in anchors) * REGION_MARGIN > len(folded):
        return None
    found: List[Span] = []
    marks = _marks(folded)
    for word in anchors:
        at = folded.find(word)
        while at >= 0:
            found.append((_reach(folded, at, -1, marks), _reach(folded, at + len(word), 1, marks)))
            at = folded.find(word, at + 1)
    regions = [(s, e) for s, e, _ in merge(found)] if found else []
    return None if sum(e - s for s, e in regions) * 2 > len(folded) else regions


def _reach(folded: str, position: int, step: int, marks: Optional[Sequence[int]] = None) -> int:
    """The offset :data:`REGION_MARGIN` characters other than whitespace and commas away from ``position`` (``step``
    -1: before it, 1: after it): a variant's words may be separated by any run of those. ``marks``: the offsets of
    those characters (:func:`_marks`), one bisection instead of a walk."""
    marks = _marks(folded) if marks is None else marks
    before = bisect.bisect_left(marks, position)  # such characters before ``position``
    if step > 0:
        last = before + REGION_MARGIN - 1
        return marks[last] + 1 if last < len(marks) else len(folded)
    return marks[before - REGION_MARGIN] if before >= REGION_MARGIN else 0


def _marks(folded: str) -> Sequence[int]:
    """Offsets of the characters of ``folded`` other than whitespace (``str.isspace``) and commas; remembered for
    long texts (every name's search reads the same text)."""
    if len(folded) >= _LONG_TEXT and folded in _MARKS:
        return _MARKS[folded]
    marks = array("l", (m.start() for m in _MARK.finditer(folded)))  # compact: 8 bytes an offset
    if len(folded) >= _LONG_TEXT:
        _MARKS[folded] = marks
        while len(_MARKS) > 1:  # the document being processed only
            _MARKS.pop(next(iter(_MARKS)))
    return marks


_MARK = re.compile(r"[^\s,]")  # ``\s``: the characters of ``str.isspace``
_MARKS: Dict[str, Sequence[int]] = {}


def _search(pattern, folded: str, regions: Optional[List[Span]]):
    """``pattern.finditer`` over ``folded``, or only over ``regions`` of it. A match that touches a region's edge
    may be cut there (the pattern's look-ahead sees the region's end as the text's end): the whole text is then
    searched for that pattern instead."""
    if regions is None:
        yield from pattern.finditer(folded)
        return
    matches = []
    for start, end in regions:
        for m in pattern.finditer(folded, start, end):
            if (m.start() == start and start > 0) or (m.end() == end and end < len(folded)):
                yield from pattern.finditer(folded)
                return
            matches.append(m)
    yield from matches


#: initials right before a word ("K. ", "K.S. ", "K. S. "), read back from the word
_INITIALS_BEFORE = re.compile(r"(?<![\w'’.])(?:[A-Z]\.[ \t]?){1,3}[ \t]*\Z")
#: a capitalized word right before the surname (spaces or tabs between): perhaps a given name
_WORD_BEFORE_SURNAME = re.compile(r"(?<![\w'’.-])([A-Z\u00c0-\u00de][\w'’-]*)[ \t]+\Z")
#: letters another written form of a given name shares with it from its start ("Dani" and "Danielle", "Rob" and
#: "Robert"): fewer would make "Al" or "Jo" a form of every name that starts so
GIVEN_FORM_MIN_CHARS = 3


def other_given_before(text: str, start: int, end: int, name: str) -> Optional[int]:
    """Where another given name right before the occurrence ``text[start:end]`` of ``name``'s surname alone begins;
    None otherwise (nothing there, ``name``'s own given name or its initial, or an occurrence of more than the
    surname). Another given name is:

    * initials none of which is the initial of one of ``name``'s given names: "D/o K. Raghunathan" for Ananya
      Raghunathan is her father, not her;
    * a capitalized word that is another written form of one of ``name``'s given names (one starts the other, over
      at least :data:`GIVEN_FORM_MIN_CHARS` letters), not that given name itself nor a title ("Judge" for Judith):
      "Danielle Okoro" for Dani Okoro may be her or a relative ("Dan Okoro, her father"), and whichever it is, the
      given name would survive beside the masked surname ("Danielle the person") wherever the recognizer gave it
      another label or none. (Any other given name is the recognizer's to find: the name dictionary holds "Judge",
      "General", "Pastor" as given names.)

    The optimizer masks the two together, never written as the person's role word (a relative is not the person)."""
    words = name_words(name)
    if len(words) < 2 or fold(text[start:end]) != fold(words[-1]):
        return None
    m = _INITIALS_BEFORE.search(text, max(0, start - 12), start)
    if m is not None:
        given = {fold(w)[:1] for w in words[:-1]}
        letters = {c.lower() for c in m.group() if c.isalpha()}
        return None if letters & given else m.start()
    m = _WORD_BEFORE_SURNAME.search(text, max(0, start - 40), start)
    if m is None:
        return None
    word, given = fold(m.group(1)), [fold(w) for w in words[:-1]]
    if word in given or word in TITLES or word in RULE_TITLES or len(word) < GIVEN_FORM_MIN_CHARS:
        return None
    form = any(len(g) >= GIVEN_FORM_MIN_CHARS and (word.startswith(g) or g.startswith(word)) for g in given)
    return m.start(1) if form else None


#: a capitalized (or upper-case) word right after an occurrence (spaces or tabs between)
_WORD_AFTER_GIVEN = re.compile(r"[ \t]+([A-Z\u00c0-\u00de][\w'’-]*)(?![\w'’-])")
#: the most frequent a word after a given name may be in English and still be read as a name (Zipf scale,
#: wordfreq): "Emeka" 1.6, "Lagos" 3.5; "Arrived" 4.3 or "Brown" 5.0 are read as the text's words
NAME_AFTER_MAX_ZIPF = 4.0


def other_name_after(text: str, start: int, end: int, name: str) -> Optional[int]:
    """Where the name-like word right after the occurrence ``text[start:end]`` of one of ``name``'s given names alone,
    or of a name of two words or more ending with its surname, ends (a suffix after it included: "IV", "Jr."); None
    otherwise. The word is capitalized, no word of ``name``, no title, and rare in English
    (:data:`NAME_AFTER_MAX_ZIPF`): a middle name the target's name left out ("FORENAME(S): CHIDI EMEKA" for Chidi
    Okafor), a further surname ("Thomas Cruise Mapother IV" for Tom Cruise) or another person of the same given name;
    whichever it is, it would survive beside the masked name ("the person EMEKA", "the person Mapother IV"). The
    optimizer masks the two together, never written as the person's role word."""
    words = name_words(name)
    if len(words) < 2:
        return None
    written = text[start:end].split()
    given_alone = fold(text[start:end]) in {fold(w) for w in words[:-1]}
    if not given_alone and not (len(written) >= 2 and fold(written[-1]) == fold(words[-1])):
        return None
    m = _WORD_AFTER_GIVEN.match(text, end)
    if m is None:
        return None
    word = fold(m.group(1))
    if word in {fold(w) for w in words} or word in TITLES or word in SUFFIXES or is_common_word(word):
        return None
    if zipf_frequency(word, "en") >= NAME_AFTER_MAX_ZIPF:
        return None
    suffix = _NAME_SUFFIX.match(text, m.end(1))
    return suffix.end() if suffix else m.end(1)


def _initials_ok(text: str, start: int, end: int) -> bool:
    """A one-letter word of a matched multi-word variant is an initial only if it is upper case or followed by a
    full stop: "Petrescu, A." and "PETRESCU A" are the person, "Petrescu, a teacher" is not. A letter joined to the
    rest of a word by an apostrophe is no word of its own ("o'reilly", "d'arcy")."""
    for m in re.finditer(r"(?<![\w'’])\w(?![\w'’])", text[start:end]):  # "o'reilly": no initial "o"
        letter, after = m.group(0), text[start + m.end() : start + m.end() + 1]
        if letter.isalpha() and not letter.isupper() and after != ".":
            return False
    return True


def _single_word_case_ok(surface: str, variant: str) -> bool:
    if surface[:1].isupper():
        return True
    return not is_common_word(variant)


def is_common_word(word: str) -> bool:
    """True if ``word`` in lower case is an ordinary English word (a name-like word such as "will",
    "hope", "may", or a spaCy English stop word such as "us"): its lower-case occurrences are not
    taken for a name."""
    folded = fold(word.strip())
    return folded in _COMMON_WORDS or folded in STOP_WORDS


def name_occurrences(text: str, name: str) -> List[Span]:
    """:func:`find_target_mentions`, and, where the text writes the full name in lower case ("hope summers"),
    the surname in lower case too, even if it is an ordinary word ("summers appealed"); and the name's
    pronunciation at the opening of a biography (:func:`pronunciations`).

    Remembered for long texts (the risk scorer and the optimizer both ask, once per name): a new list each call."""
    return name_occurrences_and_pronunciations(text, name)[0]


def name_occurrences_and_pronunciations(text: str, name: str) -> Tuple[List[Span], List[Span]]:
    """(:func:`name_occurrences`, those of them that are the name's pronunciation: :func:`pronunciations`), found
    once (the optimizer writes a pronunciation as a mask, never as the person's role word)."""
    if len(text) < _LONG_TEXT:
        return _name_occurrences(text, name)
    key = (text, name)
    if key not in _OCCURRENCES:
        if len(_OCCURRENCES) >= 20_000:
            _OCCURRENCES.clear()
        found, spoken = _name_occurrences(text, name)
        _OCCURRENCES[key] = (tuple(found), tuple(spoken))
    found, spoken = _OCCURRENCES[key]
    return list(found), list(spoken)


_OCCURRENCES: Dict[Tuple[str, str], Tuple[Tuple[Span, ...], Tuple[Span, ...]]] = {}


def _name_occurrences(text: str, name: str) -> Tuple[List[Span], List[Span]]:
    view = normalized(text)  # once for every search below (a text under _LONG_TEXT is not remembered)
    occurrences = find_target_mentions(text, name, view)
    words = name_words(name)
    spoken = _pronunciations_after(text, occurrences)
    glued = _glued_forms(view, words) + _compound_forms(view, words)
    forms = _diminutive_occurrences(text, words)
    extra = spoken + glued + forms + _dotted_initials(text, words) + _bare_initials(text, words)
    extra += _nickname_occurrences(text, words) + _given_and_surname_initials(text, words)
    if len(words) >= 2 and any(len(text[s:e].split()) >= 2 and text[s:e] == text[s:e].lower() for s, e in occurrences):
        pattern = _whole_word(words[-1])
        folded = fold(view.text)
        occurrences += view.spans_to_original(
            [m.span() for m in pattern.finditer(folded) if view.text[m.start() : m.end()].islower()]
        )
        occurrences = [(s, e) for s, e, _ in merge(occurrences)]
    found = [(s, e) for s, e, _ in merge(occurrences + extra)] if extra else occurrences
    found = _joined_forms(text, found, set(spoken))
    kept = set(found)  # a pronunciation merged into a longer occurrence is no longer one of its own
    return found, [p for p in spoken + glued + forms if p in kept]


#: what may stand between two occurrences of the name that are one writing of it ('Robert "Bob" Hartley', "William
#: (Bill) Hendricks"): spaces, brackets and quotation marks
_JOINING = re.compile(r"[ \t]*[(\[\"'“”‘’)\]][ \t(\[\"'“”‘’)\]]{0,3}|[ \t]+")
#: a suffix after a name of two words or more ("William Hendricks Jr.", "John Smith III"), inside its occurrence
_NAME_SUFFIX = re.compile(r"(?:,?[ \t]+(?:Jr|Sr|Jnr|Snr)\.?|[ \t]+(?:II|III|IV))(?![\w'’])")


def _joined_forms(text: str, found: List[Span], apart: Collection[Span] = ()) -> List[Span]:
    """Occurrences of the name with only spaces, brackets or quotation marks between them joined into one (one
    writing of the name: "William (Bill) Hendricks" is one occurrence, written once as the role word, never "the
    person (the person) the person"; "Bonham" and "Carter" of Helena Bonham Carter, "the person"), each with the
    suffix right after it when it holds two words or more. The occurrences ``apart`` (the name's pronunciation,
    masked, never written as the role word) are never joined."""
    out: List[list] = []  # [start, end, the occurrences joined]
    last = None
    for start, end in found:
        if (
            out
            and start >= out[-1][1]
            and (start, end) not in apart
            and last not in apart
            and _JOINING.fullmatch(text, out[-1][1], start)
        ):
            out[-1][1] = end
            out[-1][2].append((start, end))
        else:
            out.append([start, end, [(start, end)]])
        last = (start, end)
    spans: List[Span] = []
    for start, end, members in out:
        joined = len(members) > 1
        # a bracket or quotation mark opened between the joined occurrences is closed inside it ("Smith (Smith)")
        while joined and end < len(text) and _unclosed(text[start:end], text[end]):
            end += 1
        if joined and _opens_unclosed(text[start:end]):  # "m.ferreira (Marta Ferreira, Finance)": the bracket
            spans += members  # holds more than the name: the occurrences stay apart, the bracket in the text
            continue
        if len(text[start:end].split()) >= 2:
            m = _NAME_SUFFIX.match(text, end)
            if m:
                end = m.end()
        spans.append((start, end))
    return spans


#: a closing bracket or quotation mark -> its opening one; the closing single quotation mark is also an apostrophe
#: ("O’Brien"), so only :func:`_unclosed` reads it (:data:`_QUOTE_MARKS`)
_BRACKETS = {")": "(", "]": "[", "”": "“"}
_QUOTE_MARKS = {**_BRACKETS, "’": "‘"}


def _opens_unclosed(piece: str) -> bool:
    """Whether ``piece`` opens a bracket that it does not close."""
    return any(piece.count(opening) > piece.count(closing) for closing, opening in _BRACKETS.items())


def _unclosed(piece: str, after: str) -> bool:
    """Whether ``after`` closes a bracket or a quotation that ``piece`` opens and does not close."""
    if after in _QUOTE_MARKS:
        return piece.count(_QUOTE_MARKS[after]) > piece.count(after)
    return after in "\"'" and piece.count(after) % 2 == 1


#: where a word is glued from parts as programs name things: CamelCase, an underscore, letters and digits
#: ("KimFamily_5G", "smith_2"); the word around it is read (:func:`_compounds`)
_COMPOUND_JOINT = re.compile(r"[a-z][A-Z]|[^\W\d_]_|_[^\W\d_]|[^\W\d_]\d|\d[^\W\d_]")


def _compound_parts(word: str) -> List[Tuple[int, int]]:
    """``(start, end)`` of the parts of ``word`` at its CamelCase, underscore and letter/digit boundaries."""
    parts, start = [], 0
    for i in range(1, len(word) + 1):
        if (
            i == len(word)
            or word[i] == "_"
            or word[i - 1] == "_"
            or (word[i].isupper() and word[i - 1].islower())
            or (word[i].isdigit() != word[i - 1].isdigit())
        ):
            if word[start:i] != "_":
                parts.append((start, i))
            start = i
    return parts


def _compound_forms(view: NormalizedView, words: Sequence[str]) -> List[Span]:
    """Every word that holds one of the name's words as a part of a compound a program or a person made of it
    (CamelCase, an underscore, digits: a Wi-Fi network "KimFamily_5G", a user name "smith_1985", "DonaldB"): the
    whole word, which is no reference to write as the role word. The name's word has three letters or more and is no
    ordinary English word, and it opens the compound or follows an underscore, digits or a part of three letters or
    more (not "McDonald" for Donald, "LeBlanc" for Blanc). Offsets of the original text."""
    names = {fold(w) for w in words if len(w) >= 3 and w.isalpha() and not is_common_word(w)}
    if not names:
        return []
    spans = [(start, end) for start, end, parts in _compounds(view.text) if names & parts]
    return view.spans_to_original(spans) if spans else []


@lru_cache(maxsize=64)
def _compounds(text: str) -> Tuple[Tuple[int, int, frozenset], ...]:
    """``(start, end, folded parts that may be a name's word)`` of every compound word of ``text`` (read once per
    text, whatever the number of names looked for)."""
    out = []
    end = 0
    for joint in _COMPOUND_JOINT.finditer(text):
        if joint.start() < end:
            continue  # inside the word just read
        start, end = joint.start(), joint.end()
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        word = text[start:end]
        if len(word) > 60 or not word[:1].isalpha():
            continue
        parts = _compound_parts(word)
        if len(parts) < 2:
            continue
        named = set()
        for k, (a, b) in enumerate(parts):
            before = parts[k - 1] if k else None
            if before is None or word[before[1] : a] == "_" or word[before[0]].isdigit() or before[1] - before[0] >= 3:
                named.add(fold(word[a:b]))
        out.append((start, end, frozenset(named)))
    return tuple(out)


#: the shortest pair of name words, glued, that :func:`_glued_forms` looks for ("annlee", not "alee")
GLUED_MIN_CHARS = 7


def _glued_forms(view: NormalizedView, words: Sequence[str]) -> List[Span]:
    """Every word of the text (``view``: its normalized view; offsets of the original) that holds two of the name's
    words glued together, in either order, with nothing, an underscore, a full stop or a hyphen between them, in any
    case: a hashtag ("#priyanairart"), a user name ("priya_nair88"), a file or domain name ("PriyaNairCV.pdf",
    "priyanair.com"). The span is the whole word (the "#" or "@" before it aside): what is left of it would name the
    person. Such a form is no reference to write as the person's role word ("#the person");
    :func:`name_occurrences_and_pronunciations` returns it with the pronunciations, which the optimizer masks. Pairs
    of :data:`GLUED_MIN_CHARS` letters or more, so that two short given names do not make an ordinary word."""
    parts = [fold(w) for w in words if w.isalpha()]
    pairs = {
        (a, b)
        for i, a in enumerate(parts)
        for j, b in enumerate(parts)
        if i != j and len(a) >= 2 and len(b) >= 2 and len(a) + len(b) >= GLUED_MIN_CHARS
    }
    if not pairs:
        return []
    folded = fold(view.text)
    pairs = sorted(pair for pair in pairs if pair[0] in folded and pair[1] in folded)
    if not pairs:
        return []
    glued = "|".join(rf"{re.escape(a)}[_.-]?{re.escape(b)}" for a, b in pairs)
    spans: List[Span] = []
    for m in re.finditer(glued, folded):  # then out to the word's ends: linear on a long run of letters too
        if spans and m.start() < spans[-1][1]:
            continue
        start, end = m.span()
        while start > 0 and (folded[start - 1].isalnum() or folded[start - 1] == "_"):
            start -= 1
        while end < len(folded) and (folded[end].isalnum() or folded[end] in "_-"):
            end += 1
        spans.append((start, end))
    return view.spans_to_original(spans)


#: a nickname in quotes or brackets after a space, and the word after it: the inside of Robert "Bobby" Fenwick, Danny
#: ‘Danno’ Williams, Earvin (Magic) Johnson; one or two words (the word before it is checked apart: a pattern that
#: starts at a quotation mark is tried at few places of a text)
_QUOTED_NICKNAME = re.compile(
    r"[ \t][\"“‘'(](?P<nick>[^\W\d_][\w'’.-]*(?:[ \t][^\W\d_][\w'’.-]*)?)[\"”’')][ \t]+(?P<last>[^\W\d_][\w'’-]*)"
)
_WORD_BEFORE = re.compile(r"([^\W\d_][\w'’.-]*)$")


def without_nicknames(name: str) -> Tuple[str, List[str]]:
    """``name`` without the nicknames written inside it in quotes or brackets (:data:`_QUOTED_NICKNAME`), and those
    nicknames: ('Robert "Bob" Hartley') -> ("Robert Hartley", ["Bob"]) (the entity linker: the same person)."""
    pieces, nicknames, at = [], [], 0
    for m in _QUOTED_NICKNAME.finditer(name):
        pieces.append(name[at : m.start()] + " ")
        nicknames.append(m.group("nick"))
        at = m.start("last")
    return ("".join(pieces) + name[at:] if nicknames else name), nicknames


def _nickname_occurrences(text: str, words: Sequence[str]) -> List[Span]:
    """Every occurrence of a nickname that the text writes inside the person's name ("Robert 'Bobby' Fenwick": then
    "known as Bobby" names the person too): between one of the name's words and its last word, in quotes or brackets.
    An occurrence counts when it is capitalized or written as in the name ("It was magic" is not "Magic" Johnson)."""
    if len(words) < 2:
        return []
    given, last = {fold(w) for w in words[:-1]}, fold(words[-1])
    nicknames = {nick for before, nick, after in _quoted_nicknames(text) if after == last and before in given}
    if not nicknames:
        return []
    folded = fold(text)
    spans: List[Span] = []
    for nick in sorted(nicknames):
        spans += [
            m.span()
            for m in _whole_word(nick).finditer(folded)
            if text[m.start()].isupper() or text[m.start() : m.end()] == nick
        ]
    return spans


#: the shortest diminutive of a given name looked for on its own ("Bob" of Robert; not "Si" of Sylvester)
DIMINUTIVE_MIN_CHARS = 3


@lru_cache(maxsize=1)
def _nicknamer():
    return NickNamer()  # the hand-curated table of English given names and their diminutives, read once


@lru_cache(maxsize=1024)
def diminutives(given: str) -> Tuple[str, ...]:
    """The diminutives of the given name ``given`` (folded, sorted) that may be read as a name on their own: "bob",
    "bobby", "rob", "robby" ... of "Robert" (the ``nicknames`` package's table); none shorter than
    :data:`DIMINUTIVE_MIN_CHARS`, nor a title."""
    forms = {fold(f) for f in _nicknamer().nicknames_of(fold(given))}
    return tuple(sorted(f for f in forms if len(f) >= DIMINUTIVE_MIN_CHARS and f != fold(given) and f not in TITLES))


#: what comes before a sentence's first word: where a capital letter says nothing of a name ("Will he come?")
_SENTENCE_START = re.compile(r"(?:\A|[.!?:;\n][\"'“‘(\[\s]*|[\"“‘(\[]\s*)\Z")


def _diminutive_occurrences(text: str, words: Sequence[str]) -> List[Span]:
    """Every occurrence of a diminutive of the person's first given name (:func:`diminutives`) written as a name
    ("Robert Kearney ... known to friends as Bob": "Bob" names him), on its own or before the surname: capitalized,
    the rest in lower case (not "DOB"), not an ordinary word opening a sentence ("Will he come?" for William; "known
    as Will" is him), and not before another capitalized word than the surname ("Bob Whitby" is another person, the
    recognizer's to find). The optimizer masks it, never writing the role word on its own (a
    relative or a namesake may be meant); before the surname it joins the surname's occurrence."""
    if len(words) < 2:
        return []
    forms = diminutives(words[0])
    if not forms:
        return []
    folded, last = fold(text), fold(words[-1])
    spans: List[Span] = []
    for form in forms:
        for m in _whole_word(form).finditer(folded):
            written = text[m.start() : m.end()]
            if not written[:1].isupper() or (len(written) > 1 and not written[1:].islower()):
                continue
            if is_common_word(form) and _SENTENCE_START.search(text, max(0, m.start() - 4), m.start()):
                continue  # "Will he come?", "Bill 12 was passed": an ordinary word opening a sentence
            after = _WORD_AFTER_GIVEN.match(text, m.end())
            if after is not None and fold(after.group(1)) != last:
                continue
            spans.append(m.span())
    return spans


@lru_cache(maxsize=4096)
def _whole_word(word: str) -> "re.Pattern[str]":
    """``word`` folded, as a whole word of a folded text (the surname in lower case, a nickname), compiled once."""
    return re.compile(r"(?<!\w)" + re.escape(fold(word)) + r"(?!\w)")


@lru_cache(maxsize=64)
def _quoted_nicknames(text: str) -> Tuple[Tuple[str, str, str], ...]:
    """``(word before, nickname, word after)`` of every word in quotes or brackets between two words of ``text`` (the
    words around it folded), read once per text: a court case without a target asks for every full name in it."""
    found = []
    for m in _QUOTED_NICKNAME.finditer(text):  # the text as written (a nickname is no hidden form of the name)
        before = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
        if before is not None:
            found.append((fold(before.group(1)), m.group("nick"), fold(m.group("last"))))
    return tuple(found)


def _dotted_initials(text: str, words: Sequence[str]) -> List[Span]:
    """The initials of every word of a name of two words or more, upper case, each with its full stop ("A.J.",
    "A. J." for Angelina Jolie): a nickname made of the name itself. Without the full stops ("AJ") they are left to
    the recognizer (an abbreviation as often as a name)."""
    letters = [w[0] for w in words if w[:1].isalpha()]
    if len(letters) < 2 or len(letters) != len(words) or not all(c.isupper() for c in letters):
        return []
    if letters[0] + "." not in text:  # most texts: no pattern compiled (each would take a place in re's cache)
        return []
    # a hyphenated word's parts each give an initial ("M.D-O." or "M.D.O." for Marguerite Duval-Okafor)
    groups = "|".join("-".join(p[0] for p in w.split("-") if p[:1].isalpha()) for w in words)
    return [m.span() for m in _initials_pattern(groups).finditer(text)]


#: bare initials ("JS") whose lower-case form is at least this frequent in English (Zipf scale, wordfreq) are taken
#: for the word or abbreviation they also write ("UK", "TV", "OK", "US", "IT", "ID", "Ms", "Jr", "PM"), not for the
#: name; below it ("MO" 4.4 of a care note's "72F, MO, PMH HTN", "MD" 4.2, "HR" 4.2) they are the name
BARE_INITIALS_MAX_ZIPF = 4.5


def _bare_initials(text: str, words: Sequence[str]) -> List[Span]:
    """The initials of a name of two or three words, upper case, without full stops, as a word of their own ("JS"
    for Jonathan Stafford: "Progress note: JS seen with mother. Plan: JS to be reviewed"), unless they also write a
    frequent word or abbreviation (:data:`BARE_INITIALS_MAX_ZIPF`) or stand in a run of capitals ("JS API", "NAME
    JS"). A care record's or a court's usual way to name the person: left to the recognizer, they were kept."""
    letters = "".join(w[0] for w in words if w[:1].isalpha())
    if not 2 <= len(letters) <= 3 or len(letters) != len(words) or not letters.isupper() or letters not in text:
        return []
    if zipf_frequency(letters.lower(), "en") >= BARE_INITIALS_MAX_ZIPF:
        return []
    pattern = re.compile(r"(?<![\w.&/@-])(?<![A-Z][ \t])" + letters + r"(?![\w&/@-]|\.\w)(?![ \t][A-Z]{2})")
    return [m.span() for m in pattern.finditer(text)]


def _given_and_surname_initials(text: str, words: Sequence[str]) -> List[Span]:
    """The first given name followed by the surname's initials, a hyphenated surname's each ("Ella F-M", "Ella F.-M."
    for Ella Fitzgerald-Moore, "Noah K" or "Noah K." for Noah Kerr): a class list's or a team sheet's way to write
    the name. The given name alone is an occurrence already; the initials after it had stayed ("the person F-M")."""
    if len(words) < 2 or not words[0][:1].isalpha():
        return []
    parts = [p for p in words[-1].split("-") if p[:1].isalpha()]
    if not parts or not all(p[0].isupper() for p in parts) or words[0] + " " not in text:
        return []
    initials = r"\.?-?".join(re.escape(p[0]) for p in parts) + r"\.?"
    pattern = re.compile(r"(?<![\w'’-])" + re.escape(words[0]) + r"[ \t]+" + initials + r"(?![\w'’-])")
    return [m.span() for m in pattern.finditer(text)]


@lru_cache(maxsize=4096)
def _initials_pattern(groups: str) -> "re.Pattern[str]":
    """The dotted initials of ``groups`` (the words' initials, "|" between words, "-" between a hyphenated word's:
    "A|J" -> "A.J.", "A. J."; "M|D-O" -> "M.D-O.", "M.D.O."), compiled once per process."""
    words = [r"(?:\.?-|\.[ \t]?)".join(map(re.escape, group.split("-"))) for group in groups.split("|")]
    return re.compile(r"(?<![\w.])" + r"\.[ \t]?".join(words) + r"\.(?![ \t]?[^\W\d_]\.)(?!\w)")


#: how far into a text the opening of a biography ("Name (pronunciation; born ...)") may start
LEAD_CHARS = 300
#: the longest parenthetical read after the name; an unclosed one is read to the end of its line up to this
PARENTHETICAL_CHARS = 400
#: an IPA letter, or a transcription between slashes or square brackets: letters, no digit (a form's
#: "(date of birth 09/11/1994" holds "/11/", no transcription)
_IPA = re.compile(
    r"[\u0250-\u02ff\u1d00-\u1dbfæçðøŋœθβχ]|/[^/\n\d]*[^\W\d_][^/\n\d]*/|\[[^\]\n\d]*[^\W\d_][^\]\n\d]*\]"
)
_PRONUNCIATION_WORDS = re.compile(r"\b(?:pronounced|pronunciation|pron\.|listen|ipa|respelling)\b", re.IGNORECASE)
# a respelled word: syllables joined by hyphens, one of them stressed (upper case): "joh-LEE", "LEE-nə", "wah-KEEN"
_RESPELLED = re.compile(r"(?<![\w-])(?=[\w-]*\b[A-Z]{2,}\b)[^\W\d_]+(?:-[^\W\d_]+)+(?![\w-])")
# a one-syllable respelling in capitals ("KAYN"): the whole segment is upper-case words
_STRESSED_ONLY = re.compile(r"[A-Z]{2,}(?:\s+[A-Z]{2,})*")
_OPENING = re.compile(r"[ \t]*\(")
_CLOSING = re.compile(r"[)\n]")


def _is_pronunciation(segment: str) -> bool:
    """True if a segment of the parenthetical after the name transcribes how it is said."""
    segment = segment.strip()
    return bool(
        _IPA.search(segment)
        or _PRONUNCIATION_WORDS.search(segment)
        or _RESPELLED.search(segment)
        or _STRESSED_ONLY.fullmatch(segment)
    )


def pronunciations(text: str, name: str) -> List[Span]:
    """The pronunciation of the name in a parenthetical right after it at the opening of a biography (an
    occurrence starting in the first :data:`LEAD_CHARS` characters): "Lena Headey ( LEE-nə HEE-dee; born ...)".

    Fail closed: the parenthetical is cut into segments at semicolons, and everything from its opening
    bracket to the end of its last segment that looks like a pronunciation (IPA, /.../ or [...], "pronounced",
    a respelling such as "joh-LEE" or "KAYN") is one span, so a language label or a native spelling before the
    transcription ("German: [...]", "Irish: ...; pronounced ...") goes with it. "(born ...)" alone gives nothing.
    """
    return _pronunciations_after(text, find_target_mentions(text, name))


def _pronunciations_after(text: str, occurrences: List[Span]) -> List[Span]:
    """:func:`pronunciations` after the name's ``occurrences`` (found once by the caller)."""
    spans: List[Span] = []
    for _, end in (o for o in occurrences if o[0] < LEAD_CHARS):
        opening = _OPENING.match(text, end)
        if not opening:
            continue
        start = opening.end()
        stop = min(len(text), start + PARENTHETICAL_CHARS)
        close = _CLOSING.search(text, start, stop)
        inner_end = close.start() if close else stop
        last = None
        for m in re.finditer(r"[^;]+", text[start:inner_end]):
            if _is_pronunciation(m.group(0)):
                last = start + m.end()
        if last is not None:
            first = start + len(text[start:last]) - len(text[start:last].lstrip(" \t;"))
            last -= len(text[start:last]) - len(text[start:last].rstrip())
            if first < last:
                spans.append((first, last))
    return spans
