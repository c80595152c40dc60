"""The batch-size benchmark's pure parts: the development corpora, the rows and the rule."""

import json

from textanon_lab.benchmarks.batch_size import LONG, LONG_CHARS, SHORT, choose, dev_corpora, long_slice, summarize


def _actor(name, body, abstract=None):
    return {"name": name, "public_knowledge": body, "original_abstract": abstract}


def test_the_development_corpora_leave_out_the_evaluated_and_the_dev_actors(tmp_path):
    body = ("A paragraph of a body. " * 40 + "\n") * 40  # ~37,000 characters, a paragraph every ~920
    dev = tmp_path / "dev.json"
    dev.write_text(json.dumps([_actor("Dev One", body, "Dev One is an actor.")]))
    evaluated = tmp_path / "eval.json"
    evaluated.write_text(json.dumps([_actor("Evaluated", body, "Evaluated is an actor.")]))
    background = tmp_path / "bg.json"
    others = [_actor(f"Other {i}", body) for i in range(5)] + [_actor("Short", "too short")]
    background.write_text(json.dumps(others + [_actor("Evaluated", body), _actor("Dev One", body)]))
    corpora = dev_corpora(dev, background, evaluated, n_long=3)
    assert corpora[SHORT] == [("Dev One", "Dev One is an actor.", "Dev One")]
    names = [name for name, _, _ in corpora[LONG]]
    assert len(names) == 3 and set(names) <= {f"Other {i}" for i in range(5)}
    assert all(len(text) == LONG_CHARS and text.startswith("A paragraph") for _, text, _ in corpora[LONG])
    assert dev_corpora(dev, background, evaluated, n_long=3) == corpora  # seeded


def test_a_long_slice_starts_at_a_paragraph_a_third_in_else_at_the_start():
    body = "x" * 5000 + "\n" + "y" * 9000  # a third in: 4,667; the paragraph starts at 5,001
    assert long_slice(body, 6000) == "y" * 6000
    assert long_slice("z" * 8000, 6000) == "z" * 6000  # no paragraph: the start


def test_the_rule_takes_the_highest_geometric_mean_and_the_smaller_batch_of_equals():
    corpora = {SHORT: [("a", "t", None)] * 10, LONG: [("b", "t", None)] * 2}
    seconds = {
        "8": {SHORT: [1.0, 2.0, 1.0], LONG: [1.0, 1.0, 1.0]},  # 10 and 2 docs/s: geometric mean 4.472
        "16": {SHORT: [0.5, 0.5, 0.6], LONG: [2.0, 2.0, 2.0]},  # 20 and 1: 4.472 too: the smaller batch wins
        "32": {SHORT: [0.4, 0.4, 0.4], LONG: [4.0, 4.0, 4.0]},  # 25 and 0.5: 3.536
    }
    rows = summarize(seconds, corpora)
    assert [r["geometric_mean"] for r in rows] == [4.472, 4.472, 3.536]
    assert choose(rows)["batch_size"] == 8
    rows[1]["geometric_mean"] = 5.0
    assert choose(rows)["batch_size"] == 16
