"""The ``pseudonym`` replacement style: a realistic surrogate of the same type for every masked mention.

Keyed: every surrogate and the date shift are drawn from HMAC-SHA256 under a key derived (scrypt,
:func:`textanon.render.user_key.derive`, purpose ``"pseudonym"``) from the user's secret: the ``key`` given (the
mapping key, ``--pseudonym-key``, ``--key-file`` or ``$TEXTANON_MAPPING_KEY``: :func:`read_key`). Without a secret a
random one is drawn (``random_key``: the optimizer records on the Doc that such surrogates cannot be reproduced).
Nobody without the secret can recompute a surrogate, the date shift or test a guessed original. ``seed`` is public:
it is mixed with the secret (another seed, other surrogates under the same key) and reproduces nothing alone.

One entity, one surrogate: called with the entity's canonical form (``entity``: its longest mention, the entity
linker's grouping), the canonical form is pseudonymized first and every mention follows it, whatever its form:
``Mr Galip Yalman`` / ``Yalman's`` / ``G. Yalman`` / ``YALMAN`` -> ``Mr Peter Hall`` / ``Hall's`` / ``P. Hall`` /
``HALL`` (titles kept as written, possessive and letter case follow the mention, initials the surrogate's); a mention
labelled otherwise than its entity gets the entity's type.

* PERSON: given names and surnames from Faker's ``en_GB`` person lists (Faker, seeded by the HMAC of the key and the
  original: realistic, frequency-weighted, ~180 given names per gender and 500 surnames); a female given name after
  Mrs/Ms/Miss/..., a male one after Mr/Sir/....
* LOC, ORG, capitalized MISC: every proper word replaced by an English place name (the built-in list of
  ``pseudonym_data.json``: real towns read better than Faker's invented ``en_GB`` cities), generic words and
  abbreviations kept (``Balti District Court`` -> ``Oakham District Court``, ``St. Mary's Hospital`` ->
  ``St. Anne's Hospital``: a saint's name after ``St.``/``Saint``); digits (a house number) replaced by digits.
* DEM: a nationality for a capitalized term, an occupation otherwise; lower-case MISC: a generic term (built-in lists;
  the optimizer writes its suppression string instead for a phrase of ordinary words the search risk proposed).
* DATETIME: every date shifted by the same number of days (30 to 730, either way, never a multiple of 7) in its own
  format (``14 September 2009``, ``September 14, 2009``, ``14/09/2009``, ``2009-09-14``, ``14 September``,
  ``September 2009``, a year alone); ranges keep their shape and order (``between 3 and 5 March`` -> both days
  shifted by the same days); weekday names follow the shift (``Monday, 14 September 2009`` names the weekday of the
  new date); month names alone move by the same number of months. Times of day are replaced by another valid time
  (one offset of minutes per document, or corpus, in the same format: ``14:30`` -> ``17:05``, ``2 p.m.``): alone they
  identify little, but privacy first, they do not stay. Other expressions: digits and number words replaced
  (``seventy-two hours``). No date, no time, no digit: the numbered placeholder (``[DATETIME_3]``).
* QUANTITY: the same shape, digits by digits (a leading digit stays non-zero), number words by number words of the
  same kind, magnitude words kept (``USD 2 million`` -> ``USD 7 million``).
* CODE: only the identifier's characters are replaced, in the same shape (a digit by a digit, a letter by a letter of
  the same case, separators kept); the words around it stay (``case no. T20187741`` -> ``case no. X48291035``); an
  e-mail address or URL keeps its scheme and top-level domain.

Stable: the same original (and entity) gets the same surrogate in a whole document (and, with ``scope="corpus"``,
across every document this pseudonymizer sees; :attr:`Pseudonymizer.table` can be saved and loaded to carry it
across runs). In document scope the document's text is mixed in too: one person gets unrelated surrogates in two
documents. Never an original: a surrogate is never equal to its original, never another original's surrogate, never a
word of the document (the document's real names included, whatever their label) nor, in corpus scope, a word of any
original seen so far; a corpus surrogate that is a word of a later document is replaced in that document only.
Offline: Faker's data and the built-in vocabularies.
"""

import calendar
import datetime as dt
import hashlib
import hmac
import json
import os
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple

from faker import Faker

from textanon.detect.given_names import gender_of, given_name
from textanon.detect.identifiers import public_suffix
from textanon.detect.target import PARTICLES, SUFFIXES, TITLES, fold, in_other_script
from textanon.labels import CODE, DATETIME, DEM, LOC, MISC, ORG, PERSON, QUANTITY
from textanon.render.user_key import KEY_ENV, MIN_KEY_CHARS, derive

