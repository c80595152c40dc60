"""Synthetic people and direct identifiers, embedded in court-like sentences (seeded, nothing copied).

Every generated record carries the list of the PII strings it contains (``pii``: ``[{"kind", "text"}]``)
so that the checks can look for them in the output and in the logs.
"""

import random
import string
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

FIRST = [
    "Igor",
    "Hope",
    "Will",
    "Ada",
    "Rosa",
    "Tomasz",
    "Aisling",
    "Kwame",
    "Mei",
    "Rahul",
    "Olga",
    "Farid",
    "Grace",
    "Dmitri",
    "Ines",
    "Callum",
    "Yusuf",
    "Nadia",
    "Pieter",
    "Lucia",
]
LAST = [
    "Munteanu",
    "Summers",
    "Power",
    "Quint",
    "Castellano",
    "Wiśniewski",
    "Ní Bhriain",
    "Mensah",
    "Zhou",
    "Raghunathan",
    "Petrova",
    "Haddad",
    "Baker",
    "Volkov",
    "Ferreira",
    "MacAulay",
    "Demir",
    "Karimi",
    "van der Berg",
    "Ortiz",
]
#: names with diacritics
DIACRITIC_NAMES = [
    ("José", "Müller"),
    ("Zoë", "Ó Súilleabháin"),
    ("Łukasz", "Wróbel"),
    ("Søren", "Kierkegård"),
    ("Ana", "Ñúñez"),
]
STREETS = ["Elm Road", "Station Street", "Mill Lane", "Harbour View", "Church Walk", "Kingsway"]
TOWNS = ["Sheffield", "Leeds", "Bristol", "Cardiff", "Norwich", "Preston"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
POSTCODE_AREAS = ["SW1A", "NW1", "M4", "LS6", "B15", "EH8", "CF10", "BS7"]
DOMAINS = ["example.org", "mail.example.com", "example.net", "law-firm.example.co.uk"]


@dataclass
class Person:
    """A synthetic person (``name`` as written in the text, ``target`` as given to the anonymizer)."""

    first: str
    last: str
    case: str = "title"  # title | lower | upper

    @property
    def name(self) -> str:
        """First and last name in the person's case (title, lower or upper)."""
        full = f"{self.first} {self.last}"
        return full.lower() if self.case == "lower" else full.upper() if self.case == "upper" else full

    @property
    def surname(self) -> str:
        """The last name as written in the text."""
        return self.name.split(" ", 1)[1]


@dataclass
class PiiRecord:
    """One input record and the PII strings it contains."""

    id: str
    text: str
    target: Optional[str]
    pii: List[Dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict:
        """The input line of the record: id, text and target (the PII list stays with the suite)."""
        out = {"id": self.id, "text": self.text}
        if self.target is not None:
            out["target"] = self.target
        return out


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXY") for _ in range(n))


def luhn_complete(prefix: str) -> str:
    """``prefix`` + the Luhn check digit (valid card numbers)."""
    total = 0
    for i, ch in enumerate(reversed(prefix)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return prefix + str((10 - total % 10) % 10)


def iban_gb(rng: random.Random) -> str:
    """A GB IBAN with a valid mod-97 check, grouped by four as printed."""
    bban = _letters(rng, 4) + _digits(rng, 14)
    numeric = "".join(str(int(c, 36)) for c in bban + "GB00")
    check = 98 - int(numeric) % 97
    raw = f"GB{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def _phone_uk(rng: random.Random) -> str:
    return rng.choice([f"020 7946 {_digits(rng, 4)}", f"+44 7700 900{_digits(rng, 3)}", f"0161 496 {_digits(rng, 4)}"])


def _card(rng: random.Random) -> str:
    value = luhn_complete("4" + _digits(rng, 14))
    return " ".join(value[i : i + 4] for i in range(0, 16, 4))


def _postcode(rng: random.Random) -> str:
    area = rng.choice(POSTCODE_AREAS)
    return area if rng.random() < 0.3 else f"{area} {rng.randint(1, 9)}{_letters(rng, 2)}"


#: kind -> the identifier, drawn from (rng, first name, surname) — in this order, so a seed always gives the same text
VALUES: Dict[str, Callable[[random.Random, str, str], str]] = {
    "email": lambda r, first, last: f"{first[0]}.{last}{_digits(r, 2)}@{r.choice(DOMAINS)}",
    "phone_uk": lambda r, first, last: _phone_uk(r),
    "phone_us": lambda r, first, last: f"(212) 555-{_digits(r, 4)}",
    "iban": lambda r, first, last: iban_gb(r),
    "card": lambda r, first, last: _card(r),
    "passport": lambda r, first, last: _digits(r, 9),
    "national_id": lambda r, first, last: _letters(r, 2) + _digits(r, 7),
    "ip_private": lambda r, first, last: f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(2, 254)}",
    "ip_public": lambda r, first, last: f"81.{r.randint(2, 250)}.{r.randint(0, 255)}.{r.randint(2, 254)}",
    "url": lambda r, first, last: (
        f"https://www.{last}-{_letters(r, 3).lower()}.example.com/profile/{first}{_digits(r, 3)}"
    ),
    "application_no": lambda r, first, last: f"no. {_digits(r, 5)}/{_digits(r, 2)}",
    "date_of_birth": lambda r, first, last: f"{r.randint(1, 28)} {r.choice(MONTHS)} {r.randint(1940, 1995)}",
    "case_reference": lambda r, first, last: f"{r.randint(2001, 2012)}/{_letters(r, 3)}/{_digits(r, 4)}",
    "postcode": lambda r, first, last: _postcode(r),
    "ni_number": lambda r, first, last: (
        f"{_letters(r, 2)} {_digits(r, 2)} {_digits(r, 2)} {_digits(r, 2)} {r.choice('ABCD')}"
    ),
    "number_plate": lambda r, first, last: f"{_letters(r, 2)}{_digits(r, 2)} {_letters(r, 3)}",
    "address": lambda r, first, last: f"Flat {r.randint(2, 40)}, {r.randint(3, 180)} {r.choice(STREETS)}",
}
#: kind -> the sentence around the identifier (``{value}``); ``{town}``: a random town, drawn after the value
SENTENCES: Dict[str, str] = {
    "email": "Correspondence was sent to the applicant at {value} on several occasions.",
    "phone_uk": "The applicant could be reached by telephone on {value} during the proceedings.",
    "phone_us": "His brother, who lives abroad, gave the number {value} to the police.",
    "iban": "The compensation was to be paid into account {value} held by the applicant.",
    "card": "The applicant's credit card, number {value}, was seized during the search.",
    "passport": "She travelled on passport no. {value}, issued in 2003.",
    "national_id": "The police recorded his identity card number {value} at the border.",
    "ip_private": "The messages were traced to the IP address {value} on the office network.",
    "ip_public": "The provider identified the subscriber of {value} as the applicant.",
    "url": "The applicant published the article on her website {value} in 2009.",
    "application_no": "The case originated in an application ({value}) lodged with the Court.",
    "date_of_birth": "The applicant was born on {value} and lives in {town}.",
    "case_reference": "The county court registered the claim under reference {value}.",
    "postcode": "At the material time the family lived in the {value} area of the city.",
    "ni_number": "His national insurance number, {value}, appeared on the benefit claim.",
    "number_plate": "A witness saw a car with the registration {value} leave the scene.",
    "address": "The applicant rented {value} from a private landlord.",
}
IDENTIFIER_KINDS = list(VALUES)


def identifier(kind: str, rng: random.Random, person: Person) -> Tuple[str, str]:
    """``(identifier string, sentence containing it)`` for a direct identifier of ``kind`` (:data:`VALUES`,
    :data:`SENTENCES`)."""
    if kind not in VALUES:
        raise ValueError(f"unknown identifier kind {kind!r}")
    first, last = person.first.lower(), person.last.lower().replace(" ", "")
    last = "".join(c for c in last if c.isascii() and c.isalpha()) or "user"
    value, sentence = VALUES[kind](rng, first, last), SENTENCES[kind]
    town = rng.choice(TOWNS) if "{town}" in sentence else ""
    return value, sentence.format(value=value, town=town)


def person_record(
    rid: str, person: Person, kinds: List[str], rng: random.Random, with_target: bool = True, extra: str = ""
) -> PiiRecord:
    """A short court-like paragraph about ``person`` with one sentence per identifier kind in ``kinds``."""
    name, surname = person.name, person.surname
    title = rng.choice(["Mr", "Ms", "Dr"])
    sentences = [f"The applicant, {title} {name}, is a national of the respondent State."]
    pii = [{"kind": "name", "text": name}, {"kind": "surname", "text": surname}]
    for kind in kinds:
        value, sentence = identifier(kind, rng, person)
        sentences.append(sentence)
        pii.append({"kind": kind, "text": value})
    sentences.append(f"{surname} appealed against that decision{extra}.")
    return PiiRecord(rid, " ".join(sentences), name if with_target else None, pii)


def identifier_records(seed: int, per_kind: int = 2) -> List[PiiRecord]:
    """Records covering every identifier kind ``per_kind`` times (three kinds per record)."""
    rng = random.Random(seed)
    kinds = []
    for _ in range(per_kind):  # one shuffled round after the other: a kind repeats in a record only at a seam
        kinds += rng.sample(IDENTIFIER_KINDS, len(IDENTIFIER_KINDS))
    records = []
    for i in range(0, len(kinds), 3):
        person = Person(rng.choice(FIRST), rng.choice(LAST))
        records.append(person_record(f"ident-{i // 3:02d}", person, kinds[i : i + 3], rng))
    return records


def name_records(seed: int) -> List[PiiRecord]:
    """Names in title, lower and upper case, with diacritics, and made of ordinary words."""
    rng = random.Random(seed)
    people = [Person("Igor", "Munteanu"), Person("Hope", "Summers"), Person("Will", "Power")]
    people += [Person(first, last) for first, last in DIACRITIC_NAMES]
    people += [Person(rng.choice(FIRST), rng.choice(LAST), case) for case in ("lower", "upper") for _ in range(2)]
    people += [Person(first, last, "upper") for first, last in DIACRITIC_NAMES[:2]]
    return [person_record(f"name-{i:02d}", p, [], rng) for i, p in enumerate(people)]
