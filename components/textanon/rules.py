"""Regular-expression rules for CODE, PERSON, DATETIME and QUANTITY mentions that statistical NER misses.

Each rule is ``(label, name, pattern)``; the name is recorded in ``span._.source`` as ``rule:<name>``.
Patterns are applied to the raw text and snapped outwards to token boundaries (a pattern that scans a
run of characters starts only where the run starts, so that hostile input stays linear); a pattern with a group
named ``span`` yields that group only (the rest is context, e.g. the "née" before a maiden name).

CODE rules are direct identifiers (the optimizer always masks them): application, case and file
references, emails, URLs, IBANs, card and phone numbers, IPv4/IPv6 addresses, UK postcodes (an
outward code alone only in an address context), national-insurance numbers, vehicle number plates,
house/flat numbers in addresses, and any code after "no."/"number"/"passport"/"ID"... A number after
"no." is dropped only when the word before is a legal text ("Law no. 123", "Protocol No. 11"):
:data:`LEGAL_TEXT_WORDS`; "Article 6 § 1" is no code at all. PERSON rules: a name after a title
("Ms Hope Summers", "Mr Will Power": capitalized words, whatever they mean) and a maiden name after
"née".
"""

import re
from typing import Iterator, List, Optional, Pattern, Tuple

from .target import NAME_LIKE_WORDS, RULE_TITLES, fold

MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
CURRENCY_CODES = (
    r"(?:EUR|USD|GBP|CHF|TRY|RUB|PLN|UAH|RON|BGN|HUF|CZK|SEK|NOK|DKK|HRK|ATS|DEM|FRF|ITL|ESP|GRD|YTL|TRL|SIT|SKK)"
)
CURRENCY_WORDS = (
    r"(?:euros?|dollars?|pounds?(?: sterling)?|francs?|lira|liras|lire|roubles?|rubles?|zlotys?|"
    r"hryvnias?|marks?|drachmas?|pesetas?|schillings?|kroner|kronor|forints?|lei|levs?|korunas?|kunas?|tolars?|"
    r"US dollars)"
)
NUMBER = r"\d{1,3}(?:[,. ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
#: upper-case letters, ASCII and Latin-1/Latin Extended-A/B ("Ștefan", "Łukasz", "Émile")
UPPER = "A-Z" + "".join(c for c in map(chr, range(0xC0, 0x250)) if c.isupper() and c.lower() != c)
NAME_WORD = rf"[{UPPER}][\w'’]*(?:-[{UPPER}][\w'’]*)?"
ANY_WORD = r"[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)?"
#: a title before a name (:data:`textanon.target.RULE_TITLES`), capitalized, or in upper case for the usual four
NAME_TITLES = (
    "(?:"
    + "|".join(sorted({t.capitalize() for t in RULE_TITLES} | {"MR", "MRS", "MS", "DR"}, key=lambda t: (-len(t), t)))
    + ")"
)
#: one space, or one line break, between two words of a name
NAME_GAP = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
HEX4 = r"[0-9A-Fa-f]{1,4}"
#: street-type words after which a preceding number is a house number ("12 Baker Street")
STREET_WORDS = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Close|Place|Square|Sq|Terrace|Way|Crescent|"
    r"Gardens|Boulevard|Blvd|Mews|Grove|Parade|Strasse|Straße|Rue|Via|Calle|Strada|Str)"
)
#: labels after which an alphanumeric run is an identifier ("passport no. 123456789", "ID No 123")
ID_LABELS = (
    r"(?:[Pp]assport|[Ii]dentity [Cc]ard|ID [Cc]ard|ID|I\.D\.|[Ll]icen[cs]e|[Aa]ccount|[Rr]ef(?:erence)?|"
    r"[Mm]embership|[Cc]ustomer|[Pp]olicy|[Tt]ax|[Ss]ocial [Ss]ecurity|SSN|NINO|[Nn]ational [Ii]nsurance|NI|"
    r"[Pp]ersonal|[Rr]egistration|[Vv]ehicle|[Pp]late|[Ss]ort [Cc]ode|[Cc]ase|[Ff]ile|[Aa]pplication|[Cc]laim)"
)
#: an identifier: starts with a capital letter or digit, may continue over single spaces ("QQ 12 34 56 C")
CODE_RUN = r"[A-Z0-9][A-Z0-9/.-]*(?:\s[A-Z0-9/.-]+\b)*"
#: a number after "no." is a reference into a legal text when one of these words comes before "no."
LEGAL_TEXT_WORDS = frozenset(
    {
        "law",
        "laws",
        "act",
        "acts",
        "protocol",
        "protocols",
        "decree",
        "decrees",
        "resolution",
        "directive",
        "regulation",
        "ordinance",
        "constitution",
        "treaty",
        "convention",
        "article",
        "articles",
        "rule",
        "rules",
        "section",
        "paragraph",
        "recommendation",
    }
)

