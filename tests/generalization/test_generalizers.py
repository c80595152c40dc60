"""Each generalizer on its own: dates, numbers, places, nationalities, nouns, organizations, persons, works."""

import pytest
from wordnet_data import needs_wordnet

from textanon.decide.generalization.context import capital_the_before, title_context
from textanon.decide.generalization.dates import century, generalize_date
from textanon.decide.generalization.nationalities import generalize_nationality
from textanon.decide.generalization.nouns import generalize_noun
from textanon.decide.generalization.numbers import generalize_number
from textanon.decide.generalization.organizations import (
    ORGANIZATION_TYPES,
    THING_TYPES,
    generalize_named_thing,
    head_noun,
    reads_as_name,
)
from textanon.decide.generalization.persons import generalize_person
from textanon.decide.generalization.places import generalize_place, place_context
from textanon.decide.generalization.propose import propose
from textanon.decide.generalization.works import generalize_title


def texts(found):
    return [g.text for g in found]


def test_dates_climb_from_the_day_to_the_century_and_cover_their_years():
    found = generalize_date("14 September 2009")
    assert texts(found) == ["September 2009", "2009", "the 2000s", "the 21st century"]
    assert found[2].members == tuple(str(y) for y in range(2000, 2010))
    assert (
        century(1900) == "the 20th century"
        and century(2011) == "the 21st century"
        and century(1199) == "the 12th century"
    )


@pytest.mark.parametrize("text", ["1999 and 2004", "2004–1999", "May", "a decade later", "the 1900s"])
def test_dates_without_one_year_or_with_an_ambiguous_century_are_not_generalized(text):
    assert generalize_date(text) == []


@pytest.mark.parametrize(
    "context, mention",
    [
        # seen on a user's document: the Hijri year 1445 became "the 15th century" (it is 2023)
        ("was fined on 14 Jumada al-Awwal 1445 (28 November 2023).", "1445"),
        ("He died on 12 Ramadan 1444 in Dubai.", "12 Ramadan 1444"),
        ("The deed is dated 1402 SH in Tehran.", "1402"),
        ("born on 3 Rabi ul Awwal 1390,", "1390"),
        ("a temple built in 2566 BE in Chiang Mai", "2566"),
        # a Hebrew date (a user's notice: "12 Adar 5784" had been kept; "12 Sivan 2000" is no year 2000 either)
        ("the bar mitzvah of Noam Levi on 12 Adar 5784.", "12 Adar 5784"),
        ("married on 12 Sivan 2000 in Haifa", "12 Sivan 2000"),
        # a year cut to two digits: its century is not written ("March '15" became "March between '10 and '20")
        ("She moved to the UK in March '15 and stayed.", "March '15"),
        ("the class of ’98 met again", "’98"),
    ],
)
def test_a_year_of_another_calendar_or_without_its_century_is_not_generalized(context, mention):
    assert propose("DATETIME", mention, context, context.index(mention)) == []


def test_a_gregorian_year_beside_another_calendars_date_is_still_generalized():
    context = "was fined on 14 Jumada al-Awwal 1445 (28 November 2023)."
    assert texts(propose("DATETIME", "28 November 2023", context, context.index("28 November")))[:2] == [
        "November 2023",
        "2023",
    ]


def test_numbers_become_a_range_then_an_order_of_magnitude_holding_the_value():
    assert texts(generalize_number("MDL 20,000")) == ["MDL between 20,000 and 30,000", "MDL at least 10,000"]
    assert texts(generalize_number("£300")) == ["between £300 and £400", "at least £100"]
    assert texts(generalize_number("5 million")) == ["between 5 and 6 million", "at least 1 million"]
    # right after "at" the bound follows the number (a referral letter: "had a stroke at at least 10")
    assert texts(generalize_number("52", "had a stroke at ")) == ["between 50 and 60", "10 or more"]
    assert texts(generalize_number("52", "a chat ")) == ["between 50 and 60", "at least 10"]


@pytest.mark.parametrize("text", ["3", "two", "10 and 20", ""])
def test_numbers_need_one_number_of_two_digits_or_more(text):
    assert generalize_number(text) == []


