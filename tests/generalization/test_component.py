"""``textanon_generalizer`` in a pipeline: candidates per entity, scored by the risk model in use, fail closed."""

import spacy
from fake_models import LENGTH_LM  # noqa: F401  (registers the fake language model)
from wordnet_data import needs_wordnet

import textanon  # noqa: F401
import textanon.pipes.factories  # noqa: F401  (the factories, also without the entry points)
from textanon.pipes import generalizer as component


def pipeline(ic_source="auto"):
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_lm_risk", config={"model": {"@misc": LENGTH_LM}, "threshold": -2.0})
    nlp.add_pipe("textanon_generalizer", config={"ic_source": ic_source})
    nlp.add_pipe("textanon_optimizer", config={"replacement": "generalize"})
    return nlp


def run(nlp, text, mentions, target=None):
    doc = nlp.make_doc(text)
    spans = []
    for sub, label, eid in mentions:
        start = text.index(sub)
        span = doc.char_span(start, start + len(sub), label=label)
        span._.entity_id, span._.source = eid, "ner"
        spans.append(span)
    doc.spans["pii"] = spans
    doc._.target = target
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def test_candidates_are_scored_by_the_language_model_and_chosen_when_they_clear_the_risk():
    # LengthLM: each word costs len/2 (log10... the risk scorer reads ln): "14 September 2009" is risky
    text = "He left on 14 September 2009 for good."
    doc = run(pipeline(), text, [("14 September 2009", "DATETIME", "T1")])
    span = doc.spans["pii"][0]
    assert [g["text"] for g in span._.generalizations] == ["September 2009", "2009", "the 2000s", "the 21st century"]
    assert all(g["ic"] <= span._.ic for g in span._.generalizations)
    assert doc._.risky_combinations == [["T1"]]
    assert span._.treatment.startswith("generalize:")
    assert "14 September" not in doc._.anonymized_text and "***" not in doc._.anonymized_text


def test_a_failing_generalizer_leaves_no_candidates_and_the_optimizer_suppresses(monkeypatch):
    from textanon.pipes import generalizer as module

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(module, "propose_for_mentions", broken)
    doc = run(pipeline(), "He left on 14 September 2009 for good.", [("14 September 2009", "DATETIME", "T1")])
    assert doc._.anonymized_text == "He left on *** for good."
    assert any("generalization failed (RuntimeError)" in w for w in doc._.anonymization_warnings)


@needs_wordnet
def test_word_frequency_fallback_scores_candidates_without_a_risk_model():
    nlp = spacy.blank("en")
    gen = nlp.add_pipe("textanon_generalizer")
    doc = run(nlp, "She is an actress.", [("actress", "DEM", "D1")])
    assert gen.risk_components() == (None, None)
    found = doc.spans["pii"][0]._.generalizations
    assert found is None  # a blank pipeline has no tagger and the span is not a gazetteer term: not a known noun
    doc = nlp.make_doc("She is an actress.")
    span = doc.char_span(10, 17, label="DEM")
    span._.entity_id, span._.source = "D1", "gazetteer"
    doc.spans["pii"] = [span]
    doc = gen(doc)
    assert [g["text"] for g in doc.spans["pii"][0]._.generalizations][0] == "actor"
    assert all(g["ic"] > 0 for g in doc.spans["pii"][0]._.generalizations)


def test_the_protected_name_becomes_its_role_word_and_nothing_that_contains_it_does():
    text = "Ann Harding was an actress. Harding's first film failed. The Harding Theatre closed."
    mentions = [("Ann Harding", "PERSON", "P1"), ("Harding Theatre", "ORG", "O1")]
    doc = run(pipeline(), text, mentions, target="Ann Harding")
    out = doc._.anonymized_text
    assert "Harding" not in out and "Ann" not in out
    # every occurrence is the role word, capitalized at a sentence's start, possessive kept; the organization whose
    # name holds the surname is masked as a whole (never "The the person Theatre")
    assert out.startswith("The person was an actress. The person's first film failed.")
    assert "person Theatre" not in out
    masks = {text[s:e]: r for s, e, r in doc._.masks}
    assert masks["Ann Harding"] == "The person" and masks["Harding"] == "The person"

    suppressing = spacy.blank("en")
    suppressing.add_pipe("textanon_optimizer", config={"replacement": "generalize", "target_role": ""})
    doc = suppressing(text)
    doc._.target = "Ann Harding"
    doc = suppressing.get_pipe("textanon_optimizer")(doc)
    assert doc._.anonymized_text.startswith("*** was an actress. ***'s first film")


def _tagged(words, tags):
    from spacy.tokens import Doc

    doc = Doc(spacy.blank("en").vocab, words=words, tags=tags)
    doc.spans["pii"] = [doc[3:4]]
    return doc


