"""Articles around a replacement (issue 17's known defect): "an American" -> "a North American", never "an North
American" or "a an award"."""

import re

import pytest
from wordnet_data import needs_wordnet

from textanon.decide.generalization.base import fit_article, fit_articles


def written(text, original, replacement):
    start = text.index(original)
    new_start, rep = fit_article(text, start, replacement)
    return text[:new_start] + rep + text[start + len(original) :]


#: (text, original, replacement, expected): what ``fit_article`` writes
PLAIN = [
    ("She is an American actress.", "American", "North American", "She is a North American actress."),
    ("She won a Golden Globe Award in", "Golden Globe Award", "an award", "She won an award in"),
    ("She won an Oscar in", "Oscar", "an award", "She won an award in"),
    ("He is an Academy Award-winning actor", "Academy Award", "an award", "He is an award-winning actor"),
    ("in a 2009 film", "2009", "the 2000s", "in a 2000s film"),
    ("In 2009 Oscar went", "Oscar", "an award", "In 2009 an award went"),
    ("with a Jon Smith lookalike", "Jon Smith", "another person", "with another person lookalike"),
    ("An American actress", "American", "North American", "A North American actress"),
    ("her Juilliard School years", "Juilliard School", "a school", "her school years"),
    ("and the Golden Globe Award for", "Golden Globe Award", "an award", "and the award for"),
    ("in the 1990s", "1990s", "the 20th century", "in the 20th century"),
    ("born in Chisinau in", "Chisinau", "a city in Moldova", "born in a city in Moldova in"),
    ("Oscar. Juilliard School taught", "Juilliard School", "a school", "Oscar. A school taught"),
    ("Juilliard School taught", "Juilliard School", "a school", "A school taught"),
    ("Mr. Smith met a man", "Smith", "another person", "Mr. another person met a man"),
    ("met J. Smith there", "Smith", "another person", "met J. another person there"),
    # a capitalized article inside a sentence is the name's own: it goes with it ("revival of The work")
    ("a revival of The Music Man at", "Music Man", "a work", "a revival of a work at"),
    ("she moved to The Hague in", "Hague", "a city in the Netherlands", "she moved to a city in the Netherlands in"),
    ("as The Rock said", "Rock", "another person", "as another person said"),
    ("in the movie The Tourist (2010)", "Tourist", "a work", "in the movie a work (2010)"),
    # a determiner and a number before the replacement: no article of its own (a reference letter)
    ("he won the 2019 Innovation Medal.", "Innovation Medal", "a medal", "he won the 2019 medal."),
    ("his 3 Emmy Awards", "Emmy Awards", "awards", "his 3 awards"),
    ("he won 3 Emmy Awards", "Emmy Awards", "awards", "he won 3 awards"),
    # a pronoun's contraction is no possessive: the replacement keeps its article ("Jane's the 2010s" would lose it)
    ("it's 2019 now", "2019", "the 2010s", "it's the 2010s now"),
    ("Jane's 2019 film", "2019", "the 2010s", "Jane's 2010s film"),
    ("The Music Man opened", "Music Man", "a work", "The work opened"),  # a sentence's own "The": as before
    ("It closed. The Music Man opened", "Music Man", "a work", "It closed. The work opened"),
]