def test_places_from_the_offline_gazetteer():
    assert texts(generalize_place("Chisinau")) == ["a city in Moldova", "a city in Europe", "a city"]
    assert texts(generalize_place("the United States")) == ["a country in North America", "a country"]
    assert texts(generalize_place("Birmingham")) == ["a city"]  # two Birminghams of comparable size
    assert generalize_place("Xqzzy") == []
    assert "Tiraspol" in generalize_place("Chisinau")[0].members  # a Moldovan city counts for "a city in Moldova"
    # GeoNames writes "The Netherlands": "a city in the Netherlands", never "in the The Netherlands"
    assert texts(generalize_place("Utrecht"))[0] == "a city in the Netherlands"
    assert texts(generalize_place("Honiara"))[0] == "a city in the Solomon Islands"
    assert texts(generalize_place("Male"))[0] == "a city in the Maldives"
    assert texts(generalize_place("Paris"))[0] == "a city in France"
    # the last word of the line before modifies nothing: "country in North America v." was written
    heading = "SOUTHERN DISTRICT OF NEW YORK\nUNITED STATES v. JONATHAN A. REYES"
    assert texts(propose("LOC", "UNITED STATES", heading, heading.index("UNITED")))[0] == "a country in North America"


def test_persons_only_where_a_role_word_says_the_name_is_a_persons():
    assert texts(generalize_person("Jon Voight", "her father, Jon Voight", 15)) == ["another person"]
    assert generalize_person("Hackers", "she starred in Hackers", 15) == []


def test_a_name_right_after_a_possessive_is_no_other_person():
    # "with Variety's Todd McCarthy" became "with Variety's another person": a possessive owns a noun, not a name
    # written as "another person"; the name is suppressed instead ("Variety's ***")
    for context in ("reviewed with Variety's Todd McCarthy writing", "the critics’ Todd McCarthy wrote"):
        start = context.index("Todd")
        assert generalize_person("Todd McCarthy", context, start) == [], context
    assert texts(generalize_person("Todd McCarthy", "critic Todd McCarthy wrote", 7)) == ["another person"]


def test_titles_followed_by_a_release_year_are_works():
    text = "the film Hackers (1995) was"
    assert texts(generalize_title("Hackers", text, text.index("Hackers"))) == ["a work"]
    assert generalize_title("Hackers", "Hackers (1995-1997)", 0) == []


def test_a_name_after_a_works_cue_is_a_work_unless_it_owns_the_work():
    text = "a 1954 revival of Hay Fever, then a revival of Ian Hay's 1936 comedy and of Ian Hay\u2019s play"
    assert texts(generalize_title("Hay Fever", text, text.index("Hay Fever"))) == ["a work"]
    # seen on the development output: "a 1950s revival of a work the 1930s comedy" (the author taken for the work)
    assert generalize_title("Ian Hay", text, text.index("Ian Hay")) == []
    assert generalize_title("Ian Hay's", text, text.index("Ian Hay")) == []
    assert generalize_title("Ian Hay", text, text.rindex("Ian Hay")) == []  # a typographic apostrophe too
    # seen on the development output: "a feature-length production of The Goose Girl" -> "... of work based on": the
    # name's own article goes with it (fit_article), so the replacement's article is read before it
    text = "in a feature-length production of The Goose Girl based on a novel"
    assert texts(generalize_title("Goose Girl", text, text.index("Goose"))) == ["a work"]
    assert texts(generalize_title("Goose Girl", "The Goose Girl (1915) was", 4)) == ["work"]  # "The work (1915)"


@needs_wordnet
def test_nouns_take_their_wordnet_hypernyms_with_the_right_article_and_number():
    assert texts(generalize_noun("actress", "She is an actress", 10)) == ["actor", "performer", "entertainer", "person"]
    assert texts(generalize_noun("actress", "She was actress", 8)) == [
        "an actor",
        "a performer",
        "an entertainer",
        "a person",
    ]
    assert texts(generalize_noun("singers", "two singers", 4))[0] == "musicians"
    assert generalize_noun("weights", "lifting weights", 8) == []  # not a person noun nor a disease
    # after a hyphenated compound, no article: "this Nigerian-born a person" was written
    context = "seeing this 32 y.o. Nigerian-born software engineer, a practising Muslim"
    assert texts(generalize_noun("software engineer", context, context.index("software")))[-1] == "person"
    context = "the highest-paid actress over 40"
    assert texts(generalize_noun("actress", context, context.index("actress")))[0] == "actor"


