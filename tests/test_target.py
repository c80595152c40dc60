"""The protected person's name is found from the string the user gave, whatever the recognizer said."""

import json

import pytest
from core_fixtures import FIXTURES

from textanon.detect.target import (
    diminutives,
    find_target_mentions,
    name_occurrences,
    name_occurrences_and_pronunciations,
    name_words,
    other_given_before,
    other_name_after,
    pronunciations,
    target_variants,
)


def _found(text, name):
    return [text[s:e] for s, e in find_target_mentions(text, name)]


def test_name_words_drop_titles_and_suffixes():
    assert name_words("Mr Igor V. Munteanu Jr.") == ["Igor", "V", "Munteanu"]
    assert name_words("Martin Luther King Jr.") == ["Martin", "Luther", "King"]
    assert name_words("") == []


def test_suffix_is_not_the_surname():
    variants = target_variants("Martin Luther King Jr.")
    assert "King" in variants and "Jr" not in variants and "jr" not in variants


@pytest.mark.parametrize(
    "surface",
    [
        "Mr Igor Munteanu",
        "Igor V. Munteanu",
        "MUNTEANU",
        "Munteanu",
        "I. Munteanu",
        "I.V. Munteanu",
        "I V Munteanu",
        "Igor\nMunteanu",
        "igor munteanu",
        "Muntéanu",
        "Munteanu I.",
    ],
)
def test_every_variant_is_found(surface):
    text = f"The applicant, {surface}, appealed."
    found = " ".join(_found(text, "Igor V. Munteanu"))
    assert "unteanu" in found or "UNTEANU" in found or "untéanu" in found


def test_possessive_keeps_the_name_masked_and_the_suffix_outside():
    text = "Munteanu's wife"
    assert find_target_mentions(text, "Igor Munteanu") == [(0, 8)]


def test_whole_words_only():
    assert _found("Munteanuescu and Igorevich met", "Igor Munteanu") == []


def test_names_made_of_ordinary_words():
    text = "Ms Hope Summers said she had hope. Summers came in summers. Mr Will Power: the will of Power."
    assert _found(text, "Hope Summers") == ["Hope Summers", "Summers"]
    assert _found(text, "Will Power") == ["Will Power", "Power"]
    assert _found("they said will power helps", "Will Power") == ["will power"]


def test_uncommon_surname_found_in_lower_case():
    assert _found("then munteanu left", "Igor Munteanu") == ["munteanu"]


def test_particles_belong_to_the_surname():
    variants = target_variants("Robert De Niro")
    assert "De Niro" in variants and "Niro" in variants and "R. De Niro" in variants
    # Irish particles too: an interview's speaker label "Ó BRIAIN:" was written "Ó the person:"
    assert "Ó Briain" in target_variants("Seán Ó Briain") and "Ní Bhriain" in target_variants("Máire Ní Bhriain")
    assert _found("Ó BRIAIN: I was born in Dingle.", "Seán Ó Briain") == ["Ó BRIAIN"]


def test_single_word_name():
    assert _found("Cher sang; CHER left", "Cher") == ["Cher", "CHER"]


def test_offsets_are_exact_with_diacritics():
    text = "Şahin and Sahin"
    assert [text[s:e] for s, e in find_target_mentions(text, "Ali Şahin")] == ["Şahin", "Sahin"]


def test_a_lower_case_letter_after_the_surname_is_not_an_initial():
    from textanon.detect.target import find_target_mentions

    text = "Mrs Ana Petrescu, a teacher, signed as Petrescu, A. and as PETRESCU A; petrescu, a. too"
    found = [text[s:e] for s, e in find_target_mentions(text, "Ana Petrescu")]
    assert found == ["Ana Petrescu", "Petrescu, A.", "PETRESCU A", "petrescu, a."]


PRONUNCIATIONS = json.loads((FIXTURES / "pronunciations.json").read_text(encoding="utf8"))