#: the same, for cases that read WordNet, by what they show
WITH_WORDNET = {
    # issue 32: "the late a person", "executive a person"
    "no article between a premodifier and its noun": [
        ("Robert's late father, Jack", "father", "a person", "Robert's late person, Jack"),
        ("and executive producer Jack", "producer", "a creator", "and executive creator Jack"),
        ("a successful money manager and", "manager", "a leader", "a successful money leader and"),
        ("as a singer-songwriter in", "songwriter", "a writer", "as a singer-writer in"),
        ("every recipient of", "recipient", "an acquirer", "every acquirer of"),
        ("History of type 2 diabetes and", "diabetes", "an illness", "History of type 2 illness and"),
        ("She had stage 4 cancer", "cancer", "an illness", "She had stage 4 illness"),
        # spaCy's stop words that are adjectives before a noun (a clinic letter: "a former a worker")
        ("He is a former postman living", "postman", "a worker", "He is a former worker living"),
        ("the first actress to", "actress", "a performer", "the first performer to"),
        ("she founded her own company in", "company", "an organization", "she founded her own organization in"),
    ],
    "a participle right after a determiner modifies the noun": [
        (
            "where she played a struggling ballet dancer.",
            "ballet dancer",
            "an entertainer",
            "where she played a struggling entertainer.",
        ),
        ("the leading actor of", "actor", "a performer", "the leading performer of"),
        # and so does one after a hyphenated premodifier (a referral letter: "this *** retired a laborer")
        (
            "seeing this 58-year-old retired miner from",
            "miner",
            "a laborer",
            "seeing this 58-year-old retired laborer from",
        ),
        # or after an age (a user's radiology report: "75 y/o retired a laborer")
        ("history: 75 y/o retired coal miner from", "coal miner", "a laborer", "history: 75 y/o retired laborer from"),
        ("a 60 years old retired nurse", "nurse", "a caregiver", "a 60 years old retired caregiver"),
        # a participle after another word is a verb there: "He retired a laborer" keeps the article
        ("In 1990 he retired miner", "miner", "a laborer", "In 1990 he retired a laborer"),
    ],
    # seen on the development output of the search profile: "the cult-classic Rad by acclaimed a person"
    'a past participle right after a preposition modifies the noun; an "-ing" form there is a verb': [
        (
            "the cult-classic Rad by acclaimed director Hal",
            "director",
            "a person",
            "the cult-classic Rad by acclaimed person Hal",
        ),
        ("a novel from celebrated author Ann", "author", "a writer", "a novel from celebrated writer Ann"),
        ("known for playing detective roles", "detective", "a person", "known for playing a person roles"),
    ],
    "after a possessive the replacement's own article goes": [
        ("After Will Gluck's 2014 film adaptation", "2014", "the 2010s", "After Will Gluck's 2010s film adaptation"),
        ("the director's Academy Award", "Academy Award", "an award", "the director's award"),
        ("Smith's Jon Voight", "Jon Voight", "another person", "Smith's another person"),
    ],
    "a noun joined to one after a determiner shares that determiner": [
        ("his wife the actress and singer Vera", "singer", "a performer", "his wife the actress and performer Vera"),
        ("He is an actor, writer and director of", "director", "a person", "He is an actor, writer and person of"),
        ("the American actress and singer who", "singer", "a performer", "the American actress and performer who"),
        ("She is an actress and a singer", "singer", "a performer", "She is an actress and a performer"),
        ("She sang and director Ann", "director", "a person", "She sang and a person Ann"),
    ],
    "a verb, a stop word or a participle WordNet knows as a verb keeps it": [
        ("He became director in", "director", "a person", "He became a person in"),
        ("He was named director in", "director", "a person", "He was named a person in"),
    ],
    'a date generalized past its day takes "in", not "on"': [
        ("She was born on 26 July 1945 in", "26 July 1945", "the 20th century", "She was born in the 20th century in"),
        ("On 3 May 2001 she", "3 May 2001", "May 2001", "In May 2001 she"),
        # a day written as an ordinal, its "the" outside the date's span (a user's deed: "on the the 21st century")
        ("They met on the 21st of June 1999 in", "21st of June 1999", "the 1990s", "They met in the 1990s in"),
        ("signed on the twenty-first day of June 1999", "twenty-first day of June 1999", "1999", "signed in 1999"),
        # a year that modifies a noun after "on the" keeps them: the tour was not "in" the decade
        ("He played on the 2009 tour", "2009", "the 2000s", "He played on the 2000s tour"),
    ],
}
WORDNET_CASES = [pytest.param(*case, marks=needs_wordnet) for cases in WITH_WORDNET.values() for case in cases]


@pytest.mark.parametrize("text,original,replacement,expected", PLAIN + WORDNET_CASES)
def test_the_article_before_a_replacement_fits_it(text, original, replacement, expected):
    assert written(text, original, replacement) == expected