@needs_wordnet
def test_nationalities_become_their_continents_demonym():
    assert texts(generalize_nationality("French")) == ["European"]
    assert texts(generalize_nationality("Americans")) == ["North Americans"]
    assert generalize_nationality("Jewish") == []


@needs_wordnet
def test_named_things_become_the_type_of_their_head_noun():
    assert head_noun("Academy Award for Best Actress") == "Award"
    assert texts(generalize_named_thing("Juilliard School", "at Juilliard School", 3))[0] == "a school"
    assert generalize_named_thing("Paramount Pictures", "at Paramount Pictures", 3) == []  # a plural head
    assert generalize_named_thing("BBC", "the BBC", 4) == []
    assert texts(generalize_named_thing("Golden Globe Award", "a Golden Globe Award", 2, THING_TYPES)) == ["award"]


def test_a_title_context_or_a_titles_article_is_recognized():
    assert title_context("she starred in Suicide Squad", len("she starred in "))
    assert not title_context("she joined the Royal Shakespeare Company", len("she joined the "))
    assert title_context("her next project, Suicide Squad", len("her next project, "))
    assert title_context(
        "she starred alongside Will Smith in Suicide Squad", len("she starred alongside Will Smith in ")
    )
    assert not title_context(
        "she starred in films. In 1990 she joined Disney", len("she starred in films. In 1990 she joined ")
    )
    assert capital_the_before("her work on The Crown", len("her work on The "))
    assert not capital_the_before("The Crown", 4)  # "The" at the start: a sentence's capital, not a title's
    assert not capital_the_before("at the Crown", 7)
    assert capital_the_before("a revival of In Celebration", len("a revival of In "))  # any title's first word
    assert not capital_the_before("In Celebration", 3)
    from textanon.decide.generalization.context import continues_a_name

    assert continues_a_name("in No Country for Old Men", len("in No Country for "))
    assert continues_a_name("The Lord of the Rings", len("The Lord of the "))
    assert not continues_a_name("she studied at the Juilliard School", len("she studied at the "))
    assert not continues_a_name("It ended. For Old Men", len("It ended. For "))


@needs_wordnet
def test_a_name_reads_as_an_organization_only_in_organization_naming_patterns():
    assert reads_as_name("University of Texas", "University")  # "<head> of <known place>"
    assert reads_as_name("Academy Award for Best Actress", "Award")
    assert not reads_as_name("House of Wax", "House")
    assert not reads_as_name("The Lord of the Rings", "Lord")
    assert not reads_as_name("University of the Arts", "University")
    assert not reads_as_name("Juilliard School", "School", "she starred in Juilliard School", 15)


@needs_wordnet
def test_a_compound_noun_of_another_kind_is_not_typed_by_its_head():
    """A US transcript: "your Social Security number" had become "your administrative unit number" (a security
    department); WordNet's "social security" is a government programme. A compound that is a kind of its head keeps
    the head's type."""
    assert generalize_named_thing("Social Security") == []
    assert [g.text for g in generalize_named_thing("Supreme Court")][:1] == ["a court"]
    assert [g.text for g in generalize_named_thing("Security Council")][:1] == ["a council"]


def test_a_city_the_text_places_elsewhere_is_not_generalized():
    """A place named after a comma is where the city is: the gazetteer's one city of that name is not meant when that
    place is another country, another state or a large city of another country (an Indian address: "Whitefield" had
    become "a city in the United Kingdom"); a small city after another country's city is a region there."""

    def first(name, text):
        return texts(generalize_place(name, text, text.index(name)))[:1]

    assert first("Whitefield", "Flat 12B, Whitefield, Bengaluru 560066") == []
    assert first("Paris", "She grew up in Paris, Texas and") == []
    # the city's own state or country after it: "a city" ("a city in Illinois, Illinois" said it twice, and "a city
    # in Texas, a US state" would name the state its own generalization hides)
    assert first("Lyon", "raised in Lyon, France.") == ["a city"]
    assert first("Austin", "lived in Austin, Texas.") == ["a city"]
    assert first("Leeds", "born in Leeds, England, to") == ["a city"]
    assert first("Skokie", "Beth Shalom in Skokie, Illinois, officiated") == ["a city"]
    assert first("Atlanta", "lived in Atlanta, Georgia.") == ["a city"]
    assert first("Lyon", "raised in Lyon and France.") == ["a city in France"]
    assert first("Bengaluru", "Whitefield, Bengaluru 560066") == ["a city in India"]  # large: a city
    assert first("Ontario", "born in Toronto, Ontario and") == []  # a province, not the Californian city
    assert first("Bradford", "lived in Leeds, Bradford and York") == ["a city in the United Kingdom"]
    assert first("Toronto", "born in Toronto, Ontario and") == ["a city in Canada"]  # an unknown region: no evidence
    # "Georgia" is a country and a US state: no level is true of both
    assert generalize_place("Georgia", "lived in Atlanta, Georgia.", 17) == []


