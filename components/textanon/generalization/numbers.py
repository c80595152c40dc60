"""Numbers, amounts and ages: a range of the leading digit, then an order of magnitude ("20,000 euros" ->
"between 20,000 and 30,000 euros" -> "at least 10,000 euros"; "aged 34" -> "aged between 30 and 40" -> "aged at
least 10"). The number is replaced inside the span, its unit or currency kept. Only spans with exactly one number
written in digits are generalized (from 10 up, or any number before "thousand", "million", "billion"); the range
includes its lower bound and excludes its upper one, so every level is true."""

import re
from typing import List

from .base import Generalization, levels

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w,]|\.\d)")


def generalize_number(text: str) -> List[Generalization]:
    """Generalizations of a span holding one number in digits (empty otherwise)."""
    found = list(_NUMBER.finditer(text))
    if len(found) != 1:
        return []
    m = found[0]
    value = float(m.group(0).replace(",", ""))
    scaled = re.match(r"\s+(thousand|million|billion)\b", text[m.end() :], re.IGNORECASE) is not None
    if value < (1 if scaled else 10):
        return []
    lead = 10 ** (len(str(int(value))) - 1)
    low = int(value // lead * lead)
    before, after = text[: m.start()], text[m.end() :]
    symbol = re.search(r"[^\w\s]+$", before)  # a currency sign glued to the number ("$12"): kept on each bound
    sign = symbol.group(0) if symbol else ""
    before = before[: len(before) - len(sign)]
    grouped = "," in m.group(0) or value >= 10000

    def fmt(v: int) -> str:
        return sign + (f"{v:,}" if grouped else str(v))

    return levels(
        [f"{before}between {fmt(low)} and {fmt(low + lead)}{after}", f"{before}at least {fmt(lead)}{after}"],
        "numbers",
        text,
    )