PSEUDONYM = "pseudonym"
SCOPES = ("document", "corpus")
DATA = Path(__file__).with_name("pseudonym_data.json")
#: the HMAC key's purpose (its scrypt salt): not the hash operator's, not the mapping's
KEY_PURPOSE = "pseudonym"
#: what the Doc is told when the surrogates come from a random secret
RANDOM_KEY_WARNING = (
    "pseudonym: no key given (--pseudonym-key, --key-file or $TEXTANON_MAPPING_KEY), a random one was drawn; "
    "these surrogates cannot be reproduced"
)
FAKER_LOCALE = "en_GB"
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
st saint sts mt ft co bros dept univ assoc hosp
""".split()
)
#: a word after one of these is a saint's name (a given name): ``St. Mary's`` -> ``St. Anne's``
SAINT_WORDS = frozenset({"st", "saint", "sts", "ste"})
MONTH_NAMES = [calendar.month_name[i] for i in range(1, 13)]
MONTHS = {fold(name): i for i, name in enumerate(MONTH_NAMES, 1)}
MONTHS.update({fold(name[:3]): i for i, name in enumerate(MONTH_NAMES, 1)})
MONTHS["sept"] = 9
MONTH_RE = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
WEEKDAYS = [calendar.day_name[i] for i in range(7)]
WEEKDAY_RE = r"\b(?:" + "|".join(f"{d}|{d.upper()}|{d[:3]}|{d[:3].upper()}" for d in WEEKDAYS) + r")\b\.?"
ORDINAL = r"(?:st|nd|rd|th|ST|ND|RD|TH)?"
RANGE_JOIN = r"(?:\s*[-–—]\s*|\s+(?:to|and|until|till|through)\s+)"
#: number words never changed: the magnitude of an amount (``USD 2 million`` -> ``USD 7 million``)
MAGNITUDE_WORDS = frozenset({"hundred", "thousand", "million", "billion", "trillion"})
MAX_TRIES = 200


@lru_cache(maxsize=1)
def vocabulary() -> Dict[str, List[str]]:
    """The built-in surrogate lists (given names, surnames, places, nationalities, occupations, terms)."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


@lru_cache(maxsize=1)
def _faker():
    return Faker(FAKER_LOCALE)


@lru_cache(maxsize=1)
def _faker_pools() -> Dict[str, List[str]]:
    """Faker's person lists (every name it may draw), the fallback pools once its draws are all taken."""
    person = _faker().provider("faker.providers.person")
    pools = {
        "given_female": sorted(person.first_names_female),
        "given_male": sorted(person.first_names_male),
        "surnames": sorted(person.last_names),
    }
    pools["given_any"] = sorted(set(pools["given_female"]) | set(pools["given_male"]))
    return pools


#: pool name -> Faker's method (names from Faker; every other pool from the built-in vocabulary)
FAKER_METHODS = {
    "given_female": "first_name_female",
    "given_male": "first_name_male",
    "given_any": "first_name",
    "surnames": "last_name",
}


def read_key(source: Optional[str] = None) -> Optional[str]:
    """The secret of the surrogates: ``source`` ``"$NAME"`` (an environment variable) or a key file's path (its
    first line), else (``source`` None) ``$TEXTANON_MAPPING_KEY``, else None (a random secret). Never the key itself:
    a ``source`` that is neither is an error whose message does not repeat it. Raises ValueError."""
    if source is None:
        key = os.environ.get(KEY_ENV) or None
        where = f"${KEY_ENV}"
    elif source.startswith("$"):
        key = os.environ.get(source[1:]) or None
        where = f"the environment variable {source}"
        if key is None:
            raise ValueError(f"pseudonym_key: {where} is not set")
    else:
        try:
            lines = Path(source).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError, ValueError):
            raise ValueError(
                "pseudonym_key: not a readable key file: a UTF-8 text file whose first line is the secret "
                "(`textanon mapping-key -o FILE` writes one); the setting names a key file or $VARIABLE, never the key"
            ) from None
        key, where = (lines[0].strip() if lines else ""), "the pseudonym key file"
    if key is not None and len(key) < _min_key_chars():
        raise ValueError(f"pseudonym key from {where} is too short (fewer than {_min_key_chars()} characters)")
    return key


def _min_key_chars() -> int:
    """The shortest key accepted: the mapping key's rule (:data:`textanon.render.mapping.MIN_KEY_CHARS`)."""
    return MIN_KEY_CHARS


def _derive(secret: str) -> bytes:
    return derive(secret, KEY_PURPOSE)


