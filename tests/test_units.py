"""Units of a document (textanon.decide.units) and the joining of adjacent placeholders (textanon.render.masking)."""

import spacy
from parsed_docs import parsed_doc

import textanon  # noqa: F401  (registers the extensions)
from textanon.decide.units import (
    CHUNK,
    GLUED,
    NAME,
    SPAN,
    TITLE,
    WORK,
    cover_names,
    cover_units,
    doc_units,
    overlapping_units,
)
from textanon.render.masking import absorb_named, apply, join_adjacent


def units_of(text, spans=(), **kwargs):
    """(unit text, kind) of a blank (untagged, unparsed) doc; spans: [(substring, entity id)] in doc.spans["pii"]."""
    doc = spacy.blank("en")(text)
    group = []
    for sub, eid in spans:
        start = text.index(sub)
        span = doc.char_span(start, start + len(sub), label="MISC")
        span._.entity_id = eid
        group.append(span)
    doc.spans["pii"] = group
    return {(text[s:e], kind) for s, e, kind in doc_units(doc, "pii", **kwargs)}


def test_runs_of_capitalized_words_are_units_without_leading_numbers_or_determiners():
    units = units_of("He won four Drama Desk Awards, then the Bank of England hired him.")
    assert ("Drama Desk Awards", NAME) in units
    assert ("Bank of England", NAME) in units
    assert not any(u.startswith(("four", "the")) for u, _ in units)


def test_a_sentence_may_open_with_a_name_and_a_quoted_nickname_stays_inside_it():
    units = units_of('Drama Desk Awards were given. Danny "Danno" Williams left.')
    assert ("Drama Desk Awards", NAME) in units
    assert ('Danny "Danno" Williams', NAME) in units


def test_tokens_written_as_one_word_are_one_unit():
    text = "A 6m statue stood there at 10am; they won't come, as Jolie's co-star knew."
    units = {u for u, kind in units_of(text) if kind == GLUED}
    assert {"6m", "10am", "won't"} <= units
    assert not units & {"Jolie's", "co-star", "6m statue"}  # an apostrophe or a hyphen at the joint: words apart
    doc = spacy.blank("en")(text)
    start = text.index("6m")
    masks, extended = cover_units([(start, start + 1, "***")], doc_units(doc, "pii"), {"***"})
    assert apply(text, masks).startswith("A *** statue") and extended == 1


def test_stop_words_and_lone_names_are_no_units():
    units = units_of("However London was far. The Times said so and I agreed.")
    assert {u for u, kind in units if kind == NAME} == set()  # one name word each: nothing to keep whole


def test_a_capitalized_article_inside_a_sentence_opens_a_name():
    # seen on the development output: "in the *** production of The ***", "including A *** Dream"
    text = "She was in The Tempest, in A Midsummer Night and with An Ideal Husband, as The Times said."
    names = {u for u, kind in units_of(text) if kind == NAME}
    assert {"The Tempest", "A Midsummer Night", "An Ideal Husband", "The Times"} <= names
    start = text.index("Tempest")
    doc = spacy.blank("en")(text)
    masks, _ = cover_units([(start, start + len("Tempest"), "***")], doc_units(doc, "pii"), {"***"})
    assert apply(text, masks).startswith("She was in ***, in")
    # at a sentence's start (or lower case) the article is the sentence's: no name of one word
    assert not {u for u, kind in units_of("The Tempest opened. Then the Times said so.") if kind == NAME}


def test_a_capitalized_number_word_inside_a_sentence_is_part_of_the_name():
    # seen on the development output: "her own *** sitcom, The ***," for "her own CBS sitcom, The Seven Roses,"
    text = "She starred in her own sitcom, The Seven Roses, and in Ocean's Eleven. Four Drama Desk Awards followed."
    names = {u for u, kind in units_of(text) if kind == NAME}
    assert "The Seven Roses" in names
    assert "Drama Desk Awards" in names and not any(u.startswith("Four") for u in names)  # a sentence's first word
    start = text.index("Roses")
    doc = spacy.blank("en")(text)
    masks, _ = cover_units([(start, start + len("Roses"), "***")], doc_units(doc, "pii"), {"***"})
    assert apply(text, masks).startswith("She starred in her own sitcom, ***, and")


