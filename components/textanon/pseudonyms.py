"""The ``pseudonym`` replacement style: a realistic surrogate of the same type for every masked mention.

* PERSON: titles and suffixes kept, each given name and surname replaced by a common English one (a female
  given name after Mrs/Ms/Miss/..., a male one after Mr/Sir/...), initials by the surrogate's initial:
  "Mr Galip Yalman" -> "Mr Peter Hall", "Yalman" -> "Hall", "G. Yalman" -> "P. Hall".
* LOC, ORG, capitalized MISC: every proper word replaced by an English place name, generic words kept
  ("Balti District Court" -> "Oakham District Court", "Republic of Moldavia" -> "Republic of Ripon").
* DEM: a nationality for a capitalized term, an occupation otherwise; lower-case MISC: a generic term.
* DATETIME: every date shifted by the same number of days (30 to 730, either way) and written in the same
  format ("14 September 2009", "September 2009", "14/09/2009", "2009-09-14", a year alone); digits in other
  expressions replaced; no date and no digit: the numbered placeholder (``[DATETIME_3]``).
* QUANTITY and CODE: the same shape — every digit by a digit, every letter by a letter of the same case,
  separators kept (an e-mail or URL keeps its scheme and top-level domain; a number word becomes another).

Stable: the same original gets the same surrogate in a whole document (and, with ``scope="corpus"``, across
every document this pseudonymizer sees; :meth:`Pseudonymizer.table` can be saved and loaded to carry it across
runs). Seedable: surrogates are drawn from a random generator seeded by ``seed``, the label and the original
(and, in document scope, the document's text: the same person gets unrelated surrogates in two documents).
Never the original: a surrogate equal to its original (letter case and diacritics aside), already given to
another original, or (in document scope) occurring in the document as a word is never used. Offline: the
vocabularies are built in (``pseudonym_data.json``).
"""

import calendar
import datetime as dt
import hashlib
import json
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Set

from .labels import CODE, DATETIME, DEM, LOC, MISC, ORG, PERSON, QUANTITY
from .target import PARTICLES, SUFFIXES, TITLES, fold

PSEUDONYM = "pseudonym"
SCOPES = ("document", "corpus")
DATA = Path(__file__).with_name("pseudonym_data.json")
FEMALE_TITLES = frozenset(
    {"mrs", "ms", "miss", "madam", "madame", "lady", "dame", "mme", "mlle", "frau", "sra", "srta"}
)
MALE_TITLES = frozenset({"mr", "sir", "lord", "m", "herr", "sr", "don"})
#: words of place and organisation names that are kept (lower-cased, diacritics removed)
GENERIC_WORDS = frozenset(
    """
of the and for de du la le court district regional region city county republic kingdom state states ministry
government council university hospital clinic bank police department office prosecutor prosecutor's school
college company ltd inc plc llc gmbh sa corp corporation group association union church street road avenue square
river lake mount north south east west central national international federal supreme high appeal appeals
municipal village town province republic's centre center institute agency authority service services board
committee commission party club foundation trust tribunal prison station airport port cathedral museum
""".split()
)
MONTH_NAMES = [calendar.month_name[i] for i in range(1, 13)]
MONTHS = {fold(name): i for i, name in enumerate(MONTH_NAMES, 1)}
MONTHS.update({fold(name[:3]): i for i, name in enumerate(MONTH_NAMES, 1)})
MONTHS["sept"] = 9
MONTH_RE = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
WEEKDAYS = [calendar.day_name[i] for i in range(7)]
MAX_TRIES = 200


