"""TAB metrics on a hand-written two-annotator fixture (fictional text), values computed by hand.

Fixture (tests/fixtures/tab_small.json), document d1:
  "Mr John Smith was born in Oslo on 3 May 1970. He worked for the Acme Corporation until 2001.
   John Smith now lives in Bergen."
  a1: e1 PERSON DIRECT "Mr John Smith"(0,13) + "John Smith"(93,103) DIRECT; e2 LOC QUASI "Oslo";
      e3 DATETIME QUASI "3 May 1970"(34,44); e4 ORG QUASI "the Acme Corporation"(60,80);
      e5 DATETIME NO_MASK "2001"; e6 LOC NO_MASK "Bergen"
  a2: e1 PERSON "John Smith"(3,13) DIRECT + (93,103) NO_MASK; e2 LOC QUASI "Oslo";
      e3 DATETIME QUASI "May 1970"(36,44); e4 ORG QUASI "Acme Corporation"(64,80); e5 DATETIME QUASI "2001"
d2 (one annotator): "Jane Roe, a nurse from Tromsø, appealed in 2015."
  a1: PERSON DIRECT "Jane Roe"; DEM QUASI "a nurse"(10,17); LOC QUASI "Tromsø"; DATETIME NO_MASK "2015"
d3: gold only (no masks entry) -> ignored.
Masks: d1 [3,13] [26,30] [36,44] [46,48]"He" [64,80] [87,92]"2001." [93,97]"John" [117,123]"Bergen";
       d2 [0,8] [12,17]"nurse" [23,29].
"""

import pytest
from tab_fixture import TAB_METRIC_KEYS, TAB_SMALL, TAB_SMALL_MASKS

from textanon.io.datasets.tab import load_tab
from textanon_eval.tab_corpus import load_masks
from textanon_eval.tab_metrics import TabEvaluator, build_entities


@pytest.fixture(scope="module")
def result():
    gold = load_tab(TAB_SMALL)
    masks = load_masks(TAB_SMALL_MASKS, {g.doc_id: g.text for g in gold})
    # fake IC: the number of characters of the span
    return TabEvaluator(gold).evaluate(masks, lambda text, spans: [float(e - s) for s, e in spans], weighted=True)


def test_token_recall(result):
    # \w+ tokens of all mentions of entities to mask (NO_MASK mentions of such entities count too):
    # d1/a1: e1 Mr+ John+ Smith+ John+ Smith- (4/5) [Mr ignored: title]; e2 Oslo 1/1;
    #        e3 "3"- May+ 1970+ (2/3) [3 is NUM]; e4 the+ Acme+ Corporation+ (3/3) [the: DET]  -> 10/12
    # d1/a2: e1 John+ Smith+ John+ Smith- (3/4); Oslo; May 1970; Acme Corporation; 2001     -> 9/10
    # d2/a1: Jane Roe, a+ nurse, Tromsø -> 5/5            total 24/27
    assert result["token_recall"] == pytest.approx(24 / 27)


def test_token_recall_by_type(result):
    # PERSON 4/5 + 3/4 + 2/2 = 9/11; DATETIME 2/3 + 2/2 + 1/1 = 5/6; LOC 3/3; ORG 5/5; DEM 2/2
    assert result["token_recall_by_type"] == pytest.approx(
        {"PERSON": 9 / 11, "LOC": 1.0, "DATETIME": 5 / 6, "ORG": 1.0, "DEM": 1.0}
    )


def test_mention_recall(result):
    # d1/a1: (0,13)+ ["Mr " ignored], (93,103)- [" Smith"], Oslo+, (34,44)- ["3"], (60,80)+ ["the "] -> 3/5
    # d1/a2: (3,13)+, (93,103)-, Oslo+, (36,44)+, (64,80)+, 2001+ -> 5/6;  d2: 3/3   total 11/14
    assert result["mention_recall"] == pytest.approx(11 / 14)


def test_entity_recall(result):
    # a1: e1- (mention 2 needs masking), e2+, e3-, e4+; a2: e1+ (its unmasked mention is NO_MASK),
    # e2+ e3+ e4+ e5+; d2: 3/3   -> all 10/12, direct (a1e1-, a2e1+, d2e1+) 2/3, quasi 8/9
    assert result["recall_all_entities"] == pytest.approx(10 / 12)
    assert result["recall_direct_entities"] == pytest.approx(2 / 3)
    assert result["recall_quasi_entities"] == pytest.approx(8 / 9)


def test_token_precision(result):
    # d1 (2 annotators): 11 masked tokens -> denominator 22. Covered by both: John Smith Oslo May 1970
    # Acme Corporation (7 x 2 = 14); "2001" only a2 (a1 NO_MASK) 1; 2nd "John" only a1 1; He, Bergen 0
    # d2: 4 tokens, 1 annotator, all covered -> 4/4.          (16 + 4) / (22 + 4)
    assert result["token_precision"] == pytest.approx(20 / 26)


