"""TPI: term segmentation, term alternation passes, TPI properties, caching, errors."""

import json

import numpy as np
import pytest
from fake_models import LENGTH_LM, LengthLM

from textanon_eval.term_segmentation import Term, protected_terms, segment_terms
from textanon_eval.tpi import EvaluationError, InformationContent, build_passes, tpi_corpus, tpi_document

TEXT = "Angelina Jolie was born in Los Angeles. She won an Academy Award in 1999. Her father is an actor."


def _terms(n_sent=3, per_sent=(4, 7, 2)):
    terms, pos = [], 0
    for s in range(n_sent):
        for _ in range(per_sent[s]):
            terms.append(Term(pos, pos + 1, "x", s))
            pos += 2
    return terms


# ---------------------------------------------------------------- segmentation


def test_noun_chunk_and_entity_are_one_term():
    terms = [t.text for t in segment_terms(TEXT)]
    assert "Angelina Jolie" in terms
    assert "Los Angeles" in terms
    assert "an Academy Award" in terms  # noun chunk merged with the entity inside it
    assert "." not in terms and "Jolie" not in terms
    assert all(t.strip() == t and t for t in terms)


def test_terms_have_sentences_and_offsets():
    terms = segment_terms(TEXT)
    assert [t.sent for t in terms] == sorted(t.sent for t in terms)
    assert {t.sent for t in terms} == {0, 1, 2}
    assert all(TEXT[t.start : t.end] == t.text for t in terms)


def test_protected_rule_any_character():
    terms = [Term(0, 5, "aaaaa", 0), Term(6, 10, "bbbb", 0), Term(11, 14, "ccc", 0)]
    assert protected_terms(terms, [(4, 5)]) == [True, False, False]
    assert protected_terms(terms, [(5, 6)]) == [False, False, False]  # only the space
    assert protected_terms(terms, [(0, 14)]) == [True, True, True]
    assert protected_terms(terms, [(9, 12), (0, 1)]) == [True, True, True]


# ---------------------------------------------------------------- passes


@pytest.mark.parametrize("n", [1, 2, 3, 6, 20])
def test_n_ta_masks_each_term_once_and_never_neighbours(n):
    terms = _terms()
    passes = build_passes(terms, "n", n)
    flat = sorted(i for p in passes for i in p)
    assert flat == list(range(len(terms)))
    assert len(passes) == min(n, len(terms))
    if n >= 2:
        for p in passes:
            assert all(b - a >= n for a, b in zip(p, p[1:]))


def test_s_ta_one_term_per_sentence_per_pass():
    terms = _terms()
    passes = build_passes(terms, "s")
    assert sorted(i for p in passes for i in p) == list(range(len(terms)))
    assert len(passes) == 7  # the longest sentence
    for p in passes:
        sents = [terms[i].sent for i in p]
        assert len(sents) == len(set(sents))
    assert len(passes[0]) == 3 and len(passes[-1]) == 1


def test_bad_alternation():
    with pytest.raises(ValueError):
        build_passes(_terms(), "x")
    with pytest.raises(ValueError):
        InformationContent(LengthLM(), alternation="q")


# ---------------------------------------------------------------- TPI


def test_tpi_unmasked_full_and_monotone():
    ic = InformationContent(LengthLM())
    dic = ic.document_ic(TEXT)
    assert tpi_document(dic, []) == pytest.approx(1.0)
    assert tpi_document(dic, [(0, len(TEXT))]) == pytest.approx(0.0)
    spans, values = [], []
    for t in dic.terms[::2]:
        spans.append(t.span)
        values.append(tpi_document(dic, spans))
    assert all(a >= b for a, b in zip(values, values[1:]))
    assert values[-1] < values[0] < 1.0


def test_memory_and_disk_cache(tmp_path):
    lm = LengthLM()
    ic = InformationContent(lm, cache_dir=tmp_path)
    first = ic.document_ic(TEXT)
    ic.document_ic(TEXT)
    assert lm.calls == 1 and ic.lm_calls == 1
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["settings"]["model"] == "test:length"
    fresh = InformationContent(lm, cache_dir=tmp_path)
    again = fresh.document_ic(TEXT)
    assert lm.calls == 1 and fresh.lm_calls == 0
    assert [t.span for t in again.terms] == [t.span for t in first.terms]
    assert np.allclose(again.ic, first.ic, atol=1e-4)
    # other settings -> other key
    other = InformationContent(lm, alternation="s", cache_dir=tmp_path)
    other.document_ic(TEXT)
    assert lm.calls == 2


def test_causal_settings_say_alternation_does_not_apply():
    settings = InformationContent(LengthLM(), alternation="s").settings
    assert settings["alternation"].startswith("not applicable") and "S-TA" in settings["alternation"]


