"""text_of: a Doc's text, joined once per Doc and freed with it."""

import gc

import spacy
from spacy.tokens import Doc

from textanon.doc_text import _TEXTS, text_of


def test_the_text_is_the_docs_own_and_built_once():
    nlp = spacy.blank("en")
    doc = nlp("Mr  Ion Rusu\nlives in Bălți.\t ")
    first = text_of(doc)
    assert first == doc.text == "Mr  Ion Rusu\nlives in Bălți.\t "
    assert text_of(doc) is first  # read back, not joined again
    other = nlp("Another text.")
    assert text_of(other) == "Another text." and text_of(doc) is first


def test_each_doc_has_its_own_text_even_of_the_same_words():
    vocab = spacy.blank("en").vocab
    a = Doc(vocab, words=["Ion", "Rusu"], spaces=[True, False])
    b = Doc(vocab, words=["Ion", "Rusu"], spaces=[False, False])
    assert (text_of(a), text_of(b)) == ("Ion Rusu", "IonRusu")


def test_the_entry_goes_with_the_doc():
    nlp = spacy.blank("en")
    gc.collect()  # the Docs other tests left to the collector go first
    before = len(_TEXTS)
    doc = nlp("A text that is freed.")
    text_of(doc)
    assert len(_TEXTS) == before + 1
    del doc
    gc.collect()
    assert len(_TEXTS) == before
