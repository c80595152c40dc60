"""Reader validation of TAB gold files and offset masks; offset-format round trip."""

import copy
import json

import pytest
from tab_fixture import TAB_SMALL, TAB_SMALL_MASKS

from textanon.io.datasets.tab import load_tab
from textanon_eval.tab_corpus import EvaluationError, load_masks, write_masks
from textanon_eval.tab_metrics import TabEvaluator

GOLD = json.loads(TAB_SMALL.read_text(encoding="utf-8"))
TEXTS = {d["doc_id"]: d["text"] for d in GOLD}


def _gold(mutate):
    data = copy.deepcopy(GOLD)
    mutate(data)
    return data


def _mention(data, i=0):
    return data[0]["annotations"]["a1"]["entity_mentions"][i]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (
            lambda d: _mention(d).update(end_offset=10_000),
            r"document 'd1', annotator 'a1', mention #0: invalid offsets \[0, 10000\]",
        ),
        (lambda d: _mention(d).update(start_offset=20, end_offset=5), "invalid offsets"),
        (lambda d: _mention(d).update(start_offset=-1), "invalid offsets"),
        (lambda d: _mention(d).pop("identifier_type"), "mention #0: missing field 'identifier_type'"),
        (lambda d: _mention(d).pop("entity_id"), "missing field 'entity_id'"),
        (lambda d: _mention(d).pop("entity_type"), "missing field 'entity_type'"),
        (lambda d: _mention(d).update(start_offset="0"), "'start_offset' must be an integer"),
        (lambda d: _mention(d).update(identifier_type="MAYBE"), "'identifier_type' is 'MAYBE'"),
        (lambda d: d[0]["annotations"]["a1"].pop("entity_mentions"), "annotator 'a1': missing field 'entity_mentions'"),
        (lambda d: d[1].update(text="   "), "document 'd2': field 'text' is empty"),
        (lambda d: d[1].pop("annotations"), "document 'd2': missing field 'annotations'"),
        (lambda d: d[2].update(doc_id="d1"), "document 'd1': duplicate doc_id"),
    ],
)
def test_gold_errors(mutate, message):
    with pytest.raises(EvaluationError, match=message):
        load_tab(_gold(mutate))


def test_entity_id_shared_by_two_annotators_is_an_error():
    def mutate(d):
        d[0]["annotations"]["a2"]["entity_mentions"][2]["entity_id"] = "d1_a1_e2"

    gold = load_tab(_gold(mutate))
    with pytest.raises(EvaluationError, match="entity_id 'd1_a1_e2' used by annotators 'a1' and 'a2'"):
        TabEvaluator(gold)


def test_entity_layer_without_identifiers_loads_only_when_allowed():
    def strip(d):
        for doc in d:
            for layer in doc["annotations"].values():
                for m in layer["entity_mentions"]:
                    m.pop("identifier_type"), m.pop("entity_id")

    data = _gold(strip)
    assert len(load_tab(data, require_identifiers=False)) == 3
    with pytest.raises(EvaluationError, match="missing field 'entity_id'"):
        load_tab(data)


@pytest.mark.parametrize(
    "masks, message",
    [
        ({"zzz": [[0, 2]]}, "masks of document 'zzz': unknown doc_id"),
        ({"d1": [[5, 3]]}, r"document 'd1', span #0: reversed or empty span \[5, 3\]"),
        ({"d1": [[4, 4]]}, "reversed or empty span"),
        ({"d1": [[0, 999]]}, r"span #0: \[0, 999\] outside the text"),
        ({"d1": [[0]]}, "span #0: expected"),
        ({"d1": [[0, 2, 3]]}, "replacement must be a string"),
        ({"d1": [[0.5, 2]]}, "'start' must be an integer"),
        ({"d1": "0-5"}, "expected a list"),
        ([["d1", 0, 5]], "expected a JSON object"),
    ],
)
def test_mask_errors(masks, message):
    with pytest.raises(EvaluationError, match=message):
        load_masks(masks, TEXTS)


def test_bad_json_file(tmp_path):
    path = tmp_path / "m.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(EvaluationError, match="not valid JSON"):
        load_masks(path)


@pytest.mark.parametrize("replacements", [True, False])
def test_offsets_roundtrip(tmp_path, replacements):
    masks = load_masks(TAB_SMALL_MASKS, TEXTS)
    path = tmp_path / "out" / "masks.json"
    write_masks(path, masks, replacements=replacements)
    again = load_masks(path, TEXTS)
    if replacements:
        assert again == masks
        assert again["d1"][0] == (3, 13, "PERSON") and again["d1"][1] == (26, 30, None)
    else:
        assert again == {k: [(s, e, None) for s, e, _ in v] for k, v in masks.items()}
        assert all(len(row) == 2 for rows in json.loads(path.read_text()).values() for row in rows)


def test_overlapping_masks_are_kept_and_counted():
    from textanon_eval.tab_corpus import overlapping_pairs

    masks = load_masks({"d1": [[0, 5], [3, 8], [20, 30], [21, 22]]}, TEXTS)
    assert [m[:2] for m in masks["d1"]] == [(0, 5), (3, 8), (20, 30), (21, 22)]
    assert overlapping_pairs(masks["d1"]) == 2
    assert overlapping_pairs([(0, 5), (5, 8)]) == 0  # touching is not overlapping
