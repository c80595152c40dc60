"""Regular-expression rules for CODE, DATETIME and QUANTITY mentions that statistical NER misses.

Each rule is ``(label, name, pattern)``; the name is recorded in ``span._.source`` as ``rule:<name>``.
Patterns are applied to the raw text and snapped outwards to token boundaries.
"""
import re
from typing import Iterator, List, Pattern, Tuple

MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
CURRENCY_CODES = r"(?:EUR|USD|GBP|CHF|TRY|RUB|PLN|UAH|RON|BGN|HUF|CZK|SEK|NOK|DKK|HRK|ATS|DEM|FRF|ITL|ESP|GRD|YTL|TRL|SIT|SKK)"
CURRENCY_WORDS = (
    r"(?:euros?|dollars?|pounds?(?: sterling)?|francs?|lira|liras|lire|roubles?|rubles?|zlotys?|"
    r"hryvnias?|marks?|drachmas?|pesetas?|schillings?|kroner|kronor|forints?|lei|levs?|korunas?|kunas?|tolars?|US dollars)"
)
NUMBER = r"\d{1,3}(?:[,. ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"

RULES: List[Tuple[str, str, str]] = [
    # CODE: identifiers
    ("CODE", "application_number", r"\b\d{1,6}/\d{2,4}\b"),
    ("CODE", "email", r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"),
    ("CODE", "url", r"\b(?:https?://|www\.)[^\s<>\"')]+[^\s<>\"').,;:]"),
    ("CODE", "iban", r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b"),
    ("CODE", "phone", r"(?<![\w/])\+?\(?\d{2,4}\)?[ .-]\d{2,4}[ .-]\d{2,4}(?:[ .-]\d{2,4})?\b(?!/)"),
    # letters and at least three digits, e.g. passport "AB1234567" (not "COVID-19")
    ("CODE", "id_number", r"\b(?=(?:[A-Z-]*\d){3})(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{2,}(?:-[A-Z0-9]+)*\b"),
    ("CODE", "case_reference", r"\b(?:[Cc]ase|[Ff]ile|[Dd]ecision|[Rr]eference|[Rr]eg(?:istration)?)\s+(?:[Nn]o\.?|[Nn]umber)\s*[A-Z0-9][\w./-]*\d[\w./-]*"),
    # DATETIME
    ("DATETIME", "day_month_year", rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTHS}(?:\s+\d{{4}})?\b"),
    ("DATETIME", "month_day_year", rf"\b{MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b"),
    ("DATETIME", "month_year", rf"\b{MONTHS}\s+\d{{4}}\b"),
    ("DATETIME", "numeric_date", r"\b\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b|\b\d{4}-\d{2}-\d{2}\b"),
    ("DATETIME", "year", r"\b(?:1[6-9]|20)\d{2}s?\b"),
    ("DATETIME", "clock_time", r"\b\d{1,2}(?:[.:]\d{2})\s*(?:a\.m\.|p\.m\.|am|pm|hours|h)?(?!\w)|\b\d{1,2}\s*(?:a\.m\.|p\.m\.)"),
    # QUANTITY
    ("QUANTITY", "money_code_first", rf"\b{CURRENCY_CODES}\s?(?:{NUMBER})(?:\s(?:million|billion))?"),
    ("QUANTITY", "money_amount_first", rf"(?:{NUMBER})(?:\s(?:million|billion))?\s?(?:{CURRENCY_CODES}|{CURRENCY_WORDS})\b"),
    ("QUANTITY", "money_iso_code", r"\b[A-Z]{3}\s?\d{1,3}(?:[,.]\d{3})+(?:[.,]\d+)?"),
    ("QUANTITY", "money_symbol", rf"[$€£¥]\s?(?:{NUMBER})(?:\s(?:million|billion))?"),
    ("QUANTITY", "percent", rf"(?:{NUMBER})\s?(?:%|per cent|percent)"),
]


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
            if m.end() > m.start():
                yield m.start(), m.end(), label, name