class Pseudonymizer:
    """Surrogates for masked mentions (see the module docstring); call :meth:`start_document` per document.

    seed: public, mixed with the secret; scope: ``document`` or ``corpus``; table: a saved surrogate table (corpus
    scope); key: the secret (as long as a mapping key; None: a random one, :attr:`random_key`)."""

    def __init__(
        self,
        seed: int = 0,
        scope: str = "document",
        table: Optional[Dict[str, Dict[str, str]]] = None,
        key: Optional[str] = None,
    ):
        if scope not in SCOPES:
            raise ValueError(f"pseudonym scope must be one of {SCOPES}, got {scope!r}")
        if key is not None and len(key) < _min_key_chars():
            raise ValueError(f"the pseudonym key is too short (fewer than {_min_key_chars()} characters)")
        self.seed, self.scope = int(seed), scope
        #: True when no secret was given: the surrogates of this run cannot be reproduced
        self.random_key = key is None
        self._key = _derive(key if key is not None else os.urandom(32).hex())
        self.table: Dict[str, Dict[str, str]] = {k: dict(v) for k, v in (table or {}).items()}
        self._salt, self._words, self._given, self._surnames = "", set(), set(), set()
        self._doc_words: Set[str] = set()
        #: folded words of every original seen (corpus scope: every document's; a saved table's keys)
        self._originals: Set[str] = set()
        for sub in self.table.values():
            for original in sub:
                self._originals.update(_words(original))
        self._doc_table: Dict[str, Dict[str, str]] = self.table
        self._local: Dict[str, Dict[str, str]] = {}  # this document only: corpus surrogates that are its words
        self._entity_words: Set[str] = set()
        self._taken_cache: Dict[tuple, list] = {}  # :meth:`_cached`
        self._counter = 0
        #: how many mentions, and which surrogates, were written in the current document
        self.drawn, self.written = 0, set()

    def in_corpus(self, table: Optional[Dict[str, Dict[str, str]]] = None, key: Optional[str] = None):
        """A corpus-scope pseudonymizer with ``table``: this one's secret, unless it is random and ``key`` is given
        (the mapping's key)."""
        out = Pseudonymizer(self.seed, "corpus", table, key if self.random_key else None)
        if not self.random_key or key is None:
            out._key, out.random_key = self._key, self.random_key
        return out

    # -- scope --------------------------------------------------------------------------------
    def start_document(self, text: str, person_names: Iterable[str] = ()) -> None:
        """Begin a document: its words (never in a surrogate), the given names of its multi-word person names (a
        given name alone is then replaced as a given name), and, in document scope, fresh surrogates."""
        self._counter = self.drawn = 0
        self.written = set()
        if self.scope == "document":  # fresh tables (a corpus's stay, and so do their cached sets)
            self._taken_cache = {}
        self._given = set()
        self._local = {}
        self._surnames = set()
        for name in person_names:
            words = self._name_words(name)
            self._given.update(fold(_bare(w)) for w in words[:-1] if len(w.rstrip(".")) > 1)
            if len(words) > 1:
                self._surnames.add(fold(_bare(words[-1])))
        self._doc_words = set(re.findall(r"\w+", fold(text)))
        if self.scope == "document":
            self._salt = hashlib.sha256(text.encode("utf-8")).hexdigest()
            self._doc_table = {}
            self._words = self._doc_words
        else:
            self._salt, self._doc_table = "", self.table
            self._words = self._doc_words | self._originals

    def __call__(
        self,
        label: str,
        original: str,
        fallback: Optional[str] = None,
        entity: Optional[str] = None,
        entity_label: Optional[str] = None,
    ) -> str:
        """The surrogate of ``original`` (a mention labelled ``label``); ``entity``/``entity_label``: its entity's
        canonical form and label (the mention follows the entity's surrogate); ``fallback``: what to write where no
        surrogate of the type exists (default: ``[LABEL_n]``)."""
        text = " ".join(original.split())
        label = entity_label or label
        self._remember(text)
        self._entity_words = set()
        out = None
        if entity and fold(" ".join(entity.split())) != fold(text):
            canonical = " ".join(entity.split())
            self._remember(canonical)
            if label == PERSON:  # its given names: a given name alone is replaced as one ("Galip" of "Galip Yalman")
                names = [fold(_bare(w)) for w in self._name_words(canonical)]
                self._entity_words = {w for w in names[:-1] if len(w) > 1}
            whole = self._one(label, canonical, None)  # the entity's parts first: the mention's words follow them
            part = _same_part(label, text, canonical, whole)
            if in_other_script(text) and not in_other_script(canonical) and whole:
                # the name in its own script ("陈伟玲" of "Ms. Chen Wei-Ling"): the entity's surrogate, its name words
                out = " ".join(self._name_words(whole)) if label == PERSON else whole
            elif part is not None and fold(part) != fold(text):  # "12345/06" of "no. 12345/06": the same digits
                self._doc_table.setdefault("text", {}).setdefault(fold(text), part)
        if out is None:
            out = self._one(label, text, fallback)
        self.drawn += 1
        if out != fallback:
            self.written.add(out)
        return out

    def _one(self, label: str, text: str, fallback: Optional[str]) -> str:
        same_text = self._doc_table.setdefault("text", {})
        local = self._local.setdefault("text", {})
        key = fold(text)
        if key in local:
            return _case_like(text, local[key])
        if key in same_text and not self._collides(same_text[key], text):
            return _case_like(text, same_text[key])  # one text, one surrogate, whatever label ("Balti" LOC / PERSON)
        out = self._surrogate(label, text)
        if out is None or fold(out) == key:
            self._counter += 1
            return fallback or f"[{label}_{self._counter}]"
        (local if key in same_text else same_text)[key] = out
        return out

    def _remember(self, text: str) -> None:
        """An original's words: never a surrogate later in the corpus (corpus scope)."""
        if self.scope == "corpus":
            words = _words(text)
            self._originals.update(words)
            self._words.update(words)

    def _collides(self, surrogate: str, original: str) -> bool:
        """Whether a surrogate from an earlier document is a word of this document (its original's words aside)."""
        return bool((_words(surrogate) - _words(original)) & self._doc_words)

    def _surrogate(self, label: str, text: str) -> Optional[str]:
        if label == PERSON:
            return self._person(text)
        if label in (LOC, ORG) or (label == MISC and text[:1].isupper()):
            return self._proper(text)
        if label == DEM and (re.search(r"\d", text) or _has_number_word(text)):
            return self._shape("dem", text)  # an age ("aged 87", "34F", "fifteen years of age"): another number
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
        # a word in quotes or brackets (a nickname: Robert 'Bobby' Fenwick, Earvin (Magic) Johnson) is a name word
        # inside its marks, which stay: never left as written because of them
        wrapped: Dict[int, Tuple[str, str]] = {}
        for i, piece in enumerate(pieces):
            marks = _WRAPPED.fullmatch(piece)
            if marks and (marks.group(1) or marks.group(3)) and marks.group(2):
                wrapped[i] = (marks.group(1), marks.group(3))
                pieces[i] = marks.group(2)
        words = [i for i, p in enumerate(pieces) if p and not p.isspace() and p != ","]
        titles = [fold(pieces[i].rstrip(".")) for i in words if not self._is_name(pieces[i])]
        gender = "female" if FEMALE_TITLES & set(titles) else "male" if MALE_TITLES & set(titles) else None
        names = [i for i in words if self._is_name(pieces[i])]
        if not names:
            return None
        last = names[-1]
        if gender is None:  # no title says it: the first given name's, so that "his wife Margaret" stays a woman
            given = [_bare(pieces[i]) for i in names if len(_bare(pieces[i])) > 1]
            if given and (len(names) > 1 or self._given_alone(given[0], False)):
                gender = gender_of(given[0])
        for i in names:
            word = pieces[i]
            bare = _bare(word)
            rest = word[len(bare) :]  # "." of an initial, "'s" of a possessive
            if len(bare) == 1:  # an initial: the initial of the surrogate of a given name with that letter
                pieces[i] = self._initial(bare) + rest
            elif i == last and not (len(names) == 1 and self._given_alone(bare, bool(titles))):
                pieces[i] = _case_like(bare, self._pick("surname", bare, "surnames")) + rest
            else:
                lists = {"female": "given_female", "male": "given_male"}.get(gender, "given_any")
                pieces[i] = _case_like(bare, self._pick("given", bare, lists)) + rest
        for i, (opening, closing) in wrapped.items():
            pieces[i] = opening + pieces[i] + closing
        return "".join(pieces)

    def _given_alone(self, word: str, titled: bool) -> bool:
        """A name word written alone is a given name: one of the document's person names' given names, or of the
        mention's entity's ("Galip" of "Galip Yalman"), or, without a title before it ("Dr Morgan" is a surname), a
        given name of the name dictionary that is no surname of the document ("called him Bobby"); else it is taken
        for a surname."""
        folded = fold(word)
        if folded in self._given or folded in self._entity_words:
            return True
        return not titled and folded not in self._surnames and given_name(word)

    @staticmethod
    def _is_name(word: str) -> bool:
        """A name word or an initial (a single letter is always an initial: "M. Yalman", "Mr V. Grosu")."""
        bare = fold(_bare(word))
        if not re.fullmatch(r"[^\W\d_][\w'’-]*", bare):
            return False
        return len(bare) == 1 or bare not in TITLES | SUFFIXES | PARTICLES

    def _name_words(self, name: str) -> List[str]:
        """The name words of ``name``, a nickname's without its marks ('Robert "Bob" Hartley': Robert, Bob, Hartley)."""
        words = [_WRAPPED.fullmatch(w).group(2) for w in " ".join(name.split()).split(" ")]
        return [w for w in words if self._is_name(w)]

    def _initial(self, letter: str) -> str:
        table = {**self._doc_table.get("given", {}), **self._local.get("given", {})}
        known = sorted(table.items(), key=lambda kv: (kv[0] not in self._entity_words, kv[0]))
        for key, surrogate in known:  # the entity's own given name first ("G. Yalman" of "Galip Yalman")
            if key[:1] == fold(letter) and (key in self._given or key in self._entity_words):
                return surrogate[0].upper() if letter.isupper() else surrogate[0].lower()
        rng = self._rng("initial", letter)
        choices = [c for c in "ABCDEFGHJKLMNPRSTW" if c != letter.upper()]
        return rng.choice(choices) if letter.isupper() else rng.choice(choices).lower()

    # -- places, organisations, named things ----------------------------------------------------
    def _proper(self, text: str) -> Optional[str]:
        pieces = re.split(r"(\s+|-)", text)
        changed = False
        previous = ""
        for i, word in enumerate(pieces):
            if not word or word.isspace() or word == "-":
                continue
            bare = _bare(word).strip(".,;:()")
            after_saint = previous in SAINT_WORDS
            previous = fold(bare)
            if re.search(r"\d", bare):  # a house number, "Building 7", a postcode: digits drawn one by one, and the
                # letters glued to them ("12a", "CF10", a handle "jessm_95": nothing of the original word stays)
                rng = self._rng("number", word)
                pieces[i] = "".join(_same_class(c, rng, True, _leading(word, k)) for k, c in enumerate(word))
                changed = changed or pieces[i] != word
                continue
            if not bare or not bare[:1].isalpha() or fold(bare) in GENERIC_WORDS or not bare[:1].isupper():
                continue
            if after_saint:
                surrogate = self._pick("given", bare, "given_any")
            else:
                surrogate = self._pick("place", bare, "places")
            pieces[i] = word.replace(bare, _case_like(bare, surrogate), 1)
            changed = True
        if not changed:  # only generic words ("the Government"): name it after a place ("the Ripon Government")
            head, rest = (text[:4], text[4:]) if fold(text[:4]) == "the " else ("", text)
            return f"{head}{self._pick('place', text, 'places')} {rest}"
        return "".join(pieces)

    # -- dates --------------------------------------------------------------------------------
    def _datetime(self, text: str) -> Optional[str]:
        shift = self._shift_days()
        out, n = _shift_dates(text, shift, self._shift_minutes())
        if n:
            return out
        if re.search(r"\d", text) or _has_number_word(text):  # "seventy-two hours", "3 weeks"
            return self._shape("datetime", text)
        return None

    def _shift_days(self) -> int:
        """The document's (corpus's) date shift: 30 to 730 days either way, never a whole number of weeks (a
        weekday alone always changes)."""
        rng = self._rng("date-shift", "")
        days = rng.randint(30, 730)
        days += days % 7 == 0
        return days if rng.random() < 0.5 else -days

    def _shift_minutes(self) -> int:
        """The document's (corpus's) time-of-day offset: 1 to 1439 minutes, never a whole day."""
        return self._rng("time-shift", "").randint(1, 24 * 60 - 1)

    # -- numbers and codes ----------------------------------------------------------------------
    def _shape(self, kind: str, text: str) -> Optional[str]:
        """Digits replaced by digits (and, in a code, the identifier's letters by letters of the same case), number
        words by others of their kind; None if nothing can change (no digit, no number word, no identifier)."""
        key = text
        table = self._doc_table.setdefault(kind, {})
        if key in table:
            return table[key]
        letters = kind == "code"
        if not re.search(r"[A-Za-z0-9]" if letters else r"\d", text) and not _has_number_word(text):
            return None
        keep = _kept_parts(text) if letters else set()
        used = self._cached("values", table, lambda t: set(t.values()))
        rng = self._rng(kind, key)
        for _ in range(MAX_TRIES):
            out = "".join(
                c if i in keep else _same_class(c, rng, letters, _leading(text, i)) for i, c in enumerate(text)
            )
            out = _number_words(out, rng)
            if out != text and out not in used:
                table[key] = out
                self._synced("values", table, out)
                return out
        return None

    # -- drawing ------------------------------------------------------------------------------
    def _pick(self, kind: str, original: str, lists: str) -> str:
        """The surrogate of ``original`` among ``lists`` (a Faker pool of :data:`FAKER_METHODS` or a vocabulary)."""
        key = fold(" ".join(original.split()))
        table = self._doc_table.setdefault(kind, {})
        local = self._local.setdefault(kind, {})
        if key in local:
            return local[key]
        if key in table and not self._collides(table[key], original):
            return table[key]
        target = local if key in table else table  # a corpus surrogate that is a word of this document: not here
        taken = self._cached("taken", table, _taken)  # folded surrogates and originals of the table
        used = {fold(v) for v in local.values()}
        rng = self._rng(kind, key)
        for candidate in self._candidates(lists, rng):
            folded = fold(candidate)
            if folded == key or folded in taken or folded in used or set(re.findall(r"\w+", folded)) & self._words:
                continue
            target[key] = candidate
            if target is table:
                self._synced("taken", table, folded, key)
            return candidate
        pool = self._pool(lists)
        target[key] = f"{pool[0]} {len(table) + len(local) + 1}"  # every candidate taken: distinct, not the original
        self._taken_cache.clear()
        return target[key]

    def _cached(self, name: str, table: Dict[str, str], build) -> Set[str]:
        """``build(table)``, kept while ``table`` keeps its size (each insertion adds to it in place): a corpus table
        of 100,000 entries is not read again for every new surrogate."""
        entry = self._taken_cache.get((name, id(table)))
        if entry is None or entry[0] is not table or entry[1] != len(table):
            entry = [table, len(table), build(table)]
            self._taken_cache[(name, id(table))] = entry
        return entry[2]

    def _synced(self, name: str, table: Dict[str, str], *items: str) -> None:
        """Add ``items`` to :meth:`_cached`'s set of ``table``, which has just received one entry."""
        entry = self._taken_cache.get((name, id(table)))
        if entry is not None and entry[0] is table:
            entry[2].update(items)
            entry[1] = len(table)

    def _pool(self, lists: str) -> List[str]:
        if lists in FAKER_METHODS:
            return list(_faker_pools()[lists])
        vocab = vocabulary()
        return list(vocab[lists])

    def _candidates(self, lists: str, rng: random.Random) -> Iterator[str]:
        """Faker's draws (seeded by ``rng``) for a name, then the whole pool shuffled by ``rng``, then
        double-barrelled pairs (so that a surrogate is always found)."""
        if lists in FAKER_METHODS:
            fake, method = _faker(), FAKER_METHODS[lists]
            fake.seed_instance(rng.getrandbits(64))
            draw = getattr(fake, method)
            for _ in range(40):
                yield draw()
        pool = self._pool(lists)
        rng.shuffle(pool)
        yield from pool
        for _ in range(MAX_TRIES):
            yield f"{rng.choice(pool)}-{rng.choice(pool)}"

    def _rng(self, kind: str, key: str) -> random.Random:
        """A generator seeded by HMAC-SHA256(secret-derived key, seed | document | kind | original)."""
        message = f"{self.seed}\x00{self._salt}\x00{kind}\x00{key}".encode("utf-8")
        return random.Random(hmac.new(self._key, message, hashlib.sha256).digest())