def test_a_city_that_modifies_a_noun_is_not_generalized():
    """ "a Chicago theatre company" cannot become "a city in Illinois theatre company"."""
    text = "She joined a Chicago theatre company and works at the Leeds office in Chicago today."
    assert generalize_place("Chicago", text, text.index("Chicago")) == []
    assert generalize_place("Leeds", text, text.index("Leeds")) == []
    assert texts(generalize_place("Chicago", text, text.rindex("Chicago")))[0] == "a city in Illinois"


def test_a_country_or_a_us_state_that_modifies_a_noun_is_not_generalized():
    """A user's football biography: "the Qatar national team" had become "the country in Asia national team", "a
    California plate" "a place in North America plate", "the Mexico women's team" "the country women's team"."""
    text = "He played for the Qatar national team, drove a California plate and coached the Mexico women's team."
    for name in ("Qatar", "California", "Mexico"):
        assert generalize_place(name, text, text.index(name)) == [], name
    other = "He lived in Qatar today, then in California and later in Mexico."
    assert texts(generalize_place("Qatar", other, other.index("Qatar")))[0] == "a country in Asia"
    assert texts(generalize_place("California", other, other.index("California")))[0] == "a US state"
    assert texts(generalize_place("Mexico", other, other.index("Mexico")))[0] == "a country in North America"


def test_a_place_name_is_not_read_as_a_place_after_a_title_or_person_cue_or_as_a_given_name():
    assert place_context("London", "born in London to", 8)
    assert not place_context("Alice")  # a common given name
    assert not place_context("London", "she starred in London in", 15)
    assert not place_context("Paris", "her sister Paris was", 11)


@needs_wordnet
def test_person_nouns_climb_only_through_hypernyms_shared_by_all_their_senses():
    assert texts(generalize_noun("director")) == ["a person"]  # not "a head": a film director is no administrator
    assert texts(generalize_noun("actress"))[:1] == ["an actor"]


def test_a_century_covers_its_decades_and_its_years_but_not_the_ambiguous_hundredth():
    century_level = generalize_date("1987")[-1]
    assert century_level.text == "the 20th century"
    assert {"1987", "1901", "1999", "1990s"} <= set(century_level.members)
    assert "1900" not in century_level.members and "2000" not in century_level.members


def test_persons_where_the_words_right_before_say_so():
    for context in ("a film directed by Jon Smith", "she starred opposite Jon Smith", "alongside Jon Smith"):
        assert texts(generalize_person("Jon Smith", context, context.index("Jon"))) == ["another person"]
    for context in ("she directed Zorb Quux", "by Zorb Quux", "the opposite of Zorb Quux"):  # no given name
        assert generalize_person("Zorb Quux", context, context.index("Zorb")) == [], context