def test_the_article_is_not_taken_from_the_previous_replacement():
    text = "a b Oscar"
    assert fit_article(text, 4, "an award", floor=3) == (4, "an award")  # "b" ends a previous mask: untouched
    assert fit_article("a Oscar", 2, "an award", floor=2) == (2, "an award")


def test_only_generalizations_are_fitted():
    text = "She is an American actress and an Oscar winner."
    masks = [(10, 18, "North American"), (33, 38, "***")]
    assert fit_articles(text, masks, {"North American"}) == [(7, 18, "a North American"), (33, 38, "***")]


def test_the_attacker_check_finds_replacements_whatever_article_was_fitted():
    from textanon.decide.generalization.targeted_check import written_key

    assert written_key("a North American") == written_key("North American") == "north american"
    assert written_key("The award") == written_key("an award") == "award"
    assert written_key("the 2000s") == "2000s" and written_key("another person") == "another person"


@needs_wordnet
def test_nouns_take_no_article_after_a_premodifier_and_a_common_plural():
    from textanon.decide.generalization.base import noun_phrase, plural_of

    text = "Robert's late father and a father"
    assert noun_phrase("person", text, text.index("father")) == "person"
    assert noun_phrase("person", text, text.rindex("father")) == "person"  # after "a": fitted by fit_article
    assert noun_phrase("person", "He became father", 10) == "a person"
    assert plural_of("child") == "children" and plural_of("brother") == "brothers"  # not "childs", "brethren"


def _fitted(text, original, replacement):
    start = text.index(original)
    return fit_articles(text, [(start, start + len(original), replacement)], {replacement})[0][2]


@needs_wordnet
def test_a_name_that_modifies_the_noun_after_it_takes_no_article_of_its_own():
    # issue 32: "She also received Academy Award nominations" became "received an award nominations"
    assert _fitted("She received Academy Award nominations for both.", "Academy Award", "an award") == "award"
    assert _fitted("He is an Oscar winner.", "Oscar", "an award") == "an award"  # the article before is the text's
    assert _fitted("She won the Oscar nomination.", "Oscar", "an award") == "award"  # after a determiner, as before
    # a verb, a preposition, a capitalized word or nothing after it: the article stays
    assert _fitted("She won Academy Award playing a nurse.", "Academy Award", "an award") == "an award"
    assert _fitted("She won Academy Award for Best Actress.", "Academy Award", "an award") == "an award"
    assert _fitted("She won Academy Award twice.", "Academy Award", "an award") == "an award"
    assert _fitted("She won Academy Award, then another.", "Academy Award", "an award") == "an award"
    assert _fitted("She won Academy Award Winners Cup.", "Academy Award", "an award") == "an award"
    # "the" of a date or of the protected person's role word is no indefinite article: never dropped here
    assert _fitted("In 2019 films she starred.", "2019", "the 2010s") == "the 2010s"
    # a possessive replacement owns the noun after it: its article stays ("played a person's wife", a title and its
    # name written as one generalization)
    assert _fitted("She played boxer Ali's wife.", "boxer Ali's", "a person's") == "a person's"


def test_a_sentence_start_is_read_from_the_text_just_before():
    """``sentence_start`` reads back from the position (not a copy of the text before it), as the rule says: the
    text's start or only whitespace before, after ". ", "! ", "? " or a line break, never after an abbreviation."""
    from textanon.decide.generalization.base import sentence_start

    text = "  \n Mr. Smith met J. Doe. \tThe U.S. Army came! Who? Yes\n\tno . x"
    expected = {0, 1, 2, 3, 4, 26, 27, 47, 52}
    for start in range(len(text) + 1):
        head = text[:start].rstrip(" \t")
        if not head.strip():
            reference = True
        elif head[-1] == "." and re.search(r"(?<![\w.])(?:[A-Za-z]|mr|mrs|ms|dr|st|jr|sr|prof|no|vs)\.$", head, re.I):
            reference = False
        else:
            reference = head[-1] in ".!?\n" and start > 0
        assert sentence_start(text, start) == reference, start
        if start in expected:
            assert sentence_start(text, start), start


