"""One generalization serves every mention of an entity (textanon.decide.generalization.propose.propose_for_mentions):
kept only when no mention, read in its own context, is another kind of thing."""

from textanon.decide.generalization.propose import propose, propose_for_mentions


def texts(found):
    return [g.text for g in found]


def test_linked_names_whose_mentions_read_as_other_kinds_get_no_generalization():
    """A film linked with the person it is named after ("Ray Jones" and "Jones (2004)"), or a name whose other
    mention is only the start of a longer title ("[Guardians]: Dark Horizon"), gets nothing: the one list would be
    false of one of the mentions."""
    person_and_film = "She admired Ray Jones. She played his sister in Jones (2004), a biopic."
    mentions = [("Ray Jones", person_and_film.index("Ray Jones")), ("Jones", person_and_film.index("Jones ("))]
    assert propose_for_mentions("PERSON", mentions, person_and_film) == []
    titles = "He starred in Guardians (2014). He returned in Guardians: Dark Horizon (2018)."
    first, second = titles.index("Guardians"), titles.rindex("Guardians")
    assert texts(propose("MISC", "Guardians", titles, first))  # alone, the first is "a work"
    assert propose_for_mentions("MISC", [("Guardians", first), ("Guardians", second)], titles) == []


def test_a_shorter_mention_that_says_less_keeps_the_generalization():
    """ "Ray Jones" and "Jones", both people: the person's generalization stands for both."""
    text = "She admired Ray Jones. Jones later married her."
    mentions = [("Ray Jones", text.index("Ray Jones")), ("Jones", text.rindex("Jones"))]
    assert texts(propose_for_mentions("PERSON", mentions, text)) == ["another person"]


def test_a_film_named_with_its_year_once_and_without_it_later_stays_a_work():
    text = "She starred in Harbor Lights (2003). The release of Harbor Lights made her famous."
    mentions = [("Harbor Lights", text.index("Harbor Lights")), ("Harbor Lights", text.rindex("Harbor Lights"))]
    assert texts(propose_for_mentions("MISC", mentions, text)) == ["a work"]


def test_the_same_words_that_get_nothing_in_their_own_context_refuse_the_list():
    """ "v. City of Camden" and "a 29-year-old Camden resident": one list serves both mentions, and "a city in the
    United States resident" is no English, so neither is generalized; "Paris" and "Paris, Texas" likewise (the
    second is no city in France). A shorter mention's nothing ("Oxford" of "University of Oxford") still says less,
    not something else (above)."""
    text = "Freeman v. City of Camden, Defendant. Freeman, a 29-year-old Camden resident, alleges"
    mentions = [("Camden", text.index("Camden")), ("Camden", text.rindex("Camden"))]
    assert texts(propose("LOC", "Camden", text, mentions[0][1]))  # alone, the first is a city
    assert propose_for_mentions("LOC", mentions, text) == []
    paris = "She lived in Paris for a decade. Her brother grew up in Paris, Texas."
    mentions = [("Paris", paris.index("Paris")), ("Paris", paris.rindex("Paris"))]
    assert propose_for_mentions("LOC", mentions, paris) == []
    assert texts(propose_for_mentions("LOC", mentions[:1], paris))[0] == "a city in France"