@needs_wordnet
def test_a_name_written_as_a_personal_name_is_another_person_unless_a_work_is_said():
    from textanon.decide.generalization.persons import is_personal_name

    for name in (
        "Emlyn Williams",
        "Jesse Tyler Ferguson",
        "Vincent van Gogh",
        "Paris Hilton",
        "Hal Needham",
        "Grace Kelly",  # "grace" is an everyday word, "Kelly" is none
        "Sylvester McCoy",
        "Scott O'Brien",
    ):
        assert is_personal_name(name), name
    for name in (
        "Will Smith",  # an everyday given name before an everyday word: may be a sentence
        "Rose Red",
        "Victoria Falls",  # a plural noun ends it: a place
        "Vincent Angelina's Ristorante",  # a possessive inside
        "Modern Family",
        "Chelsea Hospital",  # a place's name
        "Doomwatch",  # one word
        "Henry James'",  # a possessive
        "Man for All Seasons",  # lower-case words
        "Zorb Quux",  # no given name
    ):
        assert not is_personal_name(name), name
    for context in ("she met Jon Smith", "with Jon Smith and others"):
        assert texts(generalize_person("Jon Smith", context, context.index("Jon"))) == ["another person"], context
    for context in ("she starred in Jon Smith", "the film Jon Smith", 'she appeared in "Jon Smith'):
        assert generalize_person("Jon Smith", context, context.index("Jon")) == [], context


@needs_wordnet
def test_a_surname_alone_is_another_person_only_after_its_full_name_and_a_possessive_stays_one():
    context = "In 1940 she starred with Mickey Rooney. Rooney later married her."
    assert texts(generalize_person("Rooney", context, context.rindex("Rooney"))) == ["another person"]
    context = "The band Rooney released an album."
    assert generalize_person("Rooney", context, context.index("Rooney")) == []
    for given in ("Jane", "Sarah"):  # a lone given name may be a title's ("Leave It to Jane")
        assert generalize_person(given, f"with {given} there", 5) == []
    context = "before Charlie Chaplin's cameras"
    assert texts(generalize_person("Charlie Chaplin's", context, 7)) == ["another person's"]


@needs_wordnet
def test_noun_phrases_become_their_head_when_every_modifier_restricts_it():
    from textanon.decide.generalization.phrases import generalize_phrase, phrase_head

    assert phrase_head(["ensemble", "drama"], ["NN", "NN"]) == ("drama", False)
    assert texts(generalize_phrase("good reviews", ["good", "reviews"], ["JJ", "NNS"])) == ["reviews"]
    assert phrase_head(["former", "wife"], ["JJ", "NN"]) is None  # a former wife is no wife
    assert phrase_head(["so", "-", "called", "expert"], ["RB", "HYPH", "VBN", "NN"]) is None
    assert phrase_head(["soap", "opera"], ["NN", "NN"]) is None  # a WordNet compound: no opera
    assert phrase_head(["new", "soap", "opera"], ["JJ", "NN", "NN"]) == ("soap opera", True)
    assert phrase_head(["Royal", "Court"], ["NNP", "NNP"]) is None  # a name, not a common noun phrase
    assert phrase_head(["her", "sister"], ["PRP$", "NN"]) is None
    assert generalize_phrase("ensemble drama") == []  # without the tagger's tags nothing is guessed


@needs_wordnet
def test_single_nouns_climb_only_to_hypernyms_all_their_senses_share_in_safe_kinds():
    from textanon.decide.generalization.phrases import generalize_phrase, shared_hypernyms

    assert texts(generalize_phrase("ship", ["ship"], ["NN"])) == ["vessel", "craft"]
    assert texts(generalize_phrase("ships", ["ships"], ["NNS"])) == ["vessels"]  # one level: not "crafts"
    assert generalize_phrase("website", ["website"], ["NN"]) == []  # WordNet's "computer": not a safe kind
    assert generalize_phrase("musical", ["musical"], ["NN"]) == []  # a play or a film: neither holds for both
    assert generalize_phrase("working", ["working"], ["NN"]) == []  # a gerund, not WordNet's mine working
    assert generalize_phrase("Ship", ["Ship"], ["NN"]) == []
    assert shared_hypernyms("xqzzy") == []


@needs_wordnet
def test_wordnet_is_found_in_the_project_assets_without_nltk_data(monkeypatch, tmp_path):
    """``spacy project run`` does not export the Makefile's NLTK_DATA: the project's assets/nltk_data is read."""
    import os

    from textanon.decide.generalization import hypernyms as wordnet_module

    prepared = os.environ["NLTK_DATA"]
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "nltk_data").symlink_to(prepared, target_is_directory=True)
    monkeypatch.delenv("NLTK_DATA")
    monkeypatch.chdir(tmp_path)
    wordnet_module.wordnet.cache_clear()
    try:
        reader = wordnet_module.wordnet()
        assert reader.synsets("actress", pos="n")  # before the fix: nltk's default places, no WordNet -> an error
    finally:
        wordnet_module.wordnet.cache_clear()