def test_two_detected_entities_that_meet_cut_a_run():
    text = "On Monday Ion Rusu and Maria Pop met the Bank of England."
    cut = units_of(text, [("Monday", "T1"), ("Ion Rusu", "P1"), ("Maria Pop", "P2")])
    assert ("Monday Ion Rusu and Maria Pop", NAME) not in cut
    assert ("Ion Rusu", SPAN) in cut and ("Maria Pop", SPAN) in cut
    assert not any("Monday" in u and "Rusu" in u for u, _ in cut)
    whole = units_of(text)  # nothing detected: the run is one unit
    assert ("Monday Ion Rusu and Maria Pop", NAME) in whole


def test_a_masked_word_span_does_not_cut_its_name():
    doc = spacy.blank("en")("the Bank of England")
    word = doc.char_span(4, 8, label="MISC")
    word._.entity_id, word._.source = "W1", "candidate:word"
    place = doc.char_span(12, 19, label="LOC")
    place._.entity_id = "L1"
    doc.spans["pii"] = [word, place]
    assert (4, 19, NAME) in doc_units(doc, "pii")


def test_quoted_titles_are_units_and_quoted_speech_is_not():
    units = units_of('He starred in "A Night in Salzburg" and said "we were happy there" to me.')
    assert ("A Night in Salzburg", TITLE) in units
    assert not any(kind == TITLE and "happy" in u for u, kind in units)


def test_extra_span_groups_are_units():
    doc = spacy.blank("en")("a surgeon in Balti town")
    doc.spans["pii"] = []
    doc.spans["llm_pii"] = [doc.char_span(13, 23, label="PII")]
    assert doc_units(doc, "pii") == []
    assert doc_units(doc, "pii", ["llm_pii"]) == [(13, 23, SPAN)]


def test_a_parsed_doc_gets_the_proper_noun_part_of_its_noun_chunks():
    doc = parsed_doc(
        ["Yesterday", "the", "drama", "Desk", "Awards", "gala", "ended"],
        pos=["NOUN", "DET", "NOUN", "PROPN", "PROPN", "NOUN", "VERB"],
        heads=[6, 5, 5, 4, 5, 6, 6],
        deps=["npadvmod", "det", "compound", "compound", "compound", "nsubj", "ROOT"],
    )
    doc.spans["pii"] = []
    units = {(doc.text[s:e], kind) for s, e, kind in doc_units(doc, "pii")}
    assert ("Desk Awards", CHUNK) in units

    tagged = parsed_doc(["Later", "Petrescu", "Awards", "left"], pos=["ADV", "PROPN", "PROPN", "VERB"])
    tagged.spans["pii"] = []
    assert [tagged.text[s:e] for s, e, _ in doc_units(tagged, "pii")] == ["Petrescu Awards"]  # PROPN decides
    assert ("Later Petrescu Awards", NAME) in units_of("Later Petrescu Awards left")  # untagged: privacy first


def test_cover_units_extends_a_placeholder_to_the_whole_unit_and_nothing_else():
    text = "four Drama Desk Awards and Danno"
    units = [(5, 22, NAME)]
    masks, extended = cover_units([(11, 15, "***"), (27, 32, "***")], units, {"***"})
    assert (apply(text, masks), extended) == ("four *** and ***", 1)
    words, none = cover_units([(11, 15, "a desk")], units, {"***"})  # a generalization is a word: left as it is
    assert (apply(text, words), none) == ("four Drama a desk Awards and Danno", 0)


def test_cover_units_goes_on_until_no_unit_is_covered_in_part():
    text = "Alpha Beta Gamma Delta"
    units = [(0, 10, SPAN), (6, 22, NAME)]  # "Alpha Beta", "Beta Gamma Delta"
    masks, extended = cover_units([(0, 5, "***")], units, {"***"})
    assert apply(text, masks) == "***" and extended == 2


