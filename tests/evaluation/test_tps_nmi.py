"""TPS (replacement similarity), replacement recovery on top of alignment, NMI, corpus loading errors."""

import json

import numpy as np
import pytest
from fake_models import LengthLM, WordOverlapEncoder
from input_files import write_json

from textanon_eval.corpus import load_corpus
from textanon_eval.nmi import nmi_corpus, nmi_embeddings
from textanon_eval.term_segmentation import Term
from textanon_eval.tpi import EvaluationError, InformationContent, tpi_document
from textanon_eval.tps import aligned_replacements, anonymized_term, tps_document

TEXT = "Angelina Jolie was born in Los Angeles. She won an Academy Award in 1999. Her father is an actor."


def test_aligned_replacements_recover_labels():
    original = "Angelina Jolie (born June 4, 1975) is an American actress, filmmaker."
    anonymized = "PERSON ( born DATE ) is an NORP actress , filmmaker ."
    spans = [(0, 14), (21, 33), (41, 49)]
    assert aligned_replacements(original, anonymized, spans) == [(0, 14, "PERSON"), (21, 33, "DATE"), (41, 49, "NORP")]
    assert aligned_replacements(original, original, []) == []
    # suppression: nothing between the anchors
    assert aligned_replacements("Tom lives in Paris now.", "Tom lives in now.", [(13, 18)]) == [(13, 18, "")]


def test_anonymized_term_substitutes_masked_parts():
    text = "an American actress"
    term = Term(0, len(text), text, 0)
    assert anonymized_term(text, term, [(3, 11, "NORP")]) == "an NORP actress"
    assert anonymized_term(text, term, [(0, 19, "")]) == ""


def test_tps_between_tpi_and_one_for_generalizations():
    ic = InformationContent(LengthLM())
    dic = ic.document_ic(TEXT)
    start = TEXT.index("Los Angeles")
    general = [(start, start + len("Los Angeles"), "a city in California")]
    suppressed = [(start, start + len("Los Angeles"), "")]
    enc = WordOverlapEncoder()
    tpi = tpi_document(dic, [(s, e) for s, e, _ in general])
    assert tps_document(TEXT, dic, suppressed, enc) == pytest.approx(tpi)
    # a replacement sharing words with the term keeps part of its IC
    partly = [(start, start + len("Los Angeles"), "Los Angeles County")]
    tps = tps_document(TEXT, dic, partly, enc)
    assert tpi < tps < 1.0
    assert tps_document(TEXT, dic, [], enc) == pytest.approx(1.0)


@pytest.mark.slow
def test_tps_with_minilm():
    from textanon_eval.embeddings import Encoder

    ic = InformationContent(LengthLM())
    dic = ic.document_ic(TEXT)
    start = TEXT.index("Los Angeles")
    span = (start, start + len("Los Angeles"))
    enc = Encoder()
    tpi = tpi_document(dic, [span])
    generalized = tps_document(TEXT, dic, [span + ("a city in California",)], enc)
    label = tps_document(TEXT, dic, [span + ("",)], enc)
    assert label == pytest.approx(tpi)
    assert tpi < generalized < 1.0


def test_nmi_identical_is_one_and_shuffled_is_low():
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(3, 8)) * 10
    x = np.concatenate([c + rng.normal(size=(10, 8)) for c in centres])
    same = nmi_embeddings(x, x.copy(), seeds=3)
    assert same["nmi"] == pytest.approx(1.0)
    assert same["k"] == 3
    noise = nmi_embeddings(x, rng.normal(size=x.shape), seeds=3)
    assert noise["nmi"] < 0.5


def test_nmi_corpus_and_errors():
    originals = {f"d{i}": f"topic{i % 3} words about topic{i % 3} here" for i in range(9)}
    enc = WordOverlapEncoder()
    res = nmi_corpus(originals, {"same": dict(originals)}, enc, ks=(2, 3, 4), seeds=2, progress=False)
    assert res["same"]["nmi"] == pytest.approx(1.0)
    with pytest.raises(EvaluationError, match="'d3'"):
        nmi_corpus(
            originals, {"m": {k: v for k, v in originals.items() if k != "d3"}}, enc, ks=(2, 3), seeds=1, progress=False
        )
    with pytest.raises(EvaluationError, match="'zz'"):
        nmi_corpus(originals, {"m": dict(originals, zz="x")}, enc, ks=(2, 3), seeds=1, progress=False)


def test_corpus_loading_and_errors(tmp_path):
    recs = [
        {
            "name": "A",
            "original_abstract": "Tom is here.",
            "ner3_abstract": "PERSON is here.",
            "dev_abstract": "x",
            "manual_abstract": None,
        },
        {
            "name": "B",
            "original_abstract": "Ann is there.",
            "ner3_abstract": "PERSON is there.",
            "manual_abstract": "SENSITIVE is there.",
        },
    ]
    corpus = load_corpus(write_json(tmp_path / "c.json", recs))
    assert list(corpus.originals) == ["A", "B"]
    assert set(corpus.anonymized) == {"ner3", "manual"} and corpus.missing == {"manual": ["A"]}
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"llm_abstract": {"B": "someone is there."}}))
    assert load_corpus(write_json(tmp_path / "c.json", recs), extra=[extra]).anonymized["llm"] == {
        "B": "someone is there."
    }
    # limit drops known ids silently, unknown ids are errors naming the record
    assert "llm" in load_corpus(write_json(tmp_path / "c.json", recs), limit=1, extra=[extra]).anonymized
    extra.write_text(json.dumps({"llm_abstract": {"Nobody": "text"}}))
    with pytest.raises(EvaluationError, match="'Nobody'"):
        load_corpus(write_json(tmp_path / "c.json", recs), extra=[extra])
    bad = recs + [{"name": "C", "original_abstract": "", "ner3_abstract": "x"}]
    with pytest.raises(EvaluationError, match="'C'"):
        load_corpus(write_json(tmp_path / "c.json", bad))
    offsets = tmp_path / "off.json"
    offsets.write_text(json.dumps({"A": [[0, 3, "PERSON"]], "B": [[0, 99]]}))
    with pytest.raises(EvaluationError, match="'B'.*outside"):
        load_corpus(write_json(tmp_path / "c.json", recs), offsets=[f"ours={offsets}"])