@needs_wordnet
def test_wordnet_levels_and_members_do_not_depend_on_the_hash_seed():
    """NLTK returns hypernyms and hyponyms in an order that varies with Python's hash seed: the chains and the
    members the index counts must not (else the same document is anonymized differently from run to run)."""
    import os
    import subprocess
    import sys

    code = (
        "from textanon.decide.generalization.organizations import generalize_named_thing as g\n"
        "from textanon.decide.generalization.nouns import generalize_noun as n\n"
        "print([(x.text, x.members) for x in g('Royal Exchange Theatre') + n('veterinary surgeon') + n('dancer')])"
    )
    outputs = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1 and "building" in outputs.pop()


@needs_wordnet
@pytest.mark.parametrize(
    "context,name,proposed",
    [
        # dev output of the fast profile generalizing: "in which he played Doctor Ted Lewis" -> "played Doctor another
        # person"; a capitalized person noun right before the name is its title: "Doctor ***"
        ("in which he played Doctor Ted Lewis, who gets possessed", "Ted Lewis", False),
        ("a speech by President Barack Obama on the economy", "Barack Obama", False),
        ("to replace then-Governor Gray Davis in the recall", "Gray Davis", False),
        ("Director Steven Spielberg said that the film", "Steven Spielberg", False),
        # no title: "another person" as before
        ("in which he played opposite Ted Lewis, who", "Ted Lewis", True),
        ("a film directed by Steven Spielberg in 1993", "Steven Spielberg", True),
        ("her father, Jon Voight, in the film", "Jon Voight", True),
        # a capitalized word that is no person noun before the name: a place, a month
        ("he met in London Ted Lewis, who", "Ted Lewis", True),
        # a given name that WordNet also knows as a person noun ("mickey", "frank") is the name's own first word
        ("She starred with Mickey Rooney in 1940.", "Rooney", True),
        ("She starred with Frank Sinatra in 1955.", "Sinatra", True),
    ],
)
def test_a_name_after_its_capitalized_title_is_not_another_person(context, name, proposed):
    found = generalize_person(name, context, context.index(name))
    assert bool(found) is proposed, texts(found)


@needs_wordnet
def test_a_given_name_is_no_thing_of_its_common_nouns_sense():
    """A user's obituary: "mother of Carol and Ian" had become "mother of a religious song and Ian" (the common noun
    "carol"). A name WordNet itself writes capitalized is the thing's own name and keeps its type."""
    every = ORGANIZATION_TYPES + THING_TYPES
    doc_text = "Beloved wife of the late Harold, mother of Carol and Ian."
    assert generalize_named_thing("Carol", doc_text, doc_text.index("Carol"), every) == []
    doc_text = "nominated for Olivier, Golden Globe, Emmy and Saturn Awards"
    assert "an award" in [g.text for g in generalize_named_thing("Emmy", doc_text, doc_text.index("Emmy"), every)]


@needs_wordnet
@pytest.mark.parametrize(
    "name, doc_text",
    [
        ("Criminal Justice Act 1967", "the Criminal Justice Act 1967, s. 9 applies"),  # was "a social event"
        ("Companies Bill", "under the Companies Bill he"),  # was "a program", "a performance"
        ("Road Traffic Order", "under the Road Traffic Order he"),  # was "an organization"
        ("Maastricht Treaty", "since the Maastricht Treaty the"),
    ],
)
def test_a_laws_name_takes_no_type_of_a_rarer_sense_of_its_head(name, doc_text):
    """A user's witness statement: "the Criminal Justice Act 1967" had become "the social event" (an act of a show);
    a head whose most frequent sense is a law's kind of text names a law. Heads of other kinds keep their types."""
    assert generalize_named_thing(name, doc_text, doc_text.index(name)) == []
    assert generalize_named_thing(name, doc_text, doc_text.index(name), ORGANIZATION_TYPES + THING_TYPES) == []
    assert [g.text for g in generalize_named_thing("Peabody Award", "", 0, ORGANIZATION_TYPES + THING_TYPES)] == [
        "an award"
    ]
