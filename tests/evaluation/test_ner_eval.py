"""Token-level NER scores: macro F1 and the per-fold scores of evaluate-ner --folds."""

import pytest

from textanon_eval.ner_eval import fold_scores, macro_f1, score_tokens, token_labels


def _pair(text, gold, pred):
    return token_labels(text, gold), token_labels(text, pred)


PAIRS = {
    "a": _pair("Ann met Bo", [(0, 3, "PERSON"), (8, 10, "PERSON")], [(0, 3, "PERSON")]),
    "b": _pair("in Oslo 2001", [(3, 7, "LOC"), (8, 12, "DATETIME")], [(3, 7, "LOC"), (8, 12, "DATETIME")]),
    "c": _pair("Cy paid", [(0, 2, "PERSON")], [(0, 2, "ORG")]),
    "d": _pair("Di in Rome", [(0, 2, "PERSON"), (6, 10, "LOC")], [(0, 2, "PERSON"), (6, 10, "LOC")]),
}


def test_macro_is_the_mean_over_types_with_gold_tokens():
    scores = score_tokens(list(PAIRS.values()))
    # PERSON: both predicted right, 2 of 4 found -> F1 2/3; LOC and DATETIME perfect; ORG has no gold token
    assert macro_f1(scores) == pytest.approx((2 / 3 + 1 + 1) / 3)


def test_folds_partition_the_documents_and_score_each():
    out = fold_scores(list(PAIRS), list(PAIRS.values()), 2, seed=0)
    assert sorted(d for fold in out for d in fold["test"]) == sorted(PAIRS)
    for fold in out:
        expected = score_tokens([PAIRS[d] for d in fold["test"]])
        assert fold["macro_f1"] == pytest.approx(macro_f1(expected), abs=1e-4)
        assert set(fold["f1"]) == {t for t, s in expected["by_type"].items() if s["gold_tokens"]}
