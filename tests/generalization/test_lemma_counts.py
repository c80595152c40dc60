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