@lru_cache(maxsize=1)
def vocabulary() -> Dict[str, List[str]]:
    """The built-in surrogate lists (given names, surnames, places, nationalities, occupations, terms)."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


class Pseudonymizer:
    """Surrogates for masked mentions (see the module docstring); call :meth:`start_document` per document."""

    def __init__(self, seed: int = 0, scope: str = "document", table: Optional[Dict[str, Dict[str, str]]] = None):
        if scope not in SCOPES:
            raise ValueError(f"pseudonym scope must be one of {SCOPES}, got {scope!r}")
        self.seed, self.scope = int(seed), scope
        self.table: Dict[str, Dict[str, str]] = {k: dict(v) for k, v in (table or {}).items()}
        self._salt, self._words, self._given = "", set(), set()
        self._doc_table: Dict[str, Dict[str, str]] = self.table
        self._counter = 0

    # -- scope --------------------------------------------------------------------------------
    def start_document(self, text: str, person_names: Iterable[str] = ()) -> None:
        """Begin a document: its words (surrogates never occur in it, in document scope), the given names of its
        multi-word person names (a given name alone is then replaced as a given name), and, in document scope,
        fresh surrogates."""
        self._counter = 0
        self._given = set()
        for name in person_names:
            words = self._name_words(name)
            self._given.update(fold(w) for w in words[:-1] if len(w.rstrip(".")) > 1)
        if self.scope == "document":
            self._salt = hashlib.sha256(text.encode("utf-8")).hexdigest()
            self._doc_table = {}
            self._words = set(re.findall(r"\w+", fold(text)))
        else:
            self._salt, self._doc_table, self._words = "", self.table, set()

    def __call__(self, label: str, original: str, fallback: Optional[str] = None) -> str:
        """The surrogate of ``original`` (a mention labelled ``label``); ``fallback``: what to write where no
        surrogate of the type exists (default: ``[LABEL_n]``)."""
        text = " ".join(original.split())
        same_text = self._doc_table.setdefault("text", {})
        if fold(text) in same_text:  # one text, one surrogate, whatever label a mention got ("Balti" LOC / PERSON)
            return _case_like(text, same_text[fold(text)])
        out = self._surrogate(label, text)
        if out is None or fold(out) == fold(text):
            self._counter += 1
            return fallback or f"[{label}_{self._counter}]"
        same_text[fold(text)] = out
        return out

    def _surrogate(self, label: str, text: str) -> Optional[str]:
        if label == PERSON:
            return self._person(text)
        if label in (LOC, ORG) or (label == MISC and text[:1].isupper()):
            return self._proper(text)
        if label == DEM:
            return self._pick("dem", text, "nationalities" if text[:1].isupper() else "occupations")
        if label == MISC:
            return self._pick("misc", text, "misc_terms")
        if label == DATETIME:
            return self._datetime(text)
        if label in (QUANTITY, CODE):
            return self._shape(label.lower(), text)
        return None

    # -- persons ------------------------------------------------------------------------------
    def _person(self, text: str) -> Optional[str]:
        pieces = re.split(r"(\s+|,)", text)
        words = [i for i, p in enumerate(pieces) if p and not p.isspace() and p != ","]
        titles = [fold(pieces[i].rstrip(".")) for i in words if not self._is_name(pieces[i])]
        gender = "female" if FEMALE_TITLES & set(titles) else "male" if MALE_TITLES & set(titles) else None
        names = [i for i in words if self._is_name(pieces[i])]
        if not names:
            return None
        last = names[-1]
        for i in names:
            word = pieces[i]
            bare = word.rstrip(".")
            if len(bare) == 1:  # an initial: the initial of the surrogate of a given name with that letter
                pieces[i] = self._initial(bare) + word[1:]
            elif i == last and not (len(names) == 1 and fold(bare) in self._given):
                pieces[i] = _case_like(bare, self._pick("surname", bare, "surnames")) + word[len(bare) :]
            else:
                lists = {"female": "given_female", "male": "given_male"}.get(gender, "given_any")
                pieces[i] = _case_like(bare, self._pick("given", bare, lists)) + word[len(bare) :]
        return "".join(pieces)

    @staticmethod
    def _is_name(word: str) -> bool:
        """A name word or an initial (a single letter is always an initial: "M. Yalman", "Mr V. Grosu")."""
        bare = fold(word.rstrip("."))
        if not re.fullmatch(r"[^\W\d_][\w'’-]*", bare):
            return False
        return len(bare) == 1 or bare not in TITLES | SUFFIXES | PARTICLES

    def _name_words(self, name: str) -> List[str]:
        return [w for w in " ".join(name.split()).split(" ") if self._is_name(w)]

    def _initial(self, letter: str) -> str:
        table = self._doc_table.get("given", {})
        for key, surrogate in sorted(table.items()):
            if key[:1] == fold(letter) and key in self._given:
                return surrogate[0].upper() if letter.isupper() else surrogate[0].lower()
        rng = self._rng("initial", letter)
        choices = [c for c in "ABCDEFGHJKLMNPRSTW" if c != letter.upper()]
        return rng.choice(choices) if letter.isupper() else rng.choice(choices).lower()

    # -- places, organisations, named things ----------------------------------------------------
    def _proper(self, text: str) -> Optional[str]:
        pieces = re.split(r"(\s+|-)", text)
        changed = False
        for i, word in enumerate(pieces):
            bare = (word[:-2] if word.endswith(("'s", "’s")) else word).strip(".,;:")
            if not bare or not bare[:1].isalpha() or fold(bare) in GENERIC_WORDS or not bare[:1].isupper():
                continue
            pieces[i] = word.replace(bare, _case_like(bare, self._pick("place", bare, "places")), 1)
            changed = True
        if not changed:  # only generic words ("the Government"): name it after a place ("the Ripon Government")
            head, rest = (text[:4], text[4:]) if fold(text[:4]) == "the " else ("", text)
            return f"{head}{self._pick('place', text, 'places')} {rest}"
        return "".join(pieces)

    # -- dates --------------------------------------------------------------------------------
    def _datetime(self, text: str) -> Optional[str]:
        shift = self._shift_days()
        out, n = _shift_dates(text, shift)
        if n:
            return out
        if re.search(r"\d", text) or _has_number_word(text):  # "seventy-two hours", "3 weeks"
            return self._shape("datetime", text)
        for names in (WEEKDAYS, MONTH_NAMES):
            for k, name in enumerate(names):
                if fold(text) == fold(name):
                    return _case_like(text, names[(k + max(1, abs(shift) % len(names))) % len(names)])
        return None

    def _shift_days(self) -> int:
        rng = self._rng("date-shift", "")
        days = rng.randint(30, 730)
        return days if rng.random() < 0.5 else -days

    # -- numbers and codes ----------------------------------------------------------------------
    def _shape(self, kind: str, text: str) -> Optional[str]:
        """Digits replaced by digits (and, in a code, letters by letters of the same case), number words by
        others; None if nothing can change (no digit, no number word, no letter of a code)."""
        key = text
        table = self._doc_table.setdefault(kind, {})
        if key in table:
            return table[key]
        letters = kind == "code"
        if not re.search(r"[A-Za-z0-9]" if letters else r"\d", text) and not _has_number_word(text):
            return None
        keep = _kept_parts(text) if letters else set()
        used = set(table.values())
        rng = self._rng(kind, key)
        for _ in range(MAX_TRIES):
            out = "".join(c if i in keep else _same_class(c, rng, letters) for i, c in enumerate(text))
            out = _number_words(out, rng)
            if out != text and out not in used:
                table[key] = out
                return out
        return None

    # -- drawing ------------------------------------------------------------------------------
    def _pick(self, kind: str, original: str, lists: str) -> str:
        """The surrogate of ``original`` among ``lists`` (a vocabulary name, ``given_any`` for both genders)."""
        key = fold(" ".join(original.split()))
        table = self._doc_table.setdefault(kind, {})
        if key in table:
            return table[key]
        vocab = vocabulary()
        pool = vocab["given_female"] + vocab["given_male"] if lists == "given_any" else list(vocab[lists])
        used = {fold(v) for v in table.values()} | set(table)
        rng = self._rng(kind, key)
        rng.shuffle(pool)
        for candidate in _candidates(pool, rng):
            folded = fold(candidate)
            if folded == key or folded in used or set(re.findall(r"\w+", folded)) & self._words:
                continue
            table[key] = candidate
            return candidate
        table[key] = f"{pool[0]} {len(table) + 1}"  # every candidate taken: still distinct, never the original
        return table[key]

    def _rng(self, kind: str, key: str) -> random.Random:
        digest = hashlib.sha256(f"{self.seed}|{self._salt}|{kind}|{key}".encode("utf-8")).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))


def _candidates(pool: List[str], rng: random.Random) -> Iterator[str]:
    """The pool in its (shuffled) order, then double-barrelled pairs (so a surrogate is always found)."""
    yield from pool
    for _ in range(MAX_TRIES):
        yield f"{rng.choice(pool)}-{rng.choice(pool)}"


def _case_like(original: str, surrogate: str) -> str:
    """``surrogate`` in the letter case of ``original`` (UPPER, lower or as written)."""
    if original.isupper() and len(original) > 1:
        return surrogate.upper()
    if original.islower():
        return surrogate.lower()
    return surrogate


def _same_class(c: str, rng: random.Random, letters: bool) -> str:
    if c.isdigit() and c.isascii():
        return str(rng.randint(0, 9))
    if letters and c.isalpha() and c.isascii():
        letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
        return letter.upper() if c.isupper() else letter
    return c


def _kept_parts(text: str) -> Set[int]:
    """Positions of a code kept as they are: the scheme and ``www.`` of a URL, the top-level domain of an
    e-mail address or URL, currency codes are not codes (QUANTITY keeps letters anyway)."""
    keep: Set[int] = set()
    if "@" in text or "://" in text or text.lower().startswith("www."):
        m = re.match(r"(?i)(?:https?://)?(?:www\.)?", text)
        keep.update(range(m.start(), m.end()))
        tld = re.search(r"\.[A-Za-z]{2,6}(?=/|$)", text)
        if tld:
            keep.update(range(tld.start(), tld.end()))
    return keep


def _number_word_pattern() -> "re.Pattern":
    return re.compile(r"(?i)\b(?:" + "|".join(vocabulary()["number_words"]) + r")\b")


def _has_number_word(text: str) -> bool:
    return _number_word_pattern().search(text) is not None


def _number_words(text: str, rng: random.Random) -> str:
    """``text`` with every number word ("two", "Seventy") replaced by another."""
    words = vocabulary()["number_words"]
    classes = [words[:9], words[9:19], words[19:27], words[27:]]  # one-nine, ten-nineteen, twenty-ninety, big

    def swap(m: re.Match) -> str:
        same = next(c for c in classes if m.group(0).lower() in c)
        return _case_like(m.group(0), rng.choice([w for w in same if w != m.group(0).lower()]))

    return _number_word_pattern().sub(swap, text)


# -- date shifting ----------------------------------------------------------------------------------
def _shift_dates(text: str, days: int):
    """``text`` with every date shifted by ``days`` (same format), and how many dates were shifted."""
    done: List[str] = []  # shifted dates, held out of the text so that later patterns do not see them

    def hold(out: Optional[str], m: re.Match) -> str:
        if out is None:
            return m.group(0)
        done.append(out)
        return f"\x00{chr(0xE000 + len(done) - 1)}\x00"

    def written(m: re.Match) -> str:  # 14 September 2009, September 14, 2009, 14th of Sept. 2009
        day, month = int(m.group("d")), MONTHS[fold(m.group("m").rstrip("."))]
        year = int(m.group("y"))
        new = _add(year, month, min(day, calendar.monthrange(year, month)[1]), days)
        if new is None:
            return hold(None, m)
        return hold(_with_groups(m, d=str(new.day), m=_month_like(m.group("m"), new.month), y=str(new.year)), m)

    def numeric(m: re.Match) -> str:  # 14/09/2009, 14.09.09, 09/14/2009 (month first only when it must be)
        a, b, y = int(m.group("a")), int(m.group("b")), m.group("y")
        month_first = b > 12 >= a
        day, month = (b, a) if month_first else (a, b)
        year = int(y) if len(y) == 4 else (2000 if int(y) < 50 else 1900) + int(y)
        new = _add(year, month, day, days)
        if new is None:
            return hold(None, m)
        first, second = (new.month, new.day) if month_first else (new.day, new.month)
        year_out = str(new.year) if len(y) == 4 else f"{new.year % 100:02d}"
        return hold(
            _with_groups(m, a=f"{first:0{len(m.group('a'))}d}", b=f"{second:0{len(m.group('b'))}d}", y=year_out), m
        )

    def iso(m: re.Match) -> str:
        new = _add(int(m.group("y")), int(m.group("m")), int(m.group("d")), days)
        return hold(None if new is None else new.isoformat(), m)

    def month_year(m: re.Match) -> str:
        total = int(m.group("y")) * 12 + MONTHS[fold(m.group("m").rstrip("."))] - 1 + _months(days)
        return hold(_with_groups(m, m=_month_like(m.group("m"), total % 12 + 1), y=str(total // 12)), m)

    def year(m: re.Match) -> str:
        return hold(str(int(m.group(0)) + _years(days)), m)

    patterns = [
        (rf"(?i)\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{MONTH_RE})\s+(?P<y>\d{{4}})\b", written),
        (rf"(?i)\b(?P<m>{MONTH_RE})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", written),
        (r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b", iso),
        (r"\b(?P<a>\d{1,2})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})\b", numeric),
        (rf"(?i)\b(?P<m>{MONTH_RE})\s+(?P<y>\d{{4}})\b", month_year),
        (r"\b(?:1[5-9]\d\d|20\d\d)\b", year),
    ]
    for pattern, func in patterns:
        text = re.sub(pattern, func, text)
    return re.sub("\x00(.)\x00", lambda m: done[ord(m.group(1)) - 0xE000], text), len(done)


def _with_groups(match: re.Match, /, **values: str) -> str:
    """The match's text with the named groups replaced by ``values``."""
    text, start = match.group(0), match.start()
    for name in sorted(values, key=lambda g: match.start(g), reverse=True):
        a, b = match.start(name) - start, match.end(name) - start
        text = text[:a] + values[name] + text[b:]
    return text


def _add(year: int, month: int, day: int, days: int) -> Optional[dt.date]:
    try:
        return dt.date(year, month, day) + dt.timedelta(days=days)
    except (ValueError, OverflowError):  # not a date (31/02), or out of range
        return None


def _months(days: int) -> int:
    months = round(days / 30.44)
    return months or (1 if days > 0 else -1)


def _years(days: int) -> int:
    years = round(days / 365.25)
    return years or (1 if days > 0 else -1)


def _month_like(original: str, month: int) -> str:
    """Month ``month`` written as ``original`` is (full name, three letters, "Sept.", upper or lower case)."""
    bare = original.rstrip(".")
    name = MONTH_NAMES[month - 1]
    if len(bare) <= 4 and fold(bare) != fold(name):
        name = name[:3]
    return _case_like(bare, name) + original[len(bare) :]