#: CODE rules (identifiers), name -> pattern
CODE_PATTERNS = {
    "application_number": r"(?<![/.])\b\d{1,6}/\d{2,4}\b(?![/.]\d)",
    "email": r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b",
    "url": r"\b(?:https?://|www\.)[^\s<>\"')]+[^\s<>\"').,;:]",
    "iban": r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b",
    "phone": r"(?<![\w/])\+?\(?\d{2,4}\)?[ .-]\d{2,4}[ .-]\d{2,6}(?:[ .-]\d{2,4})?\b(?!/)",
    # letters and at least three digits, e.g. passport "AB1234567" (not "COVID-19")
    "id_number": r"\b(?=(?:[A-Z-]*\d){3})(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{2,}(?:-[A-Z0-9]+)*\b",
    "case_reference": (
        r"\b(?:[Cc]ase|[Ff]ile|[Dd]ecision|[Rr]eference|[Rr]eg(?:istration)?)\s+(?:[Nn]o\.?|[Nn]umber)"
        r"\s*[A-Z0-9][\w./-]*\d[\w./-]*"
    ),
    # a reference with a slash, letters and digits: "2006/SHF/1123", "AB/123"
    "slash_reference": (
        r"(?<![\w/.-])(?=[\w/.-]*?[A-Za-z])(?=[\w/.-]*?\d)[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*"
        r"(?:/[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*)+\b"
    ),
    # whatever follows "no."/"number"/"#" and contains a digit ("passport no. 123456789"; see LEGAL_TEXT_WORDS)
    "number_after_no": (
        r"(?:\b(?:[Nn]o|NO|[Nn]os|[Nn]r|[Nn]um|[Nn]umber)\b\.?|#)\s*:?\s*"
        r"(?P<span>(?=[A-Z0-9/.-]*\d)" + CODE_RUN + ")"
    ),
    "labelled_identifier": (
        r"\b" + ID_LABELS + r"\s*(?:[Nn]o\.?|[Nn]os\.?|[Nn]umber|[Nn]r\.?|#|[Cc]ode)?"
        r"\s*:?\s*(?P<span>(?=[A-Z0-9/.-]*\d)" + CODE_RUN + ")"
    ),
    "card_number": r"\b\d{4}(?:[ -]?\d{4}){2,3}(?:[ -]?\d{1,3})?\b",
    "ipv4": r"\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b",
    "ipv6": (
        rf"(?<![\w:])(?:(?:{HEX4}:){{7}}{HEX4}|(?:{HEX4}:){{1,6}}:(?:{HEX4}(?::{HEX4}){{0,5}})?"
        rf"|::{HEX4}(?::{HEX4}){{0,6}})(?![\w:])"
    ),
    "uk_postcode": r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b",
    # an outward code alone ("NW1") after a town, a street or "postcode"
    "uk_outward_code": (
        r"(?:\b(?:London|[Pp]ost ?[Cc]ode:?)\s+|"
        + STREET_WORDS
        + r",\s*(?:[A-Z][a-z]+,?\s+)?)(?P<span>[A-Z]{1,2}\d{1,2}[A-Z]?)\b"
    ),
    "national_insurance": r"\b[A-Z]{2} ?\d{2} ?\d{2} ?\d{2}(?: ?[A-D])?\b",
    # vehicle plates: UK "AB12 CDE", RO "B 123 ABC", FR/IT "AB-123-CD", ES "1234 BCD", DE "M-AB 1234", NL "12-ABC-3"
    "plate_uk_ro": r"\b[A-Z]{1,2}[- ]?\d{2,3}[- ]?[A-Z]{3}\b",
    "plate_fr_it": r"\b[A-Z]{2}[- ]?\d{3}[- ]?[A-Z]{2}\b",
    "plate_es": r"\b\d{4}[- ]?[B-DF-HJ-NP-TV-Z]{3}\b",
    "plate_de": r"\b[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} ?\d{1,4}[EH]?\b",
    "plate_nl": r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{1,3}-[A-Z0-9]{2,3}-[A-Z0-9]{1,3}\b",
    # house and flat numbers: "Flat 3", "Apartment 12B", "12 Baker Street" (the number)
    "flat_number": (
        r"\b(?:[Ff]lat|[Aa]partment|[Aa]pt\.?|[Uu]nit|[Ss]uite|[Hh]ouse|[Bb]lock|[Ff]loor)\s+"
        r"(?P<span>\d+[A-Za-z]?)\b"
    ),
    "house_number": r"\b(?P<span>\d{1,4}[A-Za-z]?)(?:-\d{1,4})?,?\s+(?:[A-Z][\w'’-]+\s+){1,3}" + STREET_WORDS + r"\b",
}
#: PERSON rules: a name after a title, a maiden name after "née"
#: (the words are trimmed by _titled_name: "Mr Igor Munteanu", "Mr igor munteanu", not "Mr Igor was")
PERSON_PATTERNS = {
    "titled_name": (
        rf"\b{NAME_TITLES}\.?{NAME_GAP}(?:[A-Z]\.\s*)*(?P<words>{ANY_WORD}(?:{NAME_GAP}{ANY_WORD}){{0,2}})"
    ),
    "maiden_name": r"\b(?:née|nee|Née|NÉE)\s+(?P<span>" + NAME_WORD + r")",
}
DATETIME_PATTERNS = {
    "day_month_year": rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTHS}(?:\s+\d{{4}})?\b",
    "month_day_year": rf"\b{MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b",
    "month_year": rf"\b{MONTHS}\s+\d{{4}}\b",
    "numeric_date": r"\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b|\b\d{4}-\d{2}-\d{2}\b",
    "year": r"\b(?:1[6-9]|20)\d{2}s?\b",
    "clock_time": r"\b\d{1,2}(?:[.:]\d{2})\s*(?:a\.m\.|p\.m\.|am|pm|hours|h)?(?!\w)|\b\d{1,2}\s*(?:a\.m\.|p\.m\.)",
}
QUANTITY_PATTERNS = {
    "money_code_first": rf"\b{CURRENCY_CODES}\s?(?:{NUMBER})(?:\s(?:million|billion))?",
    "money_amount_first": (
        rf"(?<![\d.,])(?:{NUMBER})(?:\s(?:million|billion))?\s?(?:{CURRENCY_CODES}|{CURRENCY_WORDS})\b"
    ),
    "money_iso_code": r"\b[A-Z]{3}\s?\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?",
    "money_symbol": rf"[$€£¥]\s?(?:{NUMBER})(?:\s(?:million|billion))?",
    "percent": rf"(?<![\d.,])(?:{NUMBER})\s?(?:%|per cent|percent)",
}
#: every rule as ``(label, name, pattern)``, CODE first
RULES: List[Tuple[str, str, str]] = [
    (label, name, pattern)
    for label, patterns in (
        ("CODE", CODE_PATTERNS),
        ("PERSON", PERSON_PATTERNS),
        ("DATETIME", DATETIME_PATTERNS),
        ("QUANTITY", QUANTITY_PATTERNS),
    )
    for name, pattern in patterns.items()
]