def test_overlapping_units():
    units = [(0, 5, NAME), (10, 20, NAME), (30, 40, TITLE)]
    assert overlapping_units(units, [(12, 14), (39, 45)]) == [(10, 20, NAME), (30, 40, TITLE)]
    assert overlapping_units(units, [(5, 10)]) == []
    assert overlapping_units(units, []) == []


def test_adjacent_equal_placeholders_join_and_words_do_not():
    text = "Ion Rusu Maria Pop met Ana Lungu  Dan Pop\nIon Ene and Bob"

    def at(sub, rep):
        return (text.index(sub), text.index(sub) + len(sub), rep)

    masks = [at("Ion Rusu", "***"), at("Maria Pop", "***"), at("Ana Lungu", "Jane Doe"), at("Dan Pop", "John Roe")]
    masks += [at("Ion Ene", "***"), at("Bob", "***")]
    joined, count = join_adjacent(text, masks, {"***"})
    assert apply(text, joined) == "*** met Jane Doe  John Roe\n*** and ***"
    assert count == 1  # pseudonyms are words; a line break and "and" keep placeholders apart
    labels, n = join_adjacent("Acme Corp Globex met", [(0, 9, "[ORG]"), (10, 16, "[ORG]")], {"[ORG]"})
    assert (labels, n) == ([(0, 16, "[ORG]")], 1)
    numbered, n = join_adjacent("Acme Globex", [(0, 4, "[ORG_1]"), (5, 11, "[ORG_2]")], {"[ORG_1]", "[ORG_2]"})
    assert n == 0 and len(numbered) == 2  # two different entities, told apart by their numbers


def test_a_placeholder_whose_parenthesis_holds_only_the_same_placeholder_takes_it_in():
    text = "She starred in Gone Fast (2000), Big Win (2003) and in Paris (France) (2001)."

    def at(sub, rep="***"):
        return (text.index(sub), text.index(sub) + len(sub), rep)

    masks = [at("Gone Fast"), at("2000"), at("Big Win"), at("2003", "[DATE]"), at("Paris"), at("2001")]
    joined, count = join_adjacent(text, masks, {"***", "[DATE]"})
    # a title and its year both suppressed: one placeholder; another placeholder, a word or a kept parenthesis
    # between them: apart
    assert apply(text, joined) == "She starred in ***, *** ([DATE]) and in *** (France) (***)."
    assert count == 1


def test_a_title_before_its_release_year_is_one_unit_however_its_words_read():
    # far into a long text (the title is read back from the year within a window of the text)
    lead = "She was raised in Los Angeles by her mother, who gave up her own ambitions of acting. " * 3
    text = (
        lead + "She debuted beside her father in Lookin' to Get Out (1982). She starred in Gone in 60 Seconds "
        "(2000) and Girl, Interrupted (1999), then in Hackers (1995), Gia (1998) and Lara Croft: Tomb Raider (2001). "
        "The film (2003) was made in 12 (2004) days. In 2005, Mr. & Mrs. Smith (2005) came out."
    )
    works = {u for u, kind in units_of(text) if kind == WORK}
    assert {"Lookin' to Get Out", "Gone in 60 Seconds", "Girl, Interrupted", "Lara Croft: Tomb Raider"} <= works
    assert {"Hackers", "Gia"} <= works  # a list of titles: each its own ("(1995), Gia" is no title)
    assert "Mr. & Mrs. Smith" in works and not any("2005" in w for w in works)  # a comma after a year ends it
    assert not any(w.startswith(("in ", "starred", "She")) or "film" in w for w in works)
    doc = spacy.blank("en")(text)
    start = text.index("Lookin")
    masks, extended = cover_units([(start, start + len("Lookin"), "***")], doc_units(doc, "pii"), {"***"})
    assert extended == 1 and apply(text, masks).count("*** (1982)") == 1 and "to Get Out" not in apply(text, masks)