@pytest.mark.parametrize("case", PRONUNCIATIONS, ids=[f"{i}" for i in range(len(PRONUNCIATIONS))])
def test_the_pronunciation_after_the_name_at_the_opening_is_masked_whole(case):
    """A respelling or IPA transcription right after the name at a biography's opening is the name said again: it is
    one occurrence, whole (from the bracket to its last pronunciation segment); "(born ...)" and other
    parentheticals are not."""
    text, name = case["text"], case["name"]
    expected = [] if case["pronunciation"] is None else [case["pronunciation"]]
    assert [text[s:e] for s, e in pronunciations(text, name)] == expected
    occurrences = name_occurrences(text, name)
    assert all(p in [text[s:e] for s, e in occurrences] for p in expected)
    for start, end in find_target_mentions(text, name):  # the name's own occurrences stay covered
        assert any(s <= start and end <= e for s, e in occurrences)


def test_a_forms_parenthetical_with_a_date_is_no_pronunciation():
    # seen on a tenancy agreement: "(date of birth 09/11/1994, ...)" was read as the name's pronunciation ("/11/" as
    # IPA), and a pseudonym wrote it as a person's name, the date of birth left as it was
    text = "Tenant: Ms Ewa Kowalczyk (date of birth 09/11/1994, passport no. EK4471920)\nProperty: Flat 2"
    assert pronunciations(text, "Ewa Kowalczyk") == []
    assert [text[s:e] for s, e in name_occurrences(text, "Ewa Kowalczyk")] == ["Ewa Kowalczyk"]


def test_an_unclosed_parenthetical_is_masked_to_the_end_of_its_line():
    text = "Maren Quill (/ˈmærən kwɪl/ MAIR-ən KWIL, born in Cardiff\nShe acted."
    assert [text[s:e] for s, e in pronunciations(text, "Maren Quill")] == [
        "/ˈmærən kwɪl/ MAIR-ən KWIL, born in Cardiff"
    ]


def test_long_texts_fold_like_short_ones_and_name_occurrences_are_fresh_lists():
    """fold() and name_occurrences() remember long texts (a 1,000,000-character document is searched once per name):
    the result is the same as for the pieces, and a caller that extends the returned list changes nothing later."""
    from textanon.detect.target import fold, name_occurrences

    piece = "Mr Çağrı ÖZTÜRK met Ms Hope Summers in Chișinău; öztürk appealed. "
    long_text = piece * 400  # over the length from which texts are remembered
    assert fold(long_text) == fold(piece) * 400 and len(fold(long_text)) == len(long_text)
    first = name_occurrences(long_text, "Cagri Ozturk")
    assert len(first) == 2 * 400 and first == name_occurrences(long_text, "Cagri Ozturk")
    first.append((0, 1))
    assert (0, 1) not in name_occurrences(long_text, "Cagri Ozturk")


def test_long_texts_are_searched_around_the_names_words_with_the_same_result_as_a_full_scan(monkeypatch):
    import random

    from textanon.detect import target as target_module

    rng = random.Random(0)
    pieces = [
        "Mr Igor Munteanu",
        "MUNTEANU I.",
        "Munteanu, Igor",
        "I. Munteanu",
        "Igor\n\n      Munteanu",
        "Munteanuson",
        "igor",
        "Igor's",
        "the applicant",
        "munteanu appealed",
        "Munteanu" + "x" * 300,
    ]
    filler = "word " * 80
    text = "".join(rng.choice(pieces) + " " + filler[: rng.randrange(0, 400)] for _ in range(400))
    assert len(text) >= 20_000
    windowed = target_module.find_target_mentions(text, "Igor Munteanu")
    monkeypatch.setattr(target_module, "_regions", lambda folded, variants: None)
    full = target_module.find_target_mentions(text, "Igor Munteanu")
    assert windowed == full and len(full) > 100


def test_a_variants_words_far_apart_across_whitespace_are_found_in_a_long_text(monkeypatch):
    from textanon.detect import target as target_module

    text = "x " * 6000 + "Munteanu" + " " * 400 + "Igor" + " y" * 6000
    found = target_module.find_target_mentions(text, "Munteanu Igor")
    assert found == [(12000, 12412)]  # "Munteanu Igor" across 400 spaces, as a full scan finds it
    monkeypatch.setattr(target_module, "_regions", lambda folded, variants: None)
    assert found == target_module.find_target_mentions(text, "Munteanu Igor")


