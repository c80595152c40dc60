"""The tuning sample: seeded pseudo-abstracts of non-evaluated actors, and where they come from."""

import random

from input_files import write_json

from textanon_lab.tuning.sample import TuningSample, pseudo_abstracts


def _files(tmp_path, n=6):
    lead, rest = "x" * 40, "y" * 600
    background = [{"name": f"Actor {i}", "public_knowledge": f"{lead} {i}\n{rest}"} for i in range(n)]
    background.append({"name": "Evaluated", "public_knowledge": f"{lead}\n{rest}"})
    evaluated = write_json(tmp_path / "eval.json", [{"name": "Evaluated", "original_abstract": "..."}])
    return write_json(tmp_path / "bk.json", background), evaluated


def test_the_sample_is_n_seeded_eligible_pseudo_abstracts(tmp_path):
    background, evaluated = _files(tmp_path)
    sample = TuningSample(background, evaluated, n=3, seed=7, min_chars=30)
    pool, eligible, items = sample.draw()
    assert pool == pseudo_abstracts(background, evaluated, 30) and "Evaluated" not in [p["name"] for p in pool]
    eligible_expected = [p for p in pool if p["eligible"]]
    assert eligible == eligible_expected and len(eligible) == 6
    assert items == random.Random(7).sample(eligible_expected, 3)
    assert sample.draw() == (pool, eligible, items)  # seeded: the same documents every time
    assert TuningSample(background, evaluated, n=None, min_chars=30).draw()[2] == eligible  # no n: all of them


def test_a_given_pool_is_sampled_and_the_provenance_names_the_files(tmp_path):
    background, evaluated = _files(tmp_path)
    pool = [{"name": "a", "eligible": True}, {"name": "b", "eligible": False}, {"name": "c", "eligible": True}]
    sample = TuningSample(background, evaluated, n=10, seed=1)
    assert sample.draw(pool) == (pool, [pool[0], pool[2]], [pool[0], pool[2]])
    assert sample.provenance() == {
        "background": str(background),
        "excluded_evaluated_file": str(evaluated),
        "evaluated_records_used": 0,
        "seed": 1,
    }
