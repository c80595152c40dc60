"""The retrieval judges are fixed by a written rule: a frozen spec each, whose fingerprint every judged row records;
a partial run refuses to merge its rows into rows scored by other judges."""

import hashlib
import inspect
import json
from dataclasses import asdict, fields, replace

import pytest
from fake_models import VocabularyEncoder
from two_actors import TWO_ACTORS

from textanon_lab.benchmarks import harness, judges

RECORDS = TWO_ACTORS


def _other(value):
    """A different value of the same kind (None becomes a value)."""
    if value is None:
        return 1
    if isinstance(value, str):
        return value + " "
    return value + 1


@pytest.mark.parametrize("spec", judges.JUDGES, ids=lambda s: s.column)
def test_the_fingerprint_is_stable_and_changes_with_every_field(spec):
    copy = judges.JudgeSpec(**asdict(spec))
    assert copy.fingerprint == spec.fingerprint == hashlib.sha256(spec.canonical().encode()).hexdigest()[:12]
    assert json.loads(spec.canonical()) == asdict(spec) and list(json.loads(spec.canonical())) == sorted(asdict(spec))
    seen = {spec.fingerprint}
    for field in fields(judges.JudgeSpec):
        changed = replace(spec, **{field.name: _other(getattr(spec, field.name))})
        assert changed.fingerprint not in seen, field.name
        seen.add(changed.fingerprint)
    with pytest.raises(AttributeError):
        spec.k1 = 2.0  # frozen


def test_the_written_rule_is_what_the_attackers_do():
    """The specs name the defaults of the attackers' code: a change there without a change of the spec fails here."""
    from textanon_eval.bm25 import BM25
    from textanon_eval.embeddings import Encoder
    from textanon_eval.retrieval_attack import DenseAttack

    defaults = {k: p.default for k, p in inspect.signature(BM25).parameters.items()}
    assert (defaults["k1"], defaults["b"]) == (judges.BM25_JUDGE.k1, judges.BM25_JUDGE.b)
    assert inspect.signature(DenseAttack).parameters["chunk_words"].default == judges.MINILM_JUDGE.chunk_words
    assert Encoder().name == judges.MINILM_JUDGE.model
    assert judges.BM25_JUDGE.fingerprint != judges.MINILM_JUDGE.fingerprint


def test_every_judged_row_records_the_fingerprints(tmp_path):
    systems = {
        "nothing masked": {"texts": {r.name: r.original for r in RECORDS}},
        "everything masked": {"texts": {r.name: "*** ***" for r in RECORDS}},
    }
    rows = [{"system": name} for name in systems]
    info = judges.add_judge_columns(
        RECORDS, systems, rows, cache_dir=tmp_path, encoder=VocabularyEncoder(r.background for r in RECORDS)
    )
    stamp = rows[0]["judge_fingerprints"]
    assert all(r["judge_fingerprints"] == stamp == info["fingerprints"] for r in rows)
    assert stamp["bm25_reid"] == judges.BM25_JUDGE.fingerprint
    # the test's encoder is not the spec's model: recorded as a judge of its own
    assert stamp["dense_reid"] != judges.MINILM_JUDGE.fingerprint
    assert info["specs"]["dense_reid"]["model"] == "test:vocabulary"
    assert info["specs"]["dense_reid"]["fingerprint"] == stamp["dense_reid"]


def _row(name, fingerprints=None, bm25=50.0):
    row = {"system": name, "tpi": 0.5, "bm25_reid": bm25, "dense_reid": bm25, "docs_per_s": None}
    return row | ({"judge_fingerprints": fingerprints} if fingerprints else {})


NOW = judges.fingerprints()


def test_a_partial_run_refuses_rows_scored_by_other_judges():
    old = dict(NOW, dense_reid="0" * 12)
    earlier = {"rows": [_row("a", old), _row("b", NOW), _row("c", old)], "settings": {}}
    partial = {"rows": [_row("d", NOW)], "settings": {"groups": ["generalization"]}}
    with pytest.raises(harness.BenchmarkError, match="2 earlier rows were scored by other judges") as err:
        harness.merge_rows(earlier, partial)
    assert "'a'" in str(err.value) and "'c'" in str(err.value) and "'b'" not in str(err.value)
    # replacing the rows of the other judges is allowed: nothing of theirs is kept
    partial = {"rows": [_row("a", NOW), _row("c", NOW)], "settings": {"groups": ["generalization"]}}
    assert [r["system"] for r in harness.merge_rows(earlier, partial)["rows"]] == ["b", "a", "c"]


def test_earlier_rows_without_fingerprints_are_kept_but_flagged():
    earlier = {"rows": [_row("old"), _row("unjudged", bm25=None), _row("same", NOW)], "settings": {}}
    partial = {"rows": [_row("new", NOW)], "settings": {"groups": ["generalization"]}}
    rows = {r["system"]: r for r in harness.merge_rows(earlier, partial)["rows"]}
    assert rows["old"]["judge_unverified"] is True and rows["old"]["bm25_reid"] == 50.0
    assert "judge_unverified" not in rows["unjudged"] and "judge_unverified" not in rows["same"]
    assert "judge_unverified" not in rows["new"]
    # a partial run whose judges did not run checks nothing
    unjudged = {"rows": [_row("new", bm25=None)], "settings": {"groups": ["generalization"]}}
    assert all("judge_unverified" not in r for r in harness.merge_rows(earlier, unjudged)["rows"])