#: names of the CODE rules: a span found by one of them is a direct identifier, whatever its label
CODE_RULE_NAMES = frozenset(name for label, name, _ in RULES if label == "CODE")


def compile_rules(rules=RULES) -> List[Tuple[str, str, Pattern]]:
    """Compile ``(label, name, pattern)`` triples; invalid patterns raise ``ValueError`` naming the rule."""
    compiled = []
    for label, name, pattern in rules:
        try:
            compiled.append((label, name, re.compile(pattern)))
        except re.error as err:
            raise ValueError(f"invalid rule pattern {name!r}: {err}") from err
    return compiled


def find_rule_matches(text: str, compiled) -> Iterator[Tuple[int, int, str, str]]:
    """Yield ``(start, end, label, rule_name)`` for every match of every rule (linear in text size)."""
    for label, name, regex in compiled:
        for m in regex.finditer(text):
            start, end = m.span("span") if "span" in regex.groupindex else m.span()
            if end <= start:
                continue
            if name == "number_after_no" and _after_legal_text(text, m.start()):
                continue
            if name == "titled_name":
                end = _titled_name_end(text, m)
                if end is None:
                    continue
            yield start, end, label, name


def _titled_name_end(text: str, m) -> Optional[int]:
    """End of the name after a title: capitalized words ("Mr Will Power"), or, if the first is in lower
    case, at most two lower-case words that are not function words (a spaCy stop word that is not also a
    name, :data:`textanon.target.NAME_LIKE_WORDS`): "Mr igor munteanu was" -> "Mr igor munteanu", "Mr hope
    summers" stays whole; None if no word qualifies."""
    from spacy.lang.en.stop_words import STOP_WORDS

    def is_function_word(word: str) -> bool:
        return fold(word) in STOP_WORDS and fold(word) not in NAME_LIKE_WORDS

    end, kept = None, 0
    words = list(re.finditer(ANY_WORD, m.group("words")))
    capitalized = words[0].group()[0].isupper()
    for w in words:
        word = w.group()
        if capitalized and not word[0].isupper():
            break
        if not capitalized and (word[0].isupper() or is_function_word(word) or kept == 2):
            break
        end, kept = m.start("words") + w.end(), kept + 1
    return end


def _after_legal_text(text: str, start: int) -> bool:
    """ "Law no. 123": the word before "no." names a legal text (:data:`LEGAL_TEXT_WORDS`)."""
    before = re.findall(r"[^\W\d_]+", text[max(0, start - 40) : start])
    return bool(before) and before[-1].lower() in LEGAL_TEXT_WORDS
