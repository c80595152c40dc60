"""Words of documents, phrases and queries, the same for every backend.

A word is a run of letters or digits, lower-cased with diacritics folded (``Renée`` -> ``renee``);
everything else separates words. Query words are those words minus English stop words (spaCy's list),
as the BM25 attackers of :mod:`textanon_eval.bm25` use them.
"""

import re
from typing import List, Tuple

from spacy.lang.en.stop_words import STOP_WORDS

from textanon.detect.target import fold

WORD = re.compile(r"[^\W_]+")


def index_text(text: str) -> str:
    """``text`` folded (lower case, no diacritics; same length): what the backends tokenize."""
    return fold(text or "")


def phrase_words(text: str) -> List[str]:
    """Every word of ``text`` in order (stop words included): a phrase to match."""
    return WORD.findall(index_text(text))


def query_word_spans(text: str) -> List[Tuple[int, int, str]]:
    """``(start, end, word)`` of every query word of ``text`` (stop words left out)."""
    folded = index_text(text)
    return [(m.start(), m.end(), m.group(0)) for m in WORD.finditer(folded) if m.group(0) not in STOP_WORDS]


def query_words(text: str) -> List[str]:
    """The distinct query words of ``text`` (first-occurrence order)."""
    return list(dict.fromkeys(w for _, _, w in query_word_spans(text)))


#: what is left of an English clitic once a word is cut at its apostrophe ("I'm", "he's", "we'd", "they'll", "I've",
#: "you're", "won't")
CLITIC_REMAINDERS = frozenset({"s", "t", "m", "d", "ll", "ve", "re"})
APOSTROPHES = "'\u2019"


def is_clitic_piece(text: str, start: int, end: int) -> bool:
    """Whether the word at ``text[start:end]`` is a piece of a contraction: a clitic after its apostrophe ("m" of
    "I'm", "s" of "he's", "t" of "won't") or the stem before a negative "n't" ("won", "didn"). Masking one alone writes
    "I***" or "wo*** hire" (the reader loses the negation) and hides nothing a search could use: such pieces are in
    nearly every document."""
    if start > 0 and text[start - 1] in APOSTROPHES and text[start:end].lower() in CLITIC_REMAINDERS:
        return True
    return text[end : end + 1] in APOSTROPHES and text[end + 1 : end + 2].lower() == "t" and text[end - 1 : end] in "nN"
