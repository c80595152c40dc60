"""spaCy's English tokenizer as textanon's pipelines use it (textanon.detect.tokenizer): no digit emoticons, Markdown
links split, footnote marks apart, the rest as before; the packaged pipeline carries it and a user's document shows
it."""

import spacy
from spacy import registry

from textanon.detect.tokenizer import adjust_tokenizer


def tokens(nlp, text):
    return [t.text for t in nlp(text)]


def test_a_digit_and_a_closing_bracket_are_two_tokens():
    plain = spacy.blank("en")
    assert tokens(plain, "note (Year 8).") == ["note", "(", "Year", "8)", "."]  # spaCy's emoticon
    nlp = adjust_tokenizer(spacy.blank("en"))
    assert tokens(nlp, "note (Year 8).") == ["note", "(", "Year", "8", ")", "."]
    assert tokens(nlp, "see (item 8), then") == ["see", "(", "item", "8", ")", ",", "then"]


def test_a_markdown_link_splits_between_its_text_and_its_target():
    nlp = adjust_tokenizer(spacy.blank("en"))
    got = tokens(nlp, "contact [Dr. Jane Roe](mailto:jane.roe@example.org) today")
    assert got[:6] == ["contact", "[", "Dr.", "Jane", "Roe", "]("]
    assert "jane.roe@example.org" in got and got[-2:] == [")", "today"]


def test_superscript_digits_at_a_words_end_are_a_token_of_their_own():
    """An author list: "John Roe²" was one token no model read as a surname, and the name stayed whole."""
    plain, nlp = spacy.blank("en"), adjust_tokenizer(spacy.blank("en"))
    assert tokens(plain, "John Roe²") == ["John", "Roe²"]
    assert tokens(nlp, "Jane Q. Doe¹*, John Roe²") == ["Jane", "Q.", "Doe", "¹", "*", ",", "John", "Roe", "²"]
    assert tokens(nlp, "an area of 12 km² here") == ["an", "area", "of", "12", "km", "²", "here"]


def test_a_sentences_full_stop_after_a_codes_capital_is_a_token_of_its_own():
    """A timestamp ending a sentence kept its full stop, and the date's entity (and mask) ran into the next word."""
    plain, nlp = spacy.blank("en"), adjust_tokenizer(spacy.blank("en"))
    assert tokens(plain, "at 10:00:00Z. Bring it") == ["at", "10:00:00Z.", "Bring", "it"]
    assert tokens(nlp, "at 2024-03-05T10:00:00Z. Bring it")[-4:] == ["05T10:00:00Z", ".", "Bring", "it"]
    assert tokens(nlp, "Room 12B.") == ["Room", "12B", "."]
    # initials and abbreviations keep their full stop: no digit before the capital
    assert tokens(nlp, "Mr. J. Smith of the U.S. Army") == ["Mr.", "J.", "Smith", "of", "the", "U.S.", "Army"]


def test_everything_else_is_tokenized_as_before():
    plain, nlp = spacy.blank("en"), adjust_tokenizer(spacy.blank("en"))
    for text in [
        "see https://example.org/a?b=c and www.example.com, or write to jane@example.org.",
        "He said :) and left at 8am; it's 8:30 now (he's 58).",
        "The applicant (Mr X) lodged application no. 36110/97 on 3 May 2001.",
    ]:
        assert tokens(nlp, text) == tokens(plain, text)


def test_applying_it_twice_and_saving_the_pipeline_keep_it(tmp_path):
    nlp = adjust_tokenizer(adjust_tokenizer(spacy.blank("en")))
    assert nlp.tokenizer.url_match.__self__.pattern.count(r"\]\(") == 1
    assert nlp.tokenizer.infix_finditer.__self__.pattern.count(r"\]\(") == 1
    nlp.to_disk(tmp_path)
    loaded = spacy.load(tmp_path)  # no callback in this config: the saved tokenizer alone
    assert tokens(loaded, "(Year 8) [Ann](x)") == ["(", "Year", "8", ")", "[", "Ann", "](", "x", ")"]
    assert tokens(loaded, "Roe² said") == ["Roe", "²", "said"]
    assert tokens(loaded, "at 10:00Z. Then") == ["at", "10:00Z", ".", "Then"]
    assert nlp.tokenizer.suffix_search.__self__.pattern.count(r"(?<=[0-9][A-Z])") == 1


def test_registered_callback_and_the_packaged_pipeline_use_it():
    assert registry.callbacks.get("textanon.tokenizer.v1")() is adjust_tokenizer
    nlp = spacy.load("en_textanon")
    assert nlp.config["initialize"]["before_init"]["@callbacks"] == "textanon.tokenizer.v1"
    assert tokens(nlp, "note (Year 8).")[-3:] == ["8", ")", "."]
    assert tokens(nlp, "at 10:00:00Z. Bring")[-3:] == ["10:00:00Z", ".", "Bring"]
