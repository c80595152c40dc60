"""The protected name and direct identifiers in the forms a reader sees but raw text hides (issue 27): a soft hyphen,
a zero-width space, a NUL, end-of-line hyphenation, an OCR split, letter spacing, an inflection, look-alike
Cyrillic letters. Detected on the normalized view (textanon.detect.normalize), masked on the original characters."""

import re

import pytest
import spacy

from textanon.detect.normalize import normalized
from textanon.detect.rules import RULES, compile_rules, find_rule_matches
from textanon.detect.target import find_target_mentions, fold, name_occurrences
from textanon.render.output import doc_to_record

TARGET = "Andrei Petrescu"
OPENING = "The applicant, Mr Andrei Petrescu, complained to the police in Iasi. "
#: name -> (the text after the opening, the surname's form in it)
FORMS = {
    "soft_hyphen": ("Later Petre\u00adscu moved to Cluj.", "Petre\u00adscu"),
    "line_end_hyphenation": ("The court heard Mr Petres-\ncu on 3 May.", "Petres-\ncu"),
    "ocr_split": ("The statement of Petr escu was read out.", "Petr escu"),
    "letter_spaced": ("It was signed P E T R E S C U below.", "P E T R E S C U"),
    "letter_spaced_dots": ("It was signed P.E.T.R.E.S.C.U below.", "P.E.T.R.E.S.C.U"),
    "inflected": ("Casa lui Petrescului was searched.", "Petrescului"),
    "nul_inside": ("The wife of Petr\x00escu testified.", "Petr\x00escu"),
    "zero_width_inside": ("The wife of Petre\u200bscu testified.", "Petre\u200bscu"),
    "cyrillic_lookalikes": ("The wife of \u0420\u0435trescu testified.", "\u0420\u0435trescu"),
}


def _letters(text):
    """The text's letters only, folded, on its normalized view: a name survives in it whatever its spelling."""
    return re.sub(r"[^a-z]", "", fold(normalized(text).text))


# -- the matcher and the rules, without a pipeline --------------------------------------------------------------
@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_of_the_surname_is_an_occurrence(form):
    text, surface = FORMS[form]
    found = [text[s:e] for s, e in find_target_mentions(text, TARGET)]
    assert surface in found
    assert [text[s:e] for s, e in name_occurrences(text, TARGET)] == found


def test_forms_keep_false_positives_low():
    assert find_target_mentions("a dam broke near the pet rescue centre", "Adam Petrescu") == []  # English pieces
    assert find_target_mentions("Petrescuson and Petrescuescu came", TARGET) == []  # another name, a long ending
    assert find_target_mentions("I on it; I o n", "Ion Rusu") == []  # words shorter than four letters
    assert find_target_mentions("the w i l l to p o w e r", "Will Power") == []  # ordinary English words
    assert find_target_mentions("Andrei Petrescu", "Andrei Petrescu") == [(0, 15)]
    text = "PETRESCULUI and Petrescului but not PetrescuLUI"
    assert [text[s:e] for s, e in find_target_mentions(text, TARGET)] == ["PETRESCULUI", "Petrescului"]


def test_rules_read_the_normalized_view_and_cover_the_original_characters():
    compiled = compile_rules(RULES)
    text = "Write to jane.doe\u200b@example.com or see Mr Petre\u00adscu."
    found = {name: text[s:e] for s, e, _, name in find_rule_matches(text, compiled)}
    assert found["email"] == "jane.doe\u200b@example.com"
    assert found["titled_name"] == "Mr Petre\u00adscu"


# -- end to end through the default pipeline ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def nlp():
    return spacy.load("en_textanon")


def _anonymize(nlp, text, target=TARGET):
    doc = nlp.make_doc(text)
    doc._.target = target
    return nlp(doc)


@pytest.mark.slow
@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_surname_never_survives_in_any_form(nlp, form):
    text, surface = OPENING + FORMS[form][0], FORMS[form][1]
    doc = _anonymize(nlp, text)
    out = doc._.anonymized_text
    assert "petrescu" not in _letters(out) and "andrei" not in _letters(out), out
    for piece in re.findall(r"[^\W\d_]{2,}", surface):  # no piece left either ("Petres-\ncu" -> "***\ncu")
        assert not re.search(rf"(?<![^\W\d_]){piece}(?![^\W\d_])", out), out
    assert not any(ch in out for ch in "\u00ad\u200b\x00"), out  # the invisible characters masked with the word
    assert doc_to_record(doc, "d1")["anonymized_text"] == out  # the output record


@pytest.mark.slow
@pytest.mark.parametrize(
    "address", ["jane.doe\u200b@example.com", "jane.doe@\u200bexample.com", "jane\u00ad.doe@example.com"]
)
def test_an_email_address_with_an_invisible_character_is_masked(nlp, address):
    doc = _anonymize(nlp, f"Contact the applicant at {address} for details.", target=None)
    out = doc._.anonymized_text
    assert "jane" not in out and "example" not in out and "\u200b" not in out and "\u00ad" not in out, out
    emails = [s for s in doc.spans["pii"] if s._.source == "rule:email"]
    assert [s.text for s in emails] == [address]