def test_a_generalized_title_before_another_persons_name_takes_the_name_in():
    text = "She danced with the eccentric millionaire Howard Hughes, then director Ann Lee's film. Hughes left."
    g1, g2 = text.index("millionaire"), text.index("director")
    n1, n2, n3 = text.index("Howard Hughes"), text.index("Ann Lee's"), text.index("Hughes left")
    masks = [
        (g1, g1 + len("millionaire"), "person"),
        (n1, n1 + len("Howard Hughes"), "another person"),
        (g2, g2 + len("director"), "a person"),
        (n2, n2 + len("Ann Lee's"), "another person's"),
        (n3, n3 + len("Hughes"), "another person"),
    ]
    out, taken = absorb_named(text, masks, {"person", "a person", "another person", "another person's"})
    assert apply(text, out) == "She danced with the eccentric person, then a person's film. another person left."
    assert taken == 2
    # a name before a name, a placeholder, or a comma between: nothing taken in
    kept = [(0, 3, "***"), (4, 10, "another person")]
    assert absorb_named("She danced", kept, {"person"}) == (kept, 0)
    text = "the director, Ann Lee"
    masks = [(4, 12, "a person"), (14, 21, "another person")]
    assert absorb_named(text, masks, {"a person"})[1] == 0


def test_a_name_written_another_person_takes_in_its_given_names():
    # seen on the development output: "His widow, Matilda another person," and "directed by Cecil another person."
    from textanon.detect.given_names import given_name

    def written(text, name, rep="another person", extra=()):
        doc = spacy.blank("en")(text)
        start = text.index(name)
        masks = [(start, start + len(name), rep)] + list(extra)
        out, n = cover_names(text, masks, doc_units(doc, "pii"), {"another person", "another person's"}, given_name)
        return apply(text, out), n

    assert written("His widow, Matilda Catherine Griffith, died.", "Catherine Griffith") == (
        "His widow, another person, died.",
        1,
    )
    assert written("It was directed by Cecil B. DeMille in 1915.", "DeMille") == (
        "It was directed by another person in 1915.",
        1,
    )
    assert written("with Ann Lee's film.", "Lee's", "another person's")[0] == "with another person's film."
    # a title is no given name (seen on the evaluated output: "then-Governor Gray Davis" -> "then-another person");
    # a connector joins two people; a placeholder is left to the whole units
    assert written("to replace then-Governor Gray Davis.", "Gray Davis")[1] == 0
    assert written("It starred Governor Gray Davis.", "Gray Davis")[1] == 0
    assert written("with Jon Voight and Marcheline Bertrand.", "Marcheline Bertrand")[1] == 0
    assert written("His widow, Matilda Catherine Griffith, died.", "Catherine Griffith", "***")[1] == 0
    # another mask before it: never crossed
    text = "His widow, Matilda Catherine Griffith, died."
    start = text.index("Matilda")
    assert written(text, "Catherine Griffith", extra=[(start, start + 7, "***")])[1] == 0


def test_a_detected_span_that_stops_inside_a_bracket_takes_the_bracket_that_closes_it():
    # dev output of the fast profile generalizing: en_core_web_sm's NER read "House Across the Bay (1940" as one ORG,
    # and the mask on it left its bracket: "then he did ***) for another person"
    text = "then he did The House Across the Bay (1940) for Walter Wanger."
    start, stop = text.index("House"), text.index("1940") + 4
    units = units_of(text, [("House Across the Bay (1940", "O1")])
    assert ("House Across the Bay (1940)", SPAN) in units
    doc = spacy.blank("en")(text)
    span = doc.char_span(start, stop, label="ORG")
    span._.entity_id = "O1"
    doc.spans["pii"] = [span]
    masks, _ = cover_units([(start, stop, "***")], doc_units(doc, "pii"), {"***"})
    assert apply(text, masks) == "then he did *** for Walter Wanger."
    # a span with its brackets balanced, or with no closing bracket right after it, is left as it is
    assert ("Crump (1897–1992)", SPAN) in units_of("the son of Crump (1897–1992).", [("Crump (1897–1992)", "P1")])
    assert ("Bay (1940", SPAN) in units_of("the Bay (1940 and 1941)", [("Bay (1940", "O1")])