def test_registry_model_spec():
    ic = InformationContent(LENGTH_LM)
    assert ic.settings["model"] == "test:length"
    with pytest.raises(ValueError, match="unknown language model"):
        InformationContent("no.such.model.v9").model


def test_corpus_errors_name_the_record():
    ic = InformationContent(LengthLM())
    with pytest.raises(EvaluationError, match="'bob'"):
        tpi_corpus(ic, {"ann": TEXT}, {"m": {"bob": []}}, progress=False)
    with pytest.raises(EvaluationError, match="'empty'"):
        tpi_corpus(ic, {"empty": "   "}, {"m": {"empty": []}}, progress=False)
    with pytest.raises(EvaluationError, match="'dots'"):
        tpi_corpus(ic, {"dots": "... !"}, {"m": {"dots": []}}, progress=False)


def test_corpus_mean_and_micro():
    ic = InformationContent(LengthLM())
    res = tpi_corpus(
        ic,
        {"a": TEXT, "b": "Tom Hanks acts."},
        {"none": {"a": [], "b": []}, "all": {"a": [(0, 200)], "b": [(0, 200)]}},
        progress=False,
    )
    assert res.mean() == {"none": pytest.approx(1.0), "all": pytest.approx(0.0)}
    assert res.micro["none"] == pytest.approx(1.0)


# ---------------------------------------------------------------- real language models (slow)


@pytest.mark.slow
def test_masked_lm_path_with_tiny_bert(tiny_bert):
    from textanon.risk.language_models import MaskedLM

    lm = MaskedLM(str(tiny_bert), window=32)  # short window: documents are split into several windows
    for alternation in ("n", "s"):
        ic = InformationContent(lm, alternation=alternation, n=3)
        dic = ic.document_ic(TEXT)
        assert ic.settings["model_type"] == "masked"
        assert ic.settings["alternation"] == ("3-TA" if alternation == "n" else "S-TA")
        assert len(dic.ic) == len(dic.terms) and np.all(dic.ic > 0)
        assert tpi_document(dic, []) == pytest.approx(1.0)
        assert 0 < tpi_document(dic, [dic.terms[0].span]) < 1


@pytest.mark.slow
def test_default_causal_lm_short_text():
    ic = InformationContent()  # offline SmolLM2
    dic = ic.document_ic("Tom Hanks is an American actor.")
    assert np.all(dic.ic >= 0) and dic.tic > 0
    assert tpi_document(dic, [dic.terms[0].span]) < 1


# ---------------------------------------------------------------- word-frequency IC (independent of the anonymizer)


def test_word_frequency_ic_values_floor_and_max_rule():
    import wordfreq

    from textanon.risk.language_models.word_ic import OOV_FLOOR, WordFrequencyModel

    model = WordFrequencyModel()
    text = "the actress Qxzvbnmw"
    lps = model.span_token_logprobs(text, [(0, 3), (4, 11), (12, 20), (0, 20), (3, 4)])
    assert lps[0] == pytest.approx([np.log(wordfreq.word_frequency("the", "en"))])
    assert lps[1] == pytest.approx([np.log(wordfreq.word_frequency("actress", "en"))])
    assert lps[2] == pytest.approx([np.log(OOV_FLOOR)])  # out of vocabulary: the documented floor
    assert len(lps[3]) == 3 and len(lps[4]) == 0  # one value per word; a blank span has none
    ic = InformationContent("wordfreq", cache_dir=None)
    dic = ic.document_ic("The actress Qxzvbnmw lives in Paris.")
    by_text = {t.text: v for t, v in zip(dic.terms, dic.ic)}
    # a multi-word term's IC is its least frequent word's (same rule as sub-word tokens of an LM)
    term = next(t for t in by_text if "actress" in t)
    words = wordfreq.tokenize(term, "en")
    assert by_text[term] == pytest.approx(max(-model.word_logprob(w) for w in words))
    assert ic.settings["model"] == "wordfreq:en" and ic.settings["oov_floor"] == OOV_FLOOR


def test_word_frequency_ic_is_context_free_and_cache_keys_differ(tmp_path):
    ic = InformationContent("wordfreq", cache_dir=tmp_path)
    a = ic.document_ic("Paris is big.")
    b = ic.document_ic("Paris Paris is big.")
    assert a.ic[0] == pytest.approx(b.ic[0])  # same word, same IC, whatever the context
    lm = InformationContent(LENGTH_LM, cache_dir=tmp_path)
    assert lm._settings_key() != ic._settings_key()
    assert len(list(tmp_path.glob("*.json"))) == 2
