"""The generalization development set: summary pseudo-abstracts of non-evaluated actors in the benchmark's format."""

import json

from textanon.io.datasets.wikiactors import evaluated, read_wikiactors
from textanon_lab.tuning.generalization_dev import write_dev_set


def _body(n=100):
    return "\n".join(f"Sentence {i} says fact{i} about the actor. Filler {i} adds more words here." for i in range(n))


def test_dev_set_is_a_wikiactors_file_of_non_evaluated_actors_with_their_index_documents(tmp_path):
    records = [{"name": f"Actor {i}", "public_knowledge": _body()} for i in range(4)]
    records.append({"name": "Evaluated Actor", "public_knowledge": _body()})
    (tmp_path / "bk.json").write_text(json.dumps(records))
    (tmp_path / "eval.json").write_text(json.dumps([{"name": "Evaluated Actor", "original_abstract": "x"}]))
    paths = write_dev_set(tmp_path / "bk.json", tmp_path / "eval.json", tmp_path / "dev", n=3, seed=0)
    dev = evaluated(read_wikiactors(paths["records"]))
    assert len(dev) == 3 and "Evaluated Actor" not in {r.name for r in dev}
    for r in dev:
        assert r.original and r.background and r.original not in r.background  # cut out of what the judges see
        for sentence in r.original.split(". ")[:3]:
            assert sentence.rstrip(".") not in r.background
    index = [json.loads(line) for line in paths["index"].read_text().splitlines()]
    by_name = {d["name"]: d["text"] for d in index}
    assert "Evaluated Actor" in by_name  # a distractor, as in the evaluation's index
    for r in dev:
        assert r.original.split(". ")[0] not in by_name.get(r.name, "")  # no pseudo-abstract found verbatim
        assert len(by_name.get(r.name, "")) <= 0.26 * len(r.background) + 1  # the first quarter of what is left


def test_dev_set_command_writes_both_files(tmp_path):
    from cli_runner import invoke

    records = [{"name": f"Actor {i}", "public_knowledge": _body()} for i in range(3)]
    (tmp_path / "bk.json").write_text(json.dumps(records))
    (tmp_path / "eval.json").write_text(json.dumps([{"name": "Actor 0", "original_abstract": "x"}]))
    result = invoke(
        "index",
        "dev-set",
        tmp_path / "bk.json",
        "--exclude",
        tmp_path / "eval.json",
        "--n",
        5,
        "--output",
        tmp_path / "dev",
    )
    assert result.exit_code == 0, result.output
    names = {r["name"] for r in json.loads((tmp_path / "dev" / "dev.json").read_text())}
    assert names == {"Actor 1", "Actor 2"}  # every eligible one (fewer than --n), the evaluated actor left out
    assert (tmp_path / "dev" / "index.jsonl").read_text().count("\n") == 3
