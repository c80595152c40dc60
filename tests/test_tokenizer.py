"""spaCy's English tokenizer as textanon's pipelines use it (textanon.detect.tokenizer): no digit emoticons, Markdown
links split, footnote marks apart, the rest as before; the packaged pipeline carries it and a user's document shows
it."""

import spacy
from spacy import registry

from textanon.detect.tokenizer import adjust_tokenizer
from textanon.io.datasets.records import Record
from textanon.run.runner import pipe_docs


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


def test_a_field_name_in_capitals_and_its_value_are_apart():
    """A contact card's "BDAY:1979-05-17" was one token: the date's span took the field name, no birth cue before it."""
    plain, nlp = spacy.blank("en"), adjust_tokenizer(spacy.blank("en"))
    assert tokens(plain, "BDAY:1979-05-17") == ["BDAY:1979", "-", "05", "-", "17"]
    assert tokens(nlp, "BDAY:1979-05-17") == ["BDAY", ":", "1979", "-", "05", "-", "17"]
    assert tokens(nlp, "(DOB:1985)") == ["(", "DOB", ":", "1985", ")"]
    for text in ["at 10:30 or X:1", "FE80::1 and 2001:DB8::1", "http://EXAMPLE.COM:8080/x", "Note:12"]:
        assert tokens(nlp, text) == tokens(plain, text)


def test_a_comma_between_a_digit_and_a_letter_splits_a_csv_row():
    """A CSV row's "61000,R. Baptiste" was one token: the manager's name, glued to the salary, stayed."""
    plain, nlp = spacy.blank("en"), adjust_tokenizer(spacy.blank("en"))
    row = "E1044,Ines Carvalho,Legal,61000,R. Baptiste"
    assert "Legal,61000,R." in tokens(plain, row)
    assert tokens(nlp, row) == ["E1044", ",", "Ines", "Carvalho", ",", "Legal", ",", "61000", ",", "R.", "Baptiste"]
    assert tokens(nlp, "1,000 people, 2,5 km") == tokens(plain, "1,000 people, 2,5 km")


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
    assert tokens(loaded, "DOB:1985") == ["DOB", ":", "1985"]
    assert nlp.tokenizer.suffix_search.__self__.pattern.count(r"(?<=[0-9][A-Z])") == 1


def test_registered_callback_and_the_packaged_pipeline_use_it():
    assert registry.callbacks.get("textanon.tokenizer.v1")() is adjust_tokenizer
    nlp = spacy.load("en_textanon")
    assert nlp.config["initialize"]["before_init"]["@callbacks"] == "textanon.tokenizer.v1"
    assert tokens(nlp, "note (Year 8).")[-3:] == ["8", ")", "."]
    assert tokens(nlp, "at 10:00:00Z. Bring")[-3:] == ["10:00:00Z", ".", "Bring"]


def test_the_packaged_pipeline_masks_a_cards_birth_date_and_keeps_the_word_after_a_time_stamp():
    """End to end on a user's contact card and booking: the birth date glued to "BDAY:" had been generalized ("the
    20th century"), the word after "10:00:00Z." swallowed by the date's mask."""
    nlp = spacy.load("en_textanon")
    card = "BEGIN:VCARD\nFN:Sigrid Lund\nBDAY:1979-05-17\nEND:VCARD"
    booking = "Sigrid Lund booked the room. Check-in: 2024-03-05T10:00:00Z. Bring the file."
    docs = list(pipe_docs(nlp, [Record(id="1", text=card, target="Sigrid Lund"), Record("2", booking, "Sigrid Lund")]))
    assert "1979" not in docs[0]._.anonymized_text and "century" not in docs[0]._.anonymized_text
    assert docs[1]._.anonymized_text.endswith(". Bring the file.")