def _written_whole(text, original, replacement):
    start = text.index(original)
    new_start, _, rep = fit_articles(text, [(start, start + len(original), replacement)], {replacement})[0]
    return text[:new_start] + rep + text[start + len(original) :]


#: (text, name, expected) for a name generalized to "another person", whole masks fitted (``fit_articles``)
OWNER_CASES = [
    # seen on the development output of the search profile: "in the Susan Stroman revival of" -> "in the another
    # person revival of"; "He was in a Pete Smith short" -> "He was in another person short"
    ("in the Susan Stroman revival of", "Susan Stroman", "in another person's revival of"),
    ("He was in a Pete Smith short, a", "Pete Smith", "He was in another person's short, a"),
    ("She starred in an Ann Lee film.", "Ann Lee", "She starred in another person's film."),
    ("The Susan Stroman revival opened", "Susan Stroman", "Another person's revival opened"),
    # no article before it (it may be the object of a verb: "sent Jon Smith photographs"), or a verb, a preposition or
    # a capitalized word after it: as before
    ("He sent Jon Smith photographs of her.", "Jon Smith", "He sent another person photographs of her."),
    ("with a Jon Smith and", "Jon Smith", "with another person and"),
    ("a Jon Smith playing", "Jon Smith", "another person playing"),
    ("the Jon Smith Show", "Jon Smith", "the another person Show"),
]


@needs_wordnet
@pytest.mark.parametrize("text,original,expected", OWNER_CASES)
def test_a_name_after_an_article_that_modifies_the_noun_after_it_becomes_a_possessive(text, original, expected):
    assert _written_whole(text, original, "another person") == expected


#: (label, mention, text, common noun, whether a generalization is proposed): after a plural quantifier a singular
#: mention modifies the plural noun after it, so a replacement with a determiner of its own would read as no English
#: (dev output of the search profile: "two veteran CIA officers" -> "two a person *** were ..."; of the fast profile
#: with generalization: "many Los Angeles and Canadian-based charitable organizations" -> "many a city in North
#: America and ...")
QUANTIFIED = [
    ("DEM", "veteran", "In the film, two veteran CIA officers were reminiscing about their past.", True, False),
    ("LOC", "Los Angeles", "He is involved in many Los Angeles and Canadian-based charitable groups.", False, False),
    ("DEM", "veteran", "Twenty-five veteran CIA officers came.", True, False),
    ("DATETIME", "2009", "He made two 2009 films.", False, False),  # "two the 2000s films"
    ("DEM", "veteran", "One veteran CIA officer spoke; then two veteran CIA officers came.", True, False),  # any
    # the article is dropped before the noun the mention modifies: "two award nominations", "several actor friends"
    ("MISC", "Oscar", "She received two Oscar nominations for the role.", False, True),
    ("DEM", "actress", "She is one of several actress friends of the director.", True, True),
    # a year before a mention is no quantifier; neither is "one"
    ("LOC", "Paris", "In 1999 Paris was chosen.", False, True),
    ("DATETIME", "2009", "In 2009 films were made.", False, True),
    ("DEM", "veteran", "He met one veteran CIA officer.", True, True),
]


@needs_wordnet
@pytest.mark.parametrize("label, mention, text, common_noun, proposed", QUANTIFIED)
def test_no_replacement_with_its_own_determiner_after_a_plural_quantifier(label, mention, text, common_noun, proposed):
    from textanon.decide.generalization.propose import propose_for_mentions

    mentions = [(mention, i) for i in range(len(text)) if text.startswith(mention, i)]
    found = propose_for_mentions(label, mentions, text, 4, common_noun)
    assert bool(found) is proposed, [g.text for g in found]
    # where one is proposed, it reads as English after the quantifier as fit_article writes it
    for g in found:
        start = mentions[-1][1]
        _, written = fit_article(text, start, g.text, end=start + len(mention))
        assert not re.match(r"(?i)(two|several)\s+(an?|the)\s", text[start - 8 : start].split(".")[-1] + written)