def test_a_common_noun_before_another_noun_gets_no_generalization():
    # "a child actor": "a person actor" is no English, whatever WordNet says of "child"
    doc = _tagged(["He", "was", "a", "child", "actor", "."], ["PRP", "VBD", "DT", "NN", "NN", "."])
    assert component.modifies_next_noun(doc.spans["pii"][0])
    alone = _tagged(["He", "was", "a", "child", "then", "."], ["PRP", "VBD", "DT", "NN", "RB", "."])
    assert not component.modifies_next_noun(alone.spans["pii"][0])
    untagged = spacy.blank("en")("He was a child actor .")
    assert not component.modifies_next_noun(untagged[3:4])  # not a gazetteer term: no evidence of a noun


def test_without_a_tagger_a_common_noun_before_a_person_noun_gets_no_generalization():
    # the fast and search profiles run no tagger (decision 8): "a child actor" must not become "a person actor"
    doc = spacy.blank("en")("He was a child actor .")
    child = doc[3:4]
    child._.source = "gazetteer"
    assert component.modifies_next_noun(child)
    alone = spacy.blank("en")("He was a child then .")
    alone[3:4]._.source = "gazetteer"
    assert not component.modifies_next_noun(alone[3:4])


def test_the_pair_bound_is_a_setting_of_the_component():
    import pytest

    nlp = spacy.blank("en")
    assert nlp.add_pipe("textanon_generalizer", config={"max_pair_checks": 10}).max_pair_checks == 10
    assert spacy.blank("en").add_pipe("textanon_generalizer").max_pair_checks == 500_000
    with pytest.raises(ValueError, match="max_pair_checks"):
        component.Generalizer(max_pair_checks=-1)


def test_a_title_and_the_name_after_it_get_no_generalization():
    # issue 32: "stockbroker Chris Gardner" became "a person another person"; "boxer Muhammad Ali" "a person ***"
    from spacy.tokens import Doc, Span

    words = ["as", "stockbroker", "Chris", "Gardner", "in", "the", "film", "."]
    tags = ["IN", "NN", "NNP", "NNP", "IN", "DT", "NN", "."]
    doc = Doc(spacy.blank("en").vocab, words=words, tags=tags)
    name, title, film = Span(doc, 2, 4, label="PERSON"), Span(doc, 1, 2, label="DEM"), Span(doc, 6, 7, label="MISC")
    title._.source = "gazetteer"
    film._.source = "gazetteer"
    names = {2}
    assert component.title_and_name(name, names)  # the name after its title
    assert component.title_and_name(title, names)  # the title before a name
    assert not component.title_and_name(film, names)  # a noun before no name
    # a name after a verb, an article or a capitalized word keeps its generalization
    other = Doc(
        spacy.blank("en").vocab, words=["He", "met", "Chris", "Gardner", "."], tags=["PRP", "VBD", "NNP", "NNP", "."]
    )
    assert not component.title_and_name(Span(other, 2, 4, label="PERSON"), {2})


def test_without_a_tagger_a_title_and_the_name_after_it_get_no_generalization():
    # the fast and search profiles run no tagger (decision 8): "starred with actor Brad Pitt" became "with actor
    # another person", "played boxer Muhammad Ali's wife" "played a person *** wife"; WordNet's person nouns and the
    # recognizer's occupations say what a tagger would
    from spacy.tokens import Span

    nlp = spacy.blank("en")
    doc = nlp("as stockbroker Chris Gardner in the film .")
    name, title = Span(doc, 2, 4, label="PERSON"), Span(doc, 1, 2, label="DEM")
    title._.source = "gazetteer"
    assert component.title_and_name(name, {2})  # WordNet: "stockbroker" is a person
    assert component.title_and_name(title, {2})
    met = nlp("He met Chris Gardner .")
    assert not component.title_and_name(Span(met, 2, 4, label="PERSON"), {2})  # a verb is no title
    with_ = nlp("She starred with Brad Pitt .")
    assert not component.title_and_name(Span(with_, 3, 5, label="PERSON"), {3})
    # WordNet knows "married" ("a married person") and "opposite" ("an opponent") as persons too, but mostly as
    # something else: no title
    for words in ("He married Chris Gardner .", "He played opposite Chris Gardner ."):
        verb = nlp(words)
        start = len(verb) - 3
        assert not component.title_and_name(Span(verb, start, start + 2, label="PERSON"), {start}), words
    film = nlp("the film Chris Gardner .")  # "film" names no person: only an occupation span would say title
    assert not component.title_and_name(Span(film, 2, 4, label="PERSON"), {2})
    assert component.title_and_name(Span(film, 2, 4, label="PERSON"), {2}, titles={1})
    # the recognizer's occupation (a DEM span, not from the gazetteer) before a name is a title half too
    designer = nlp("She married fashion designer Donatella Versace 's brother .")
    occupation = Span(designer, 2, 4, label="DEM")
    occupation._.source = "model"
    assert component.title_and_name(occupation, {4}, titles={3})