def _same_part(label: str, text: str, canonical: str, whole: str) -> Optional[str]:
    """A code's or an amount's surrogate as the part of its entity's surrogate that stands where ``text`` stands in
    ``canonical`` (shape-keeping surrogates only: same length); None otherwise."""
    if label not in (CODE, QUANTITY) or len(whole) != len(canonical):
        return None
    at = canonical.find(text)
    return whole[at : at + len(text)] if at >= 0 else None


def _taken(table: Dict[str, str]) -> Set[str]:
    """The folded surrogates and the originals of a surrogate table: never another original's surrogate."""
    return {fold(v) for v in table.values()} | set(table)


#: quotation marks or brackets around a word: (opening, the word, closing)
_WRAPPED = re.compile(r"([\"“”‘’'(\[]*)(.*?)([\"“”‘’')\]]*)")


def _bare(word: str) -> str:
    """A word without its possessive (``Yalman's``, ``YALMAN’S``, ``Jones'``) and final full stop."""
    word = re.sub(r"(?i)['’]s$|(?<=s)['’]$", "", word)
    return word.rstrip(".")


def _words(text: str) -> Set[str]:
    """The folded words of ``text`` (letters; a single letter is no word)."""
    return {w for w in re.findall(r"[^\W\d_]+", fold(text)) if len(w) > 1}


