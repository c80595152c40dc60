"""Six mends of spaCy's English tokenizer for the texts textanon reads.

* **Emoticons made of a digit.** spaCy keeps "8)", "8-)", "8D", "8-D" and "(-8" as one token (a smiling face). In a
  numbered list or a bracket ("(Year 8).", "see (8)") the digit and the bracket are then one token, so an entity
  that ends on the number ends on the bracket too, and its mask swallows it: "note (***." for "note (Year 8).". These
  exceptions are dropped: the digit and the bracket are two tokens, as "(Year 7)." always was.
* **Markdown links.** "[Dr. Jane Roe](mailto:jane@example.org)": spaCy's URL pattern reads "Roe](mailto:jane" as the
  user part of an address, so the surname and the address are one token, one span and one mask ("[the person)").
  A string holding "](" is no URL for the tokenizer here, and "](" splits it: "Roe", "](", "mailto:jane@...".
* **Footnote marks.** An author list's "John Roe²" or "Jane Doe¹*": spaCy keeps "Roe²" as one token, which no model
  reads as a surname (the name stayed whole in the output). Superscript digits at a word's end are a suffix of their
  own: "Roe", "²".
* **A full stop after a code's capital letter.** spaCy keeps a full stop after a capital as part of the word (an
  initial: "J."), so a timestamp or a code that ends a sentence ("at 2024-03-05T10:00:00Z. Bring the file", "Room
  12B.") kept the sentence's full stop, the sentence did not end there, and the date's entity ran on into the next
  word: its mask swallowed "Bring". A full stop after a capital that follows a digit is a suffix of its own:
  "10:00:00Z", ".". Initials and abbreviations ("J.", "U.S.") have no digit before the capital and stay whole.
* **A field name in capitals glued to its value.** A contact card's "BDAY:1979-05-17", a log's "DOB:1985-01-02":
  spaCy keeps the word, the colon and the date as one token, so the date's span took the field name with it and
  no birth cue stood before it (the birth date was generalized, not masked). A colon after a word of 2-12 capitals
  that opens the token, before a digit or "+", is an infix: "BDAY", ":", "1979-05-17". Times ("10:30"), addresses
  ("2001:DB8::1") and URLs are as before.
* **A comma between a digit and a letter.** spaCy splits "a,b" but not "61000,R." or "E1043,Samuel": in a CSV row
  ("E1044,Ines Carvalho,Legal,61000,R. Baptiste") a number and the name after it were one token, and the name,
  glued to the salary, was read by no model (the manager's name stayed). Such a comma is an infix; a number's own
  comma ("1,000") has digits on both sides and stays.

:func:`adjust_tokenizer` is the ``[initialize.before_init]`` callback of textanon's configs (registered as
``textanon.tokenizer.v1``): it changes the tokenizer of the pipeline being built, and the package saves the changed
exceptions and patterns with the tokenizer (``spacy.load`` reads them back, without running it again).
"""

import re
from typing import Callable

from spacy.language import Language

from textanon.detect.normalize import SUPERSCRIPT_CLASS

#: spaCy's English tokenizer exceptions that join a digit and a bracket or a letter (emoticons)
DIGIT_EMOTICONS = frozenset({"8)", "8-)", "8D", "8-D", "(-8"})
#: a string holding "](" is no URL (a Markdown link's text and target)
_NO_LINK = r"(?![^\s]*\]\()"
#: the infix between a Markdown link's text and its target
_LINK_INFIX = r"\]\("
_FLAGS = re.compile(r"^\(\?[aiLmsux]+\)")
#: superscript digits at a word's end (a footnote mark: "Roe²", "Doe¹")
_SUPERSCRIPT_SUFFIX = SUPERSCRIPT_CLASS + "+$"
#: the colon between a field name in capitals that opens a token and its value ("BDAY:1979-05-17", "TEL:+47...")
_FIELD_COLON_INFIX = "(?:" + "|".join(f"(?<=^[A-Z]{{{n}}})" for n in range(2, 13)) + "):(?=[0-9+])"
#: a comma between a digit and a letter (a CSV row's "61000,R. Baptiste")
_DIGIT_LETTER_COMMA_INFIX = r"(?<=[0-9]),(?=[A-Za-z])|(?<=[A-Za-z]),(?=[0-9])"
#: a sentence's full stop after a code's capital letter ("10:00:00Z.", "12B.")
_CODE_STOP_SUFFIX = r"(?<=[0-9][A-Z])\.$"


def adjust_tokenizer(nlp: Language) -> Language:
    """Drop :data:`DIGIT_EMOTICONS` from ``nlp``'s tokenizer exceptions, split Markdown links, superscript digits
    at a word's end, a full stop after a code's capital, a field name's colon and a comma between a digit and a
    letter (module docstring); returns ``nlp``. Applying it twice changes nothing more."""
    tokenizer = nlp.tokenizer
    rules = getattr(tokenizer, "rules", None)
    if rules and DIGIT_EMOTICONS & set(rules):
        tokenizer.rules = {key: value for key, value in rules.items() if key not in DIGIT_EMOTICONS}
    url_match = getattr(tokenizer, "url_match", None)
    pattern = getattr(getattr(url_match, "__self__", None), "pattern", None)
    if isinstance(pattern, str) and _NO_LINK not in pattern:
        flags = _FLAGS.match(pattern)
        head = flags.group() if flags else ""
        tokenizer.url_match = re.compile(head + _NO_LINK + pattern[len(head) :]).match
    infix = _with_alternatives(tokenizer.infix_finditer, (_LINK_INFIX, _FIELD_COLON_INFIX, _DIGIT_LETTER_COMMA_INFIX))
    if infix is not None:
        tokenizer.infix_finditer = infix.finditer
    suffix = _with_alternatives(tokenizer.suffix_search, (_SUPERSCRIPT_SUFFIX, _CODE_STOP_SUFFIX))
    if suffix is not None:
        tokenizer.suffix_search = suffix.search
    return nlp


def _with_alternatives(bound, alternatives) -> "re.Pattern[str] | None":
    """The pattern behind the tokenizer's bound regex method ``bound`` with those of ``alternatives`` it lacks added
    as further alternatives; None when it lacks none (applying the mends twice changes nothing) or is no regex."""
    pattern = getattr(getattr(bound, "__self__", None), "pattern", None)
    if not isinstance(pattern, str):
        return None
    added = [p for p in alternatives if p not in pattern]
    return re.compile("|".join([pattern, *added])) if added else None


def make_tokenizer() -> Callable[[Language], Language]:
    """``textanon.tokenizer.v1`` (spaCy's ``callbacks`` registry): the ``[initialize.before_init]`` callback that runs
    :func:`adjust_tokenizer` on the pipeline being built."""
    return adjust_tokenizer
