"""The entity linker: mentions of one entity (name variants, acronyms, repeats) share an id."""

from core_fixtures import linked_spans

import textanon  # noqa: F401
from textanon.pipes.entity_linker import acronym, normalize


def linked(text, mentions):
    """Run the linker on hand-placed spans: mentions = [(substring, label)] in text order."""
    return {(s.text, s.start_char): s._.entity_id for s in linked_spans(text, mentions)}


def test_normalize_and_acronym():
    assert normalize("Mr  Galip Yalman") == "galip yalman"
    assert normalize("the Ministry of Justice") == "ministry of justice"
    assert acronym("European Court of Human Rights") == "ECHR"


def test_person_variants_link_to_the_full_name():
    text = "Mr Galip Yalman met Ms Ayse Kaya. Later Yalman and G. Yalman left; Kaya stayed."
    ids = linked(
        text, [(name, "PERSON") for name in ("Mr Galip Yalman", "Ms Ayse Kaya", "Yalman", "G. Yalman", "Kaya")]
    )
    by_text = {}
    for (t, _), e in ids.items():
        by_text.setdefault(t, set()).add(e)
    yalman = by_text["Mr Galip Yalman"]
    assert by_text["G. Yalman"] == yalman
    assert by_text["Kaya"] == by_text["Ms Ayse Kaya"] != yalman
    assert len({e for es in by_text.values() for e in es}) == 2


def test_ambiguous_surname_stays_separate():
    text = "Andrei Petrescu and Irina Petrescu arrived. Petrescu spoke."
    ids = linked(text, [("Andrei Petrescu", "PERSON"), ("Irina Petrescu", "PERSON"), ("Petrescu", "PERSON")])
    assert len(set(ids.values())) == 3


def test_acronym_and_currency_links_and_ids_are_numbered_by_label():
    text = "The European Court of Human Rights (ECHR) awarded EUR 5,000 (approximately 7,000 US dollars)."
    ids = linked(
        text,
        [
            ("European Court of Human Rights", "ORG"),
            ("ECHR", "ORG"),
            ("EUR 5,000", "QUANTITY"),
            ("7,000 US dollars", "QUANTITY"),
        ],
    )
    values = list(ids.values())
    assert values[0] == values[1] == "ORG_1"
    assert values[2] == values[3] == "QUANTITY_1"


def test_exact_repeats_share_an_id():
    text = "Balti is small. He moved to Balti."
    ids = linked(text, [("Balti", "LOC"), ("Balti", "LOC")])
    assert len(set(ids.values())) == 1


def test_name_suffix_is_not_the_surname():
    text = "Martin Luther King Jr. met Sammy Davis Jr.; later King spoke."
    ids = linked(text, [("Martin Luther King Jr.", "PERSON"), ("Sammy Davis Jr.", "PERSON"), ("King", "PERSON")])
    assert ids[("King", text.index("King spoke"))] == ids[("Martin Luther King Jr.", 0)]


def test_a_person_span_without_a_word_is_left_alone():
    """The recognizer once labelled "🇹", half of the flag 🇵🇹, a PERSON: the linker raised IndexError and the
    whole document became an error record. Such a span has no name to link by; it keeps an id of its own."""
    text = "Landed with Julia Novak 💕 and Novak stayed."
    ids = linked(text, [("Julia Novak", "PERSON"), ("💕", "PERSON"), ("Novak", "PERSON")])
    novak = ids[("Julia Novak", text.index("Julia"))]
    assert ids[("Novak", text.rindex("Novak"))] == novak
    assert ids[("💕", text.index("💕"))] != novak


def test_a_name_with_a_nickname_is_the_name_and_the_nickname_alone_is_that_person():
    text = 'Robert "Bob" Hartley left. Bob moved; Robert Hartley met Margaret Hartley.'
    ids = linked(
        text,
        [
            ('Robert "Bob" Hartley', "PERSON"),
            ("Bob", "PERSON"),
            ("Robert Hartley", "PERSON"),
            ("Margaret Hartley", "PERSON"),
        ],
    )
    robert = ids[('Robert "Bob" Hartley', 0)]
    assert ids[("Bob", text.index("Bob moved"))] == ids[("Robert Hartley", text.index("Robert Hartley"))] == robert
    assert ids[("Margaret Hartley", text.index("Margaret"))] != robert


def test_a_nickname_of_two_people_stays_on_its_own():
    text = 'Robert "Bob" Hartley and Roberta "Bob" Lane came. Bob spoke.'
    ids = linked(text, [('Robert "Bob" Hartley', "PERSON"), ('Roberta "Bob" Lane', "PERSON"), ("Bob", "PERSON")])
    assert len(set(ids.values())) == 3


def test_a_name_and_its_form_in_its_own_script_are_one_entity():
    text = "Ms Chen Wei-Ling (陈伟玲) met Ivan Petrov (Иван Петров) in Kyiv (Київ)."
    ids = linked(
        text,
        [
            ("Ms Chen Wei-Ling", "PERSON"),
            ("陈伟玲", "PERSON"),
            ("Ivan Petrov", "PERSON"),
            ("Иван Петров", "PERSON"),
            ("Kyiv", "LOC"),
            ("Київ", "LOC"),
        ],
    )
    assert ids[("Ms Chen Wei-Ling", 0)] == ids[("陈伟玲", text.index("陈"))]
    assert ids[("Ivan Petrov", text.index("Ivan"))] == ids[("Иван Петров", text.index("Иван"))]
    assert ids[("Kyiv", text.index("Kyiv"))] == ids[("Київ", text.index("Київ"))]
    assert len(set(ids.values())) == 3
