"""The hand-written two-annotator TAB fixture (tests/fixtures/tab_small.json, fictional text) and its masks."""

from core_fixtures import FIXTURES

TAB_SMALL = FIXTURES / "tab_small.json"
TAB_SMALL_MASKS = FIXTURES / "tab_small_masks.json"
#: the keys of a TAB evaluation without IC weights (textanon_eval.tab_metrics.TabEvaluator.evaluate)
TAB_METRIC_KEYS = {
    "token_recall",
    "token_recall_by_type",
    "mention_recall",
    "recall_all_entities",
    "recall_direct_entities",
    "recall_quasi_entities",
    "token_precision",
    "mention_precision",
}