def test_plural_quantifiers_are_cardinals_from_two_and_quantifiers_never_years():
    from textanon.decide.generalization.base import after_plural_quantifier

    def before(text):
        return after_plural_quantifier(text + " X", len(text) + 1)

    assert before("two") and before("Twenty-five") and before("several") and before("with 12") and before("many")
    assert not before("one") and not before("In 1989") and not before("with 1") and not before("the")
    assert not before("at 3.5") and not before("on 12/5") and not before("")


def test_a_possessive_swallowed_by_the_mask_before_still_owns_the_replacement():
    # seen on the development output: "a 1954 revival of Ian Hay's 1936 comedy" -> "a 1950s revival of *** the 1930s
    # comedy": the mask holds "Ian Hay's", and "the" of the date's replacement came in after it
    from textanon.render.masking import apply

    text = "in a 1954 revival of Ian Hay's 1936 comedy, Housemaster, with"
    owner, year = text.index("Ian"), text.index("1936")
    masks = fit_articles(text, [(owner, year - 1, "***"), (year, year + 4, "the 1930s")], {"the 1930s"})
    assert apply(text, masks) == "in a 1954 revival of *** 1930s comedy, Housemaster, with"
    # a replacement of its own after a mask without a possessive keeps its article
    text = "toured with Ian Hay in 1936 films"
    owner, year = text.index("Ian"), text.index("1936")
    masks = fit_articles(text, [(owner, owner + 7, "***"), (year, year + 4, "the 1930s")], {"the 1930s"})
    assert apply(text, masks) == "toured with *** in the 1930s films"


@needs_wordnet
def test_a_period_after_an_adjective_of_its_noun_phrase_drops_its_article():
    # seen on the development output: "the influential 1916 screen version" -> "the *** the 1910s *** of ***"
    from textanon.render.masking import apply

    assert written("the influential 1916 screen version of", "1916", "the 1910s") == (
        "the influential 1910s screen version of"
    )
    assert written("after a long 1957 tour", "1957", "the 1950s") == "after a long 1950s tour"
    text = "the influential 1916 screen version of"
    adjective, year = text.index("influential"), text.index("1916")
    masks = [(adjective, adjective + len("influential"), "***"), (year, year + 4, "the 1910s")]
    assert apply(text, fit_articles(text, masks, {"the 1910s"})) == "the *** 1910s screen version of"
    # no adjective before: the period keeps its article
    assert written("In 1916 films were made", "1916", "the 1910s") == "In the 1910s films were made"
    assert written("She was born in 1957 and", "1957", "the 1950s") == "She was born in the 1950s and"


def test_that_before_a_capitalized_name_is_a_conjunction():
    # seen on the development output (the protected person's role word, tests/generalization/test_role.py); the same
    # for a generalization: "said that Paris was" -> "said that a city in France was", never "that city in France"
    assert written("She said that Paris was lovely.", "Paris", "a city in France") == (
        "She said that a city in France was lovely."
    )
    assert written("He won that award in 1990.", "1990", "the 1990s") == "He won that award in the 1990s."


@pytest.mark.parametrize(
    "label,mention,text,proposed",
    [
        # seen on the evaluated output (disclosed, docs/generalization.md): "the Robert Zemeckis-directed film" ->
        # "the another person-directed film"
        (
            "PERSON",
            "Robert Zemeckis",
            "He portrayed a wire walker in the Robert Zemeckis-directed film The Walk.",
            False,
        ),
        ("LOC", "Los Angeles", "She founded a Los Angeles-based charity.", False),
        ("DATETIME", "1994", "She moved to London in mid-1994 and stayed.", False),
        # a one-word replacement joins a compound as the original did: "Oscar-winning" -> "award-winning"
        ("MISC", "Oscar", "the Oscar-winning actress", True),
        # outside a compound, as before
        ("PERSON", "Robert Zemeckis", "in a film directed by Robert Zemeckis, The Walk.", True),
        ("DATETIME", "1994", "She moved to London in 1994 and stayed.", True),
        ("LOC", "Los Angeles", "She founded a charity in Los Angeles.", True),
    ],
)
@needs_wordnet
def test_no_replacement_of_several_words_inside_a_hyphenated_compound(label, mention, text, proposed):
    from textanon.decide.generalization.propose import propose_for_mentions

    mentions = [(mention, i) for i in range(len(text)) if text.startswith(mention, i)]
    found = propose_for_mentions(label, mentions, text, 4, False)
    assert bool(found) is proposed, [g.text for g in found]
    for g in found:  # where one is proposed inside a compound, it is one word
        start, end = mentions[0][1], mentions[0][1] + len(mention)
        if text[end : end + 1] == "-" or text[start - 1 : start] == "-":
            assert " " not in g.text