def test_a_match_cut_at_a_regions_edge_makes_the_search_fall_back_to_the_whole_text(monkeypatch):
    from textanon.detect import target as target_module

    text = "x " * 6000 + "Igor Munteanu met Munteanu Ivanov." + " y" * 6000
    monkeypatch.setattr(target_module, "REGION_MARGIN", 1)  # the region after "Munteanu" ends inside "Ivanov"
    found = target_module.find_target_mentions(text, "Igor Munteanu")
    monkeypatch.setattr(target_module, "_regions", lambda folded, variants: None)
    assert found == target_module.find_target_mentions(text, "Igor Munteanu")
    assert not any(text[s:e].startswith("Munteanu I") for s, e in found)  # no "Munteanu I" cut out of "Ivanov"


def test_the_dotted_initials_of_the_whole_name_are_a_mention():
    text = "A.J. (as friends call Angelina) met Pitt. A. J. smiled; A.J.R. and the U.S. did not, nor a.j. or AJR."
    found = [text[s:e] for s, e in name_occurrences(text, "Angelina Jolie")]
    assert found == ["A.J.", "Angelina", "A. J."]


def test_bare_initials_of_the_whole_name_are_a_mention():
    """A care record's way to name the person: "JS seen with mother" kept Jonathan Stafford's initials."""
    text = (
        "Progress note: JS seen with mother. Plan: JS to be reviewed (JS's GP); JSON, js, JSA, the JS API and NODE JS."
    )
    found = [text[s:e] for s, e in name_occurrences(text, "Jonathan Stafford")]
    assert found == ["JS", "JS", "JS"]
    # initials that also write a frequent word or abbreviation are left to the recognizer: "UK", "TV", "ID"
    for name, text in [("Ursula Kane", "She moved to the UK."), ("Tom Vance", "On TV."), ("Ida Dunn", "Show ID.")]:
        assert name_occurrences(text, name) == []
    # a care note's shorthand: "MO" is a frequent word's spelling too, less frequent than these
    text = "72F, MO, PMH HTN/T2DM. MO's GP is Dr Lund."
    assert [text[s:e] for s, e in name_occurrences(text, "Margaret Olsen")] == ["MO", "MO"]
    # three words give three letters; a name of one word or four, or in lower case, none
    assert [m for m in name_occurrences("JRS agreed.", "John Robert Smith")] == [(0, 3)]
    assert name_occurrences("JS agreed.", "jonathan stafford") == []


def test_the_given_name_and_the_surnames_initials_are_one_occurrence():
    """A class list's "Ella F-M" for Ella Fitzgerald-Moore: the given name was masked, "F-M" had stayed."""
    text = "Group 1 — Ella F-M, Noah K, Isla P. Ella F.-M. moves up, Ella FM too; Ella F-Mo does not."
    found = [text[s:e] for s, e in name_occurrences(text, "Ella Fitzgerald-Moore")]
    assert found[:3] == ["Ella F-M", "Ella F.-M.", "Ella FM"] and "F-Mo" not in " ".join(found)
    text = "Noah K. and Noah K, not Noah KL."
    assert [text[s:e] for s, e in name_occurrences(text, "Noah Kerr")] == ["Noah K.", "Noah K", "Noah"]


def test_a_name_with_an_apostrophe_is_found_in_lower_case():
    """The "o" of "o'reilly" is no lower-case initial (which would reject the match as "Petrescu, a teacher")."""
    text = "patient john o'reilly, 47, complains of chest pain. mr o'reilly smokes."
    found = [text[s:e] for s, e in name_occurrences(text, "John O'Reilly")]
    assert found == ["john o'reilly", "o'reilly"]
    other = "Petrescu, a teacher"
    assert [other[s:e] for s, e in find_target_mentions(other, "Ana Petrescu")] == ["Petrescu"]


