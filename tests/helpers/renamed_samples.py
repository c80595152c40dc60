"""The README's court-case sample with the applicant renamed, in varied spellings (issue 13's hostile test).

``renamed_cases(n)`` yields ``(text, full_name, surname)``: the applicant "Andrei Petrescu" (and his
wife's surname, and his e-mail) renamed to one of :data:`NAMES`, the name written as is, in upper case,
in lower case, with a line break inside, or with the surname in upper case.
"""

import itertools
import re

from core_fixtures import SAMPLE

#: given names + surnames: Romanian/Slavic/Turkish diacritics, particles, hyphens, ordinary English words
NAMES = [
    ("Igor", "Munteanu"),
    ("Ștefan", "Țurcanu"),
    ("Zoë", "Łukasiewicz"),
    ("Hope", "Summers"),
    ("Will", "Power"),
    ("José María", "Núñez"),
    ("Ahmet", "Yılmaz"),
    ("Anne-Marie", "Van der Berg"),
    ("Grace", "Church"),
    ("Mark", "Fisher"),
    ("Ion", "Rusu-Ciobanu"),
    ("Olga", "Černá"),
    ("Sean", "O'Brien"),
    ("Rose", "Miller"),
    ("Dmitri", "Ivanov"),
    ("Chloé", "Lefèvre"),
    ("Jack", "Frost"),
    ("Nguyen", "Van An"),
    ("Ana", "Mocanu"),
    ("Victor", "Hall"),
    ("Li", "Wei"),
    ("Faith", "Young"),
]
STYLES = ("as_is", "upper", "lower", "line_break", "upper_surname")


def spell(given: str, surname: str, style: str):
    """(full name, surname) as written in the text for one style."""
    if style == "upper":
        return f"{given} {surname}".upper(), surname.upper()
    if style == "lower":
        return f"{given} {surname}".lower(), surname.lower()
    if style == "line_break":
        return f"{given}\n{surname}", surname
    if style == "upper_surname":
        return f"{given} {surname.upper()}", surname.upper()
    return f"{given} {surname}", surname


def renamed_cases(n: int):
    """``n`` renamed copies of the sample: (text, full name as given by a user, surname)."""
    sample = SAMPLE.read_text(encoding="utf-8")
    combos = itertools.cycle(itertools.product(NAMES, STYLES))
    for _ in range(n):
        (given, surname), style = next(combos)
        full_written, surname_written = spell(given, surname, style)
        text = sample.replace("Andrei Petrescu", full_written).replace("Petrescu", surname_written)
        text = text.replace("a.petrescu@", re.sub(r"\W+", "", given.lower())[:1] + ".mail@")
        yield text, f"{given} {surname}", surname


def survives(output: str, name: str) -> bool:
    """True if every word of ``name`` survives together (any case, diacritics folded, any whitespace)."""
    from textanon.detect.target import fold

    words = [re.escape(w) for w in fold(name).split()]
    return re.search(r"(?<!\w)" + r"[\s,]+".join(words) + r"(?!\w)", fold(output)) is not None
