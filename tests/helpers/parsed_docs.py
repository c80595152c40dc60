"""Hand-parsed documents: a spaCy ``Doc`` with the part-of-speech tags and the dependency parse a test gives, in
place of a trained tagger and parser."""

import spacy
from spacy.tokens import Doc


def parsed_doc(words: list[str], pos: list[str], heads: list[int] | None = None, deps: list[str] | None = None) -> Doc:
    """A blank English ``Doc`` of ``words`` (a space after each) with the ``pos`` tags and, when given, the parse:
    ``heads`` (absolute token indices) and ``deps``."""
    return Doc(spacy.blank("en").vocab, words=words, pos=pos, heads=heads, deps=deps)