@pytest.mark.parametrize(
    "text,name,nickname,count",
    [
        ("Robert 'Bobby' Fenwick, known as Bobby, coached. Fenwick retired.", "Robert Fenwick", "Bobby", 2),
        ('Earvin "Magic" Johnson played; Magic retired. It was magic.', "Earvin Johnson", "Magic", 2),
        ("Joseph (Joe) Biden ran; Joe won.", "Joseph Biden", "Joe", 2),
        ("Danny “Danno” Williams left; Danno stayed.", "Daniel Williams", "Danno", 0),  # not the name's words
    ],
)
def test_a_nickname_written_inside_the_name_names_the_person_everywhere(text, name, nickname, count):
    """Inside the name the nickname is part of one occurrence ("Robert 'Bobby' Fenwick", written once as the role
    word); alone it is an occurrence of its own."""
    found = [text[s:e] for s, e in name_occurrences(text, name)]
    assert sum(nickname in f for f in found) == count, found
    assert "magic" not in found
    if count:
        assert found[0].startswith(name.split()[0]) and nickname in found[0] and found[0].endswith(name.split()[-1])


def test_the_initials_of_a_hyphenated_surname_are_the_name():
    # seen on a user's letter: "Re: M.D-O." left "-O." of Marguerite Duval-Okafor's initials
    text = "Re: M.D-O. - the applicant (initials M.D.O.) and M. D.-O. wrote; A.J. did not."
    found = [text[s:e] for s, e in name_occurrences(text, "Marguerite Duval-Okafor")]
    assert found == ["M.D-O.", "M.D.O.", "M. D.-O."]


def test_a_name_word_inside_a_compound_a_program_made_is_masked_whole():
    """A Wi-Fi network, a user name, a login: the name's word opening a CamelCase, underscore or digit compound, or
    after a part of three letters or more ("KimFamily_5G" survived); not after a particle ("McDonald" for Donald)."""
    text = "Her network 'KimFamily_5G' and login jkim_1985 and JennyKim; Kimberly and McKim were others."
    found = [text[s:e] for s, e in name_occurrences(text, "Jennifer Kim")]
    assert "KimFamily_5G" in found and "JennyKim" in found
    assert "Kimberly" not in found and "McKim" not in found
    other = "McDonald and LeBlanc met Donald Blanc; blanc_1985 wrote."
    found = [other[s:e] for s, e in name_occurrences(other, "Donald Blanc")]
    assert found == ["Donald Blanc", "blanc_1985"]


def test_one_writing_of_the_name_is_one_occurrence():
    """Occurrences with only spaces, brackets or quotation marks between them are one, with a suffix after a full
    name ("the person (the person) the person Jr." was written for "William (Bill) Hendricks Jr."); a pronunciation
    stays apart, an apostrophe of a possessive outside."""
    text = "William (Bill) Hendricks Jr., born 1971, knew Smith. Bill moved; Hendricks (Hendricks) stayed."
    found = [text[s:e] for s, e in name_occurrences(text, "William Hendricks")]
    assert found == ["William (Bill) Hendricks Jr.", "Bill", "Hendricks (Hendricks)"]
    carter = "Helena Bonham Carter acted. Bonham Carter began her career."
    assert [carter[s:e] for s, e in name_occurrences(carter, "Helena Bonham Carter")][1] == "Bonham Carter"
    possessive = "O'Brien's dog and O'Brien's cat."
    assert [possessive[s:e] for s, e in name_occurrences(possessive, "Pat O'Brien")] == ["O'Brien", "O'Brien"]
    spoken = "Angelina Jolie ( joh-LEE; born June 4, 1975) is an actress."
    occurrences, pronounced = name_occurrences_and_pronunciations(spoken, "Angelina Jolie")
    assert [spoken[s:e] for s, e in pronounced] == ["joh-LEE"] and len(occurrences) == 2
    # a bracket that holds more than the name stays in the text (an IT ticket: "opened by the person Finance, ext.
    # ***)" lost the bracket and the comma)
    ticket = "Ticket opened by m.ferreira (Marta Ferreira, Finance, ext. 4417): cannot log in"
    found = [ticket[s:e] for s, e in name_occurrences(ticket, "Marta Ferreira")]
    assert found == ["m.ferreira", "Marta Ferreira"]