def test_a_unit_that_holds_one_quotation_mark_takes_the_whole_quoted_stretch():
    # a span (as a noun chunk would) that ends inside a quoted title: masked, it would leave the closing mark alone
    text = 'She starred in the 1929 Warner Brothers showcase movie "Show of Shows", but never sang.'
    units = units_of(text, [('Warner Brothers showcase movie "Show', "MISC_1")])
    assert ('Warner Brothers showcase movie "Show of Shows"', SPAN) in units
    assert ("Show of Shows", TITLE) in units  # a quoted title is the text between its quotes, as before
    start = text.index("Warner")
    masks, _ = cover_units(
        [(start, start + 6, "***")], whole_units(text, 'Warner Brothers showcase movie "Show'), {"***"}
    )
    assert apply(text, masks) == "She starred in the 1929 ***, but never sang."
    # a unit that holds both marks, or none, is left as it was
    both = units_of('Danny "Danno" Williams left.')
    assert ('Danny "Danno" Williams', NAME) in both


def whole_units(text, sub):
    """The units of a blank doc whose pii group holds the span ``sub``."""
    doc = spacy.blank("en")(text)
    start = text.index(sub)
    span = doc.char_span(start, start + len(sub), label="MISC")
    span._.entity_id = "MISC_1"
    doc.spans["pii"] = [span]
    return doc_units(doc, "pii")


def test_a_list_of_names_written_another_person_reads_as_how_many_other_people():
    from textanon.render.masking import join_people

    text = (
        "She co-starred with Ann Lee, Bob Ray, Cy Dee, and Di Fox in 1990, with Ed Ko and Flo Mo's film, "
        "then Gus Hu & Hal Ng. Ian Po,\nJo Wu."
    )
    names = ["Ann Lee", "Bob Ray", "Cy Dee", "Di Fox", "Ed Ko", "Flo Mo's", "Gus Hu", "Hal Ng", "Ian Po", "Jo Wu"]
    masks = []
    for name in names:
        start = text.index(name)
        masks.append((start, start + len(name), "another person's" if name.endswith("'s") else "another person"))
    masks.append((text.index("1990"), text.index("1990") + 4, "the 1990s"))
    joined, lists = join_people(text, masks)
    assert apply(text, joined) == (
        "She co-starred with four other people in the 1990s, with another person and another person's film, "
        "then two other people. another person,\nanother person."  # a possessive ends no list; a line break
    )
    assert lists == 2
    # the same characters masked: every name and the separators between those joined
    assert sum(e - s for s, e, _ in joined) >= sum(e - s for s, e, _ in masks)
    ten = ", ".join(f"N{i} X" for i in range(12))
    masks = [(ten.index(f"N{i} X"), ten.index(f"N{i} X") + len(f"N{i} X"), "another person") for i in range(12)]
    assert apply(ten, join_people(ten, masks)[0]) == "12 other people"


def test_how_many_other_people_opens_a_sentence_with_a_capital_and_takes_no_article():
    from textanon.decide.generalization.base import fit_articles
    from textanon.render.masking import join_people

    text = "The film was a hit. Meryl Streep and Tom Hanks starred, with a Meg Ryan and Tom Cruise cameo."
    masks = []
    for name in ("Meryl Streep", "Tom Hanks", "Meg Ryan", "Tom Cruise"):
        start = text.index(name)
        masks.append((start, start + len(name), "another person"))
    joined, _ = join_people(text, masks)
    fitted = fit_articles(text, joined, {"another person", "two other people"})
    assert apply(text, fitted) == "The film was a hit. Two other people starred, with two other people cameo."