def _case_like(original: str, surrogate: str) -> str:
    """``surrogate`` in the letter case of ``original`` (UPPER, lower or as written)."""
    if original.isupper() and len(original) > 1:
        return surrogate.upper()
    if original.islower():
        return surrogate.lower()
    return surrogate


def _leading(text: str, i: int) -> bool:
    """Whether ``text[i]`` is the first digit of a number (not after a digit, nor after a digit and a separator)."""
    return i == 0 or not (text[i - 1].isdigit() or (text[i - 1] in ",." and i > 1 and text[i - 2].isdigit()))


def _same_class(c: str, rng: random.Random, letters: bool, leading: bool = False) -> str:
    if c.isdigit() and c.isascii():
        return str(rng.randint(1, 9)) if leading and c != "0" else str(rng.randint(0, 9))
    if letters and c.isalpha() and c.isascii():
        letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
        return letter.upper() if c.isupper() else letter
    return c


def _kept_parts(text: str) -> Set[int]:
    """Positions of a code kept as they are: the words around the identifier (``case no.``: a word with no digit,
    written in lower or title case, when another word has a digit), the scheme and ``www.`` of a URL, the top-level
    domain of an e-mail address or URL (a public suffix: a handle's "@lena.vogel" keeps nothing of "vogel")."""
    keep: Set[int] = set()
    tokens = list(re.finditer(r"\S+", text))
    identifier = [bool(re.search(r"\d|@|://|^www\.", t.group(0), re.I)) for t in tokens]
    if any(identifier):
        for token, is_id in zip(tokens, identifier):
            letters = re.sub(r"[^A-Za-z]", "", token.group(0))
            if not is_id and not (letters.isupper() and len(letters) > 1):  # "case", "no.", "Application"; not "GB"
                keep.update(range(token.start(), token.end()))
    if re.search(r"\w@", text) or "://" in text or text.lower().startswith("www."):
        m = re.search(r"(?i)(?:https?://)?(?:www\.)?", text)
        keep.update(range(m.start(), m.end()))
        for tld in re.finditer(r"\.[A-Za-z]{2,6}(?=/|$|\s)", text):
            host = re.findall(r"[\w-]+(?:\.[\w-]+)*$", text[: tld.end()])
            if host and public_suffix(host[-1]):  # a real top-level domain: ".com", never a handle's ".vogel"
                keep.update(range(tld.start(), tld.end()))
    return keep