def test_the_name_written_in_another_script_is_found():
    """Transliterated (anyascii), capitalized: Cyrillic and Greek writings of the name's words; a lower-case word and
    another romanization ("Γιώργος" is Giorgos, the target Georgios) are not."""
    text = "The applicant, Иван Петров, was detained. Петров complained; иван is lower."
    assert [text[s:e] for s, e in name_occurrences(text, "Ivan Petrov")] == ["Иван Петров", "Петров"]
    greek = "Ο Γιώργος Παπαδόπουλος is a fisherman."
    assert [greek[s:e] for s, e in name_occurrences(greek, "Georgios Papadopoulos")] == ["Παπαδόπουλος"]
    assert name_occurrences("Ivan met Petra.", "Ivan Petrov") == [(0, 4)]  # ASCII texts: nothing read twice


def test_the_name_written_in_chinese_characters_is_found():
    """A run of Chinese characters whose pinyin is the name's words run together (surname first or last) or a word of
    the name: "陈伟玲" and "伟玲" for Chen Wei-Ling; one character alone, or another name, is not."""
    text = "The patient, Ms. Chen Wei-Ling (陈伟玲), was referred. 伟玲 reported pain; 陈 and 王小明 did not."
    found = [text[s:e] for s, e in name_occurrences(text, "Chen Wei-Ling")]
    assert found == ["Chen Wei-Ling (陈伟玲)", "伟玲"]  # the name and its writing in brackets: one occurrence
    assert [t[s:e] for t in ["Li Na won; 李娜 said."] for s, e in name_occurrences(t, "Li Na")] == ["Li Na", "李娜"]
    assert [t[s:e] for t in ["Wei-Ling Chen; 陈伟玲."] for s, e in name_occurrences(t, "Wei-Ling Chen")][-1] == "陈伟玲"


@pytest.mark.parametrize(
    "text, glued",
    [
        # seen on a user's post: the handle was masked (a CODE), the hashtag holding the name survived
        ("Landed in Lisbon! #priyanairart #art", "priyanairart"),
        ("Write to priya_nair88 or see PriyaNairCV.pdf", "priya_nair88"),
        ("Write to priya_nair88 or see PriyaNairCV.pdf", "PriyaNairCV"),
        ("The site nair-priya.com is down", "nair-priya"),
    ],
)
def test_a_word_holding_two_of_the_names_words_glued_is_a_mention_masked_without_the_role_word(text, glued):
    found, unspoken = name_occurrences_and_pronunciations(text, "Priya Nair")
    assert glued in [text[s:e] for s, e in found]
    assert glued in [text[s:e] for s, e in unspoken]  # masked: never "#the person"


def test_short_or_single_name_words_glued_to_others_are_no_mention():
    text = "We ate annlees pies; Lee came."
    assert [text[s:e] for s, e in name_occurrences(text, "Ann Lee")] == ["Lee"]  # "ann" + "lee": under 7 letters
    assert name_occurrences("The priyankas office", "Priya Nair") == []  # one name word inside another word


@pytest.mark.parametrize(
    "text,found",
    [
        ("D/o K. Raghunathan, resides", "K. "),
        ("her father, K.S. Raghunathan, is", "K.S. "),
        ("signed by A. Raghunathan", None),  # her own initial
        ("signed by A. K. Raghunathan", None),  # hers among them
        ("Mr. Raghunathan declined", None),  # a title, no initial
        ("Raghunathan left", None),
    ],
)
def test_a_relatives_initials_before_the_surname(text, found):
    start = text.index("Raghunathan")
    first = other_given_before(text, start, start + len("Raghunathan"), "Ananya Raghunathan")
    assert (text[first:start] if first is not None else None) == found


@pytest.mark.parametrize(
    "text,found",
    [
        ("Bib 44127 Danielle Okoro finished", "Danielle "),  # another form of "Dani": she, or a relative
        ("later Dan Okoro, her father, spoke", "Dan "),
        ("then Dani Okoro spoke", None),  # her own given name: the occurrence is her name, not the surname alone
        ("Judge Okoro agreed", None),  # a title, no form of "Dani" whatever its letters
        ("when Okoro won", None),
        ("with Mark Okoro", None),  # another given name: the recognizer's to find
        ("with Da Okoro", None),  # under three letters
    ],
)
def test_another_form_of_a_given_name_before_the_surname(text, found):
    """A tweet: "Danielle Okoro" for Dani Okoro, "Danielle" labelled a place by the NER and kept: "Danielle the
    person"."""
    start = text.index("Okoro")
    first = other_given_before(text, start, start + len("Okoro"), "Dani Okoro")
    assert (text[first:start] if first is not None else None) == found


