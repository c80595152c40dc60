"""The pseudonym replacement style: stable, realistic, seedable surrogates, never the original."""

import re

import pytest
from core_fixtures import decision_pipeline

import textanon  # noqa: F401  (extensions)
from textanon.pseudonyms import Pseudonymizer, vocabulary
from textanon.target import fold

TEXT = (
    "The applicant, Mr Galip Yalman (no. 12345/06), was born on 3 May 1961 in Balti. On 3 March 2006 Mr Yalman "
    "was arrested; G. Yalman was released on 6 March 2006. His lawyer, Ms Hope Lungu, wrote to g.yalman@mail.md "
    "and paid EUR 1,300. Yalman appealed."
)


def _nlp(**optimizer):
    return decision_pipeline(**{"replacement": "pseudonym", **optimizer})


def _anonymize(nlp, text=TEXT, target="Galip Yalman"):
    doc = nlp.make_doc(text)
    doc._.target = target
    return nlp(doc)


def _surrogates(doc):
    return {doc.text[s:e]: rep for s, e, rep in doc._.masks}


def test_every_mention_of_a_person_gets_the_same_surrogate_name():
    doc = _anonymize(_nlp())
    out, reps = doc._.anonymized_text, _surrogates(doc)
    for word in ("Galip", "Yalman", "Lungu", "Hope", "12345/06", "g.yalman", "1961"):
        assert word not in out
    first, surname = reps["Mr Galip Yalman"].split()[1:]
    assert reps["Mr Galip Yalman"].startswith("Mr ")
    assert reps["Mr Yalman"] == f"Mr {surname}" and reps["Yalman"] == surname
    assert reps["G. Yalman"] == f"{first[0]}. {surname}"
    assert first in vocabulary()["given_male"]  # "Mr": a male given name
    assert reps["Ms Hope Lungu"].split()[1] in vocabulary()["given_female"]
    assert len({reps["Mr Galip Yalman"], reps["Ms Hope Lungu"]}) == 2


def test_dates_are_shifted_by_one_offset_and_numbers_keep_their_shape():
    reps = _surrogates(_anonymize(_nlp()))
    shifted = {}
    for original in ("3 March 2006", "6 March 2006"):
        new = reps[original]
        assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}", new), new
        shifted[original] = new
    from datetime import datetime

    def day(text):
        return datetime.strptime(text, "%d %B %Y").date()

    delta = day(shifted["3 March 2006"]) - day("3 March 2006")
    assert delta.days != 0 and day(shifted["6 March 2006"]) - day("6 March 2006") == delta
    code = reps["12345/06"]
    assert re.fullmatch(r"\d{5}/\d{2}", code) and code != "12345/06"
    email = reps["g.yalman@mail.md"]
    assert re.fullmatch(r"[a-z]\.[a-z]{6}@[a-z]{4}\.md", email) and email != "g.yalman@mail.md"


def test_seeded_and_reproducible():
    a = _anonymize(_nlp(pseudonym_seed=1))._.anonymized_text
    b = _anonymize(_nlp(pseudonym_seed=1))._.anonymized_text
    c = _anonymize(_nlp(pseudonym_seed=2))._.anonymized_text
    assert a == b and a != c


def test_document_scope_unrelated_across_documents_corpus_scope_consistent():
    other = "Mr Galip Yalman lives in Balti. Yalman is a teacher."
    docs = [
        Pseudonymizer(seed=0, scope=scope)
        for scope in ("document", "corpus")  # one pseudonymizer per scope, over two documents each
    ]
    out = {}
    for p in docs:
        names = []
        for text in (TEXT, other):
            p.start_document(text, ["Mr Galip Yalman"])
            names.append(p("PERSON", "Mr Galip Yalman"))
        out[p.scope] = names
    assert out["corpus"][0] == out["corpus"][1]
    assert out["document"][0] != out["document"][1]
    carried = Pseudonymizer(seed=0, scope="corpus", table=docs[1].table)  # a saved table carries it to a new run
    carried.start_document("Galip Yalman again.", [])
    assert carried("PERSON", "Mr Galip Yalman") == out["corpus"][0]


@pytest.mark.parametrize("seed", range(5))
def test_never_the_original_never_shared_never_in_the_document(seed):
    vocab = vocabulary()
    people = [f"{g} {s}" for g, s in zip(vocab["given_male"][:20], vocab["surnames"][:20])]
    places = vocab["places"][:20]
    text = " ".join(people + places)
    p = Pseudonymizer(seed=seed)
    p.start_document(text, people)
    words = set(re.findall(r"\w+", fold(text)))
    surrogates = [p("PERSON", name) for name in people] + [p("LOC", place) for place in places]
    assert len(set(surrogates)) == len(surrogates)  # no two originals share a surrogate
    for original, surrogate in zip(people + places, surrogates):
        assert fold(surrogate) != fold(original)
        assert not set(re.findall(r"\w+", fold(surrogate))) & words  # never a word of the document
    for label, original in [("QUANTITY", "5"), ("CODE", "A"), ("DATETIME", "1999"), ("DATETIME", "Monday")]:
        assert p(label, original) != original


def test_types_without_a_surrogate_get_the_entity_placeholder():
    p = Pseudonymizer()
    p.start_document("in the summer", [])
    assert p("DATETIME", "the summer", fallback="[DATETIME_4]") == "[DATETIME_4]"
    assert p("DEM", "Moldavian") in vocabulary()["nationalities"]
    assert p("ORG", "Balti District Court").endswith(" District Court")


def test_unknown_scope_is_an_error():
    with pytest.raises(ValueError, match="pseudonym scope"):
        Pseudonymizer(scope="global")
    with pytest.raises(ValueError, match="replacement must be one of"):
        _nlp().get_pipe("textanon_optimizer").__class__(replacement="pseudonyms")