def test_a_case_title_on_its_own_line_keeps_the_replacements_article():
    # seen on a user's US judgment: the last word of the line before and the "v." after it made "country in North
    # America v. ***" (no article); neither modifies the replaced name
    from textanon.decide.generalization.base import fit_article, modifies_noun_after

    text = "SOUTHERN DISTRICT OF NEW YORK\nUNITED STATES v. JONATHAN A. REYES"
    start = text.index("UNITED")
    assert fit_article(text, start, "a country in North America", start - 1, start + 13)[1] == (
        "A country in North America"
    )
    assert not modifies_noun_after("UNITED STATES v. REYES", 13)
    award = "received Academy Award nominations."
    assert modifies_noun_after(award, award.index(" nominations"))  # a noun at a sentence's end still counts


def test_a_name_before_an_irregular_verb_form_keeps_the_replacements_article():
    # seen on a user's immigration decision: "a national of Eritrea born on ..." read "born" as a noun (WordNet's only
    # noun sense is the physicist Max Born) and wrote "a national of country born"
    from textanon.decide.generalization.base import fit_article, modifies_noun_after

    text = "The appellant, a national of Eritrea born on 1 January 1994."
    start, end = text.index("Eritrea"), text.index(" born")
    assert not modifies_noun_after(text, end)
    assert fit_article(text, start, "a country", start, end)[1] == "a country"
    for verb_form in ("Leeds saw a boom", "Titanic won eleven awards", "Kerry left the party"):
        assert not modifies_noun_after(verb_form, verb_form.index(" "))
    reference = "Home Office reference A12."
    assert modifies_noun_after(reference, reference.index(" reference"))  # a regular noun still counts


@pytest.mark.parametrize(
    "text, original, replacement, expected",
    [
        # a century that modifies the word after it is hyphenated, as English writes it
        ("he won the 2019 Innovation Medal.", "2019", "the 21st century", "he won the 21st-century Innovation Medal."),
        ("her 1999 film", "1999", "the 20th century", "her 20th-century film"),
        # no word it modifies after it, or a stop word: as before
        ("during the 1999 and 2001 seasons", "1999", "the 20th century", "during the 20th century and 2001 seasons"),
        ("in 1999.", "1999", "the 20th century", "in the 20th century."),
        ("a 2009 film", "2009", "the 2000s", "a 2000s film"),
    ],
)
def test_a_century_before_the_word_it_modifies_is_hyphenated(text, original, replacement, expected):
    start = text.index(original)
    new_start, rep = fit_article(text, start, replacement, 0, start + len(original))
    assert text[:new_start] + rep + text[start + len(original) :] == expected


def test_a_verbs_third_person_before_a_date_is_no_premodifier():
    # seen on a user's log excerpt: "the log says 1999-02-03T10:00:00Z." read "says" as a plural noun modifying the
    # date and wrote "the log says 20th century"
    from textanon.decide.generalization.base import after_premodifier, fit_article

    text = "Seen twice; the log says 1999-02-03T10:00:00Z."
    start = text.index("1999")
    assert not after_premodifier(text, start)
    assert fit_article(text, start, "the 20th century", 0, len(text) - 1)[1] == "the 20th century"
    film = "the influential 1916 screen version"
    assert after_premodifier(film, film.index("1916"))  # an adjective still is one
    works = "his works 1990s editions"
    assert after_premodifier(works, works.index("1990s"))  # a plural noun WordNet lists as its own lemma still is one
