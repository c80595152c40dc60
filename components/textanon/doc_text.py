"""The text of a Doc, built once per Doc.

``Doc.text`` joins the text of every token each time it is read, and the pipeline's components read it about ten
times per document (the recognizer's rules, identifier finders and lower-case names, the search risk's name search
and candidates, the decision's units, the generalizer, the optimizer's name scan and rendering): on the 27 echr-dev
cases those joins took about a twentieth of the default profile's time (ad hoc, cProfile, docs/speed.md, "Session
73"). :func:`text_of` keeps each Doc's text in a table keyed by a weak reference to the Doc: built on the first
read, freed with the Doc. A Doc's text never changes (spaCy's retokenizer merges and splits tokens, never their
characters; :meth:`Doc.from_docs` makes another Doc), so the text read back is the one ``doc.text`` would build."""

import weakref

from spacy.tokens import Doc

#: each live Doc's text (the entry goes when the Doc is freed)
_TEXTS: "weakref.WeakKeyDictionary[Doc, str]" = weakref.WeakKeyDictionary()


def text_of(doc: Doc) -> str:
    """``doc.text``, joined once per Doc."""
    text = _TEXTS.get(doc)
    if text is None:
        text = _TEXTS[doc] = doc.text
    return text
