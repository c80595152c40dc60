"""Threshold tuning on pseudo-abstracts of non-evaluated actors: data split, BM25 attacker, criterion."""

import pytest
from cli_runner import invoke
from input_files import write_json

from textanon_eval.bm25 import BM25, words
from textanon_lab.tuning.threshold import choose, pseudo_abstracts, reidentification_rate, split_lead


def test_split_lead_takes_paragraphs_until_min_chars():
    body = "A" * 50 + "\n\n" + "B" * 60 + "\n" + "C" * 70 + "\n" + "D" * 10
    assert split_lead(body, 100) == ("A" * 50 + " " + "B" * 60, "C" * 70 + "\n" + "D" * 10)
    assert split_lead("only one paragraph", 5) == ("only one paragraph", "")


def test_pseudo_abstracts_never_use_evaluated_actors(tmp_path):
    lead, rest = "x" * 40, "y" * 60
    background = [{"name": n, "public_knowledge": f"{lead} {n}\n{rest}"} for n in ("Ann", "Bob", "Cy", "Evaluated")]
    background.append({"name": "Short", "public_knowledge": "one paragraph only"})
    bk = write_json(tmp_path / "bk.json", background)
    evaluated = write_json(tmp_path / "eval.json", [{"name": "Evaluated", "original_abstract": "..."}])
    pool = pseudo_abstracts(bk, evaluated, min_chars=30, min_rest_chars=50)
    assert [p["name"] for p in pool] == ["Ann", "Bob", "Cy"]  # evaluated and body-less actors left out
    assert all(p["eligible"] and p["abstract"].startswith(lead) and p["body"] == rest for p in pool)
    assert all(p["abstract"] not in p["body"] for p in pool)  # the pseudo-abstract is cut out of its body


def test_bm25_finds_the_body_sharing_rare_words_and_masking_hides_it():
    bodies = ["veterinary surgeon in Balti, Moldova", "football coach in Lyon", "the actor from Lyon and Paris"]
    index = BM25(bodies)
    assert "the" not in words("The actor")  # stop words dropped
    assert index.top1("a surgeon from Balti") == 0
    assert index.top1("*** from ***") == -1  # nothing left to match: no guess
    items = [{"name": "a"}, {"name": "b"}]
    assert reidentification_rate(index, ["a", "b", "c"], items, ["Balti surgeon", "Paris actor"]) == 0.5


def test_choose_most_useful_threshold_within_tolerance_of_best_privacy():
    rows = [
        {"threshold": -1.0, "reid_rate": 0.10, "tpi": 0.50},
        {"threshold": -3.0, "reid_rate": 0.11, "tpi": 0.60},
        {"threshold": -5.0, "reid_rate": 0.13, "tpi": 0.70},
        {"threshold": -9.0, "reid_rate": 0.30, "tpi": 0.90},
    ]
    assert choose(rows, 0.02)["threshold"] == -3.0
    assert choose(rows, 0.05)["threshold"] == -5.0
    assert choose(rows, 0.0)["threshold"] == -1.0


@pytest.mark.parametrize("n", [0, 3])
def test_select_threshold_cli_requires_exclude(tmp_path, n):
    res = invoke("lab", "select-threshold", write_json(tmp_path / "bk.json", []), "--n", n)
    assert res.exit_code != 0 and "exclude" in res.output.lower()