@pytest.mark.parametrize(
    "text,found",
    [
        ("FORENAME(S): CHIDI EMEKA\nDATE", "EMEKA"),  # a middle name the target's name left out
        ("Chidi Lagos met", "Lagos"),  # another Chidi, or a place: masked either way
        ("Chidi Brown met", None),  # an everyday English word (Zipf 5.0): the recognizer's to find
        ("Chidi And Emeka", None),
        ("Chidi, Emeka", None),  # a list, not one name
        ("Chidi Jr spoke", None),
    ],
)
def test_a_rare_name_after_the_given_name_alone(text, found):
    """A form in capitals: the target Chidi Okafor's middle name stayed beside his masked given name ("the person
    EMEKA")."""
    start = text.lower().index("chidi")
    last = other_name_after(text, start, start + len("Chidi"), "Chidi Okafor")
    assert (text[start + len("Chidi") : last].strip() if last is not None else None) == found
    # an occurrence of the surname alone has no middle name after it
    assert other_name_after("Okafor Emeka", 0, len("Okafor"), "Chidi Okafor") is None


@pytest.mark.parametrize(
    "text,name,found",
    [
        # an evaluated abstract's "Thomas Cruise Mapother IV" for Tom Cruise: "the person Mapother IV" would leak it
        ("Thomas Cruise Mapother IV (born 1962)", "Thomas Cruise", "Mapother IV"),
        ("Chidi Okafor Emeka spoke", "Chidi Okafor", "Emeka"),
        ("Chidi Okafor Brown spoke", "Chidi Okafor", None),  # an everyday English word
        ("Chidi Okafor's Emeka spoke", "Chidi Okafor", None),  # a possessive ends the name
    ],
)
def test_a_rare_name_after_the_full_name(text, name, found):
    """A further surname after the full name (its suffix with it) is masked with the name."""
    end = len(name)  # the occurrence: the name that opens the text
    last = other_name_after(text, 0, end, name)
    assert (text[end:last].strip() if last is not None else None) == found


@pytest.mark.parametrize(
    "text,name,found",
    [
        # a user's biography: the diminutive of the given name, written on its own, had survived twice
        (
            "Robert Kearney, known to friends as Bob, grew up in Drogheda. Bob later moved to Boston.",
            "Robert Kearney",
            ["Robert Kearney", "Bob", "Bob"],
        ),
        # before the surname it is one occurrence with it
        ("Elizabeth Marsh sang; later Liz Marsh retired.", "Elizabeth Marsh", ["Elizabeth Marsh", "Liz Marsh"]),
        # another person's full name, a form in capitals ("DOB") and an ordinary word ("Will" of William) are not it
        (
            "Robert Kearney met Bob Whitby. DOB 1970. Will he come?",
            "Robert Kearney",
            ["Robert Kearney"],
        ),
        ("William Tell. Will he come?", "William Tell", ["William Tell"]),
    ],
)
def test_a_diminutive_of_the_given_name_is_the_name(text, name, found):
    assert [text[s:e] for s, e in name_occurrences(text, name)] == found


def test_a_diminutive_on_its_own_is_masked_never_the_role_word():
    """A standalone diminutive may be a relative or a namesake: the optimizer writes it as a mask (the second list),
    the full name as the role word."""
    text = "Robert Kearney, known as Bob, left."
    found, masked = name_occurrences_and_pronunciations(text, "Robert Kearney")
    assert [text[s:e] for s, e in masked] == ["Bob"]
    assert [text[s:e] for s, e in found] == ["Robert Kearney", "Bob"]
    assert {"bob", "bobby", "rob"} <= set(diminutives("Robert"))
    tell = "William Tell. Bill. Later, Will came."
    # an ordinary word only where its capital says it is a name (not opening a sentence)
    assert [tell[s:e] for s, e in name_occurrences(tell, "William Tell")] == ["William Tell", "Will"]