def _number_word_pattern() -> "re.Pattern":
    return re.compile(r"(?i)\b(?:" + "|".join(vocabulary()["number_words"]) + r")\b")


def _has_number_word(text: str) -> bool:
    return _number_word_pattern().search(text) is not None


def _number_words(text: str, rng: random.Random) -> str:
    """``text`` with every number word ("two", "Seventy") replaced by another of its kind; magnitude words
    (:data:`MAGNITUDE_WORDS`) kept."""
    words = vocabulary()["number_words"]
    classes = [words[:9], words[9:19], words[19:27]]  # one-nine, ten-nineteen, twenty-ninety

    def swap(m: re.Match) -> str:
        same = next((c for c in classes if m.group(0).lower() in c), None)
        if same is None:  # hundred, thousand, million: the magnitude stays
            return m.group(0)
        return _case_like(m.group(0), rng.choice([w for w in same if w != m.group(0).lower()]))

    return _number_word_pattern().sub(swap, text)


# -- date shifting ----------------------------------------------------------------------------------
def _shift_dates(text: str, days: int, minutes: int = 0) -> Tuple[str, int]:
    """``text`` with every date shifted by ``days`` and every time of day by ``minutes`` (same formats), and how
    many were shifted."""
    done: List[str] = []  # shifted dates, held out of the text so that later patterns do not see them

    def hold(out: Optional[str], m: re.Match) -> str:
        if out is None:
            return m.group(0)
        done.append(out)
        return f"\x00{chr(0xE000 + len(done) - 1)}\x00"

    def written(m: re.Match) -> str:  # 14 September 2009, September 14, 2009, 14th of Sept. 2009, 14 September
        month = MONTHS[fold(m.group("m").rstrip("."))]
        year = int(m.group("y")) if m.groupdict().get("y") else _any_year(month, int(m.group("d")))
        new = _add(year, month, min(int(m.group("d")), calendar.monthrange(year, month)[1]), days)
        if new is None:
            return hold(None, m)
        values = {"d": str(new.day), "m": _month_like(m.group("m"), new.month)}
        if m.group("o"):
            values["o"] = _ordinal_like(m.group("o"), new.day)
        if m.groupdict().get("y"):
            values["y"] = str(new.year)
        return hold(_with_groups(m, **values), m)

    def day_range(m: re.Match) -> str:  # 3 and 5 March (2009), 3-5 March, March 3-5(, 2009)
        month = MONTHS[fold(m.group("m").rstrip("."))]
        year = int(m.group("y")) if m.group("y") else _any_year(month, max(int(m.group("d1")), int(m.group("d2"))))
        last = calendar.monthrange(year, month)[1]
        first, second = (_add(year, month, min(int(m.group(g)), last), days) for g in ("d1", "d2"))
        if first is None or second is None:
            return hold(None, m)
        if (first.year, first.month) == (second.year, second.month):  # the same shape
            values = {"d1": str(first.day), "d2": str(second.day), "m": _month_like(m.group("m"), first.month)}
            for group, day in (("o1", first.day), ("o2", second.day)):
                if m.group(group):
                    values[group] = _ordinal_like(m.group(group), day)
            if m.group("y"):
                values["y"] = str(first.year)
            return hold(_with_groups(m, **values), m)
        # the range now spans two months: each day with its month ("30 January and 2 February")
        name1, name2 = (_month_like(m.group("m"), d.month) for d in (first, second))
        year1 = f" {first.year}" if m.group("y") and first.year != second.year else ""
        year2 = f" {second.year}" if m.group("y") else ""
        if m.group(0)[:1].isdigit():
            o1, o2 = (
                _ordinal_like(m.group(g), d.day) if m.group(g) else "" for g, d in (("o1", first), ("o2", second))
            )
            return hold(f"{first.day}{o1} {name1}{year1}{m.group('j')}{second.day}{o2} {name2}{year2}", m)
        comma = "," if m.group("y") and "," in m.group(0) else ""
        return hold(f"{name1} {first.day}{year1}{m.group('j')}{name2} {second.day}{comma}{year2}", m)

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

    def clock(m: re.Match) -> str:  # 14:30, 9.05 a.m., 2 p.m.
        mi = m.groupdict().get("mi")
        hour, minute, ampm = int(m.group("h")), int(mi or 0), m.group("ap")
        if ampm:
            if hour > 12 or hour == 0:
                return hold(None, m)
            hour = hour % 12 + (12 if ampm.lower().startswith("p") else 0)
        total = (hour * 60 + minute + (minutes if mi else round(minutes / 60) * 60 or 60)) % (24 * 60)
        new_h, new_mi = divmod(total, 60)
        values = {}
        if ampm:
            values["ap"] = _ampm_like(ampm, new_h >= 12)
            new_h = new_h % 12 or 12
        values["h"] = f"{new_h:0{len(m.group('h'))}d}" if m.group("h")[:1] == "0" or not ampm else str(new_h)
        if mi:
            values["mi"] = f"{new_mi:02d}"
        return hold(_with_groups(m, **values), m)

    def weekday(m: re.Match) -> str:  # a weekday moves with the date: weekday(date + days) = weekday(date) + days
        bare = m.group(0).rstrip(".")
        k = next(i for i, d in enumerate(WEEKDAYS) if fold(d).startswith(fold(bare)))
        new = WEEKDAYS[(k + days) % 7]
        return hold(_case_like(bare, new if len(bare) > 3 else new[:3]) + m.group(0)[len(bare) :], m)

    def lone_month(m: re.Match) -> str:  # "between March and May 2009": March moves as May 2009 does
        month = MONTHS[fold(m.group(0).rstrip("."))]
        return hold(_month_like(m.group(0), (month - 1 + _months(days)) % 12 + 1), m)

    d, y = r"(?P<d>\d{1,2})(?P<o>st|nd|rd|th)?", r"(?P<y>\d{4})"
    rng_days = (
        rf"(?P<d1>\d{{1,2}})(?P<o1>{ORDINAL}){RANGE_JOIN.replace('(?:', '(?P<j>', 1)}(?P<d2>\d{{1,2}})(?P<o2>{ORDINAL})"
    )
    patterns = [
        (rf"(?i)\b{rng_days}\s+(?:of\s+)?(?P<m>{MONTH_RE})(?:,?\s+{y})?\b", day_range),
        (
            rf"(?i)\b(?P<m>{MONTH_RE})\s+(?P<d1>\d{{1,2}})(?P<o1>{ORDINAL})"
            rf"{RANGE_JOIN.replace('(?:', '(?P<j>', 1)}(?P<d2>\d{{1,2}})(?P<o2>{ORDINAL})(?:,?\s+{y})?\b",
            day_range,
        ),
        (rf"(?i)\b{d}\s+(?:of\s+)?(?P<m>{MONTH_RE})\s+{y}\b", written),
        (rf"(?i)\b(?P<m>{MONTH_RE})\s+{d},?\s+{y}\b", written),
        (r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b", iso),
        (r"\b(?P<a>\d{1,2})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})\b", numeric),
        (rf"(?i)\b(?P<m>{MONTH_RE})\s+{y}\b", month_year),
        (rf"(?i)\b{d}\s+(?:of\s+)?(?P<m>{MONTH_RE})(?!\w)", written),
        (rf"(?i)\b(?P<m>{MONTH_RE})\s+{d}(?![\w:]|\.\d)", written),
        (r"\b(?:1[5-9]\d\d|20\d\d)\b", year),
        (r"(?i)\b(?P<h>[01]?\d|2[0-3])(?:[:.h](?P<mi>[0-5]\d))(?:\s*(?P<ap>[ap]\.?m\b\.?))?", clock),
        (r"(?i)\b(?P<h>1[0-2]|0?[1-9])\s*(?P<ap>[ap]\.?m\b\.?)", clock),
        (WEEKDAY_RE, weekday),
        (r"\b(?:" + "|".join(MONTH_NAMES) + r")\b", lone_month),
    ]
    for pattern, func in patterns:
        text = re.sub(pattern, func, text)
    return re.sub("\x00(.)\x00", lambda m: done[ord(m.group(1)) - 0xE000], text), len(done)


def _ordinal_like(original: str, day: int) -> str:
    """The ordinal suffix of ``day`` ("st", "nd", "rd", "th") in the letter case of ``original``."""
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return _case_like(original, suffix)


def _any_year(month: int, day: int) -> int:
    """A year for a date written without one: a leap year only for 29 February."""
    return 2000 if (month, day) == (2, 29) else 2001


def _ampm_like(original: str, pm: bool) -> str:
    """``a.m.``/``pm``/``AM`` written as ``original`` is, for the morning or the afternoon."""
    return original.replace("a", "p").replace("A", "P") if pm else original.replace("p", "a").replace("P", "A")


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
    if fold(bare) not in {fold(n) for n in MONTH_NAMES}:  # "Sept", "Mar": abbreviated
        name = name[:3]
    return _case_like(bare, name) + original[len(bare) :]
