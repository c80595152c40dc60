"""WordNet's SemCor counts read once (``lemma_count``) are nltk's ``Lemma.count()``."""

from wordnet_data import needs_wordnet

from textanon.decide.generalization.hypernyms import hyponym_lemmas, lemma_count, wordnet


@needs_wordnet
def test_counts_read_once_are_nltks():
    wn = wordnet()
    lemmas = [
        lemma for word in ("actor", "doctor", "city", "film", "award") for s in wn.synsets(word) for lemma in s.lemmas()
    ]
    assert [lemma_count(lemma) for lemma in lemmas] == [lemma.count() for lemma in lemmas]
    assert any(lemma_count(lemma) > 0 for lemma in lemmas)


@needs_wordnet
def test_hyponym_lemmas_are_a_fresh_list_each_time():
    synset = wordnet().synset("actor.n.01")
    first = hyponym_lemmas(synset)
    first.append("changed")
    assert "changed" not in hyponym_lemmas(synset)


def _every_level(synset, limit):
    """The definition read in full: both levels of hyponyms, every qualifying lemma, then the first ``limit``."""
    from textanon.decide.generalization.hypernyms import lemma_text

    wn = wordnet()
    out, frontier = [lemma_text(synset)], [synset]
    for _ in range(2):
        found = {h for s in frontier for h in s.hyponyms()}
        frontier = sorted(found, key=lambda h: (-sum(lemma_count(x) for x in h.lemmas()), h.name()))
        out += [lemma_text(h) for h in frontier if wn.synsets(h.lemmas()[0].name(), pos=wn.NOUN)[:1] == [h]]
    return list(dict.fromkeys(out))[:limit]


@needs_wordnet
def test_hyponym_lemmas_stop_reading_once_the_limit_is_reached():
    # issue 30: the second level below "person" has thousands of synsets; it is read only when the first falls short
    wn = wordnet()
    for name in ("person.n.01", "entertainer.n.01", "award.n.02", "city.n.01", "actor.n.01", "spouse.n.01"):
        for limit in (1, 3, 20, 60):
            assert hyponym_lemmas(wn.synset(name), limit) == _every_level(wn.synset(name), limit), (name, limit)


@needs_wordnet
def test_senses_read_from_the_index_are_nltks_synsets():
    """``has_sense`` / ``first_senses`` answer ``bool(wn.synsets(w, pos))`` / ``wn.synsets(w, pos)[:n]`` without
    parsing the senses they skip: inflected forms, exceptions, compounds, capitals, satellites and unknown words."""
    from textanon.decide.generalization.hypernyms import first_senses, has_sense

    wn = wordnet()
    words = ["playing", "acclaimed", "men", "geese", "falls", "Actors", "French", "crown", "star", "better", "was"]
    words += ["struggling", "film_director", "New_York", "zzqx", "dancers", "abilities", "running", "lives", "red"]
    words += [name for n, name in enumerate(wn.all_lemma_names()) if n % 97 == 0][:400]
    for word in words:
        for pos in "nvar":
            senses = wn.synsets(word, pos=pos)
            assert has_sense(word, pos) == bool(senses), (word, pos)
            for n in (1, 3):
                assert first_senses(word, pos, n) == senses[:n], (word, pos, n)
    assert has_sense("geese", "n") and not has_sense("zzqx", "n")