def test_an_occupation_the_tagger_took_for_a_verb_is_still_a_title():
    # "and writer Monica Ali": the tagger says VB; the recognizer's DEM span says occupation
    from spacy.tokens import Doc, Span

    words = ["and", "writer", "Monica", "Ali", "."]
    doc = Doc(spacy.blank("en").vocab, words=words, tags=["CC", "VB", "NNP", "NNP", "."])
    name = Span(doc, 2, 4, label="PERSON")
    assert not component.title_and_name(name, {2})
    assert component.title_and_name(name, {2}, titles={1})


def test_generalized_labels_leave_every_other_label_to_suppression(tmp_path):
    import pytest

    text = "In 1961 she moved to Chisinau, then 40 km north."
    mentions = [("1961", "DATETIME", "T1"), ("Chisinau", "LOC", "L1"), ("40 km", "QUANTITY", "Q1")]
    every = run(pipeline(), text, mentions)
    assert all(s._.generalizations for s in every.spans["pii"])  # all three have candidates by default
    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_lm_risk", config={"model": {"@misc": LENGTH_LM}, "threshold": -2.0})
    gen = nlp.add_pipe("textanon_generalizer", config={"generalized_labels": ["DATETIME", "QUANTITY"]})
    nlp.add_pipe("textanon_optimizer", config={"replacement": "generalize"})
    assert nlp.pipe_labels.get("textanon_generalizer") is None  # not read by spaCy as labels the component predicts
    doc = run(nlp, text, mentions)
    found = {s.text: s._.generalizations for s in doc.spans["pii"]}
    assert found["1961"] and found["40 km"] and found["Chisinau"] is None
    nlp.to_disk(tmp_path / "nlp")  # a setting of the config, as every setting of the component
    loaded = spacy.load(tmp_path / "nlp").get_pipe("textanon_generalizer")
    assert loaded.generalized_labels == gen.generalized_labels == ["DATETIME", "QUANTITY"]
    assert component.Generalizer().generalized_labels is None
    with pytest.raises(ValueError, match="generalized_labels"):
        component.Generalizer(generalized_labels=["DATE"])


@needs_wordnet
def test_without_a_search_risk_a_title_and_its_name_get_no_generalization():
    # the tie of a title and its name travels in the search risk's record; a pipeline without one (the language-model
    # risk generalizing) has none, so neither half is generalized: never "stockbroker another person"
    text = "Jane Doe met stockbroker Chris Gardner in 1961."
    mentions = [("stockbroker", "DEM", "T"), ("Chris Gardner", "PERSON", "N"), ("1961", "DATETIME", "D")]
    doc = run(pipeline(), text, mentions, target="Jane Doe")
    found = {s.text: s._.generalizations for s in doc.spans["pii"]}
    assert found["stockbroker"] is None and found["Chris Gardner"] is None
    assert found["1961"]  # the others as before
    assert "another person" not in doc._.anonymized_text


@needs_wordnet
def test_a_saved_pipeline_ships_its_wordnet_and_reads_it_without_nltk_data(tmp_path):
    # the package a user installs from its wheel generalizes without NLTK_DATA (the default profile generalizes)
    import os
    import subprocess
    import sys

    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_generalizer")
    nlp.to_disk(tmp_path / "nlp")
    corpus = tmp_path / "nlp" / "textanon_generalizer" / "wordnet" / "corpora" / "wordnet"
    for name in ("data.noun", "index.noun", "noun.exc", "lexnames", "cntlist.rev"):
        assert (corpus / name).is_file() and (corpus / name).stat().st_nlink == 1  # copies: nltk refuses links
    code = (
        "import sys, spacy, textanon; "
        "from textanon.decide.generalization.hypernyms import wordnet, wordnet_folder; "
        "from textanon.decide.generalization.propose import propose; "
        "spacy.load(sys.argv[1]); print(wordnet_folder()); "
        "print([g.text for g in propose('DEM', 'veterinary surgeon', common_noun=True)][:1])"
    )
    env = {k: v for k, v in os.environ.items() if k != "NLTK_DATA"}
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "nlp")], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    folder, first = out.stdout.strip().splitlines()
    assert folder == str(tmp_path / "nlp" / "textanon_generalizer" / "wordnet") and first == "['a doctor']"
    nlp.to_disk(tmp_path / "lean", exclude=["textanon_generalizer"])  # spaCy's own exclusion still works
    nlp.get_pipe("textanon_generalizer").to_disk(tmp_path / "settings_only", exclude=["wordnet"])
    assert not (tmp_path / "settings_only" / "wordnet").exists()