def test_mention_precision(result):
    # d1: [3,13] 2, [26,30] 2, [36,44] 2, [64,80] 2, [93,97] 1 (a1), [87,92] 0 (no mention covers the
    # final "."), He 0, Bergen 0 -> 9 / 16;  d2: 3 / 3          (9 + 3) / (16 + 3)
    assert result["mention_precision"] == pytest.approx(12 / 19)


def test_weighted_precision(result):
    # weight = span length. Tokens d1: covered twice John4 Smith5 Oslo4 May3 1970 4 Acme4 Corporation11
    # (35) -> 70, + 2001 (4) + John (4) = 78; denominator 2 x (35 + He2 + 2001 4 + John4 + Bergen6) = 102
    # d2: Jane4 Roe3 nurse5 Tromsø6 = 18/18              (78 + 18) / (102 + 18) = 0.8
    assert result["weighted_token_precision"] == pytest.approx(96 / 120)
    # spans d1: 2 x (10 + 4 + 8 + 16) + 4 = 80 / 2 x (10+4+8+2+16+5+4+6 = 55) = 110; d2: 19/19
    assert result["weighted_mention_precision"] == pytest.approx(99 / 129)


def test_first_mention_decides_direct_and_type():
    gold = load_tab(TAB_SMALL)
    a2 = [e for e in build_entities(gold[0]) if e.entity_id == "d1_a2_e1"][0]
    assert a2.is_direct and a2.need_masking and a2.needs == [True, False]


def test_no_masks_gives_zero_and_unweighted_keys():
    gold = load_tab(TAB_SMALL)
    out = TabEvaluator(gold).evaluate({"d1": [], "d2": []})
    # as in the reference, ignorable tokens count as masked even with no mask: Mr, the, a -> 3/27
    assert out["token_recall"] == pytest.approx(3 / 27)
    assert out["mention_recall"] == 0.0 and out["token_precision"] == 0.0
    assert "weighted_token_precision" not in out
    assert set(out) == TAB_METRIC_KEYS


def test_full_masking_gives_full_recall():
    gold = load_tab(TAB_SMALL)
    masks = {g.doc_id: [(0, len(g.text), None)] for g in gold}
    out = TabEvaluator(gold).evaluate(masks)
    assert out["token_recall"] == out["mention_recall"] == out["recall_all_entities"] == 1.0
    assert out["mention_precision"] == 0.0  # no annotator mention covers a whole document


def test_lm_information_content_masks_all_spans_in_one_pass():
    import numpy as np

    from textanon_eval.tab_metrics import lm_information_content

    class FakeLM:
        name = "fake"

        def span_token_logprobs(self, text, spans, passes=None):
            self.passes = passes
            return [np.array([-1.0, -3.0]), np.array([]), np.array([-0.5])][: len(spans)]

    lm = FakeLM()
    ic = lm_information_content(lm)
    assert ic("t", [(0, 1), (1, 2), (2, 3)]) == [3.0, 0.0, 0.5]  # -log of the least probable token
    assert lm.passes == [[0, 1, 2]] and ic("t", []) == []


def test_overlapping_masks_scored_as_the_official_script():
    """Hand-computed with the logic of NorskRegnesentral/text-anonymization-benchmark evaluation.py:
    recall uses the set of masked character offsets (union); precision splits EACH span into \\w+ tokens
    (``split_by_tokens``), so tokens of overlapping spans count once per span.

    d2 "Jane Roe, a nurse from Tromsø, appealed in 2015."; masks [0, 8] "Jane Roe" and [5, 22] "Roe, a nurse from".
    token precision: span 1 -> Jane 1, Roe 1; span 2 -> Roe 1, a 1, nurse 1, from 0 => 5/6 (merged: 4/5)
    mention precision: [0, 8] inside "Jane Roe" 1; [5, 22] inside no mention 0 => 1/2
    token recall: Jane+ Roe+ a+ nurse+ Tromsø- => 4/5; mention recall 2/3; entity recall 2/3, direct 1/1.
    """
    gold = load_tab(TAB_SMALL)
    texts = {g.doc_id: g.text for g in gold}
    masks = load_masks({"d2": [[0, 8], [5, 22]]}, texts)
    out = TabEvaluator(gold).evaluate(masks)
    assert out["token_precision"] == pytest.approx(5 / 6)
    assert out["mention_precision"] == pytest.approx(1 / 2)
    assert out["token_recall"] == pytest.approx(4 / 5)
    assert out["mention_recall"] == pytest.approx(2 / 3)
    assert out["recall_all_entities"] == pytest.approx(2 / 3)
    assert out["recall_direct_entities"] == pytest.approx(1.0)
