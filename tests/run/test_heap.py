"""textanon.run.heap: a run of documents freezes the loaded pipeline out of the garbage collector's full collections
before its second batch, once per process; a run of one batch never does; the records are the same."""

import gc
import weakref

import pytest
from core_fixtures import decision_pipeline

import textanon  # noqa: F401  (extensions)
from textanon.io.datasets.records import Record
from textanon.run import heap
from textanon.run.runner import anonymize_records


def _records(texts):
    return [Record(id=f"r{i}", text=t, target="Anna Berg") for i, t in enumerate(texts)]


@pytest.fixture
def fresh_heap():
    """A process that has run no batch and frozen nothing; afterwards, the frozen objects back in the collector's
    care (the test process goes on as before)."""
    gc.unfreeze()
    heap._STATE.update(pid=None, batches=0, frozen=False)
    yield
    gc.unfreeze()
    heap._STATE.update(pid=None, batches=0, frozen=False)


def test_freezes_before_the_second_batch_only(fresh_heap):
    heap.before_batch()
    assert gc.get_freeze_count() == 0  # the first batch: nothing frozen (a one-document CLI run never pays)
    heap.before_batch()
    frozen = gc.get_freeze_count()
    assert frozen > 0  # the objects alive before the second batch
    created_later = [object() for _ in range(3)]  # noqa: F841
    heap.before_batch()
    assert gc.get_freeze_count() == frozen  # once per process


def test_a_frozen_object_is_still_freed_by_reference_counting(fresh_heap):
    class Thing:
        pass

    thing = Thing()
    ref = weakref.ref(thing)
    heap.freeze_loaded()
    assert gc.get_freeze_count() > 0
    del thing
    assert ref() is None


def test_young_garbage_cycles_are_collected_before_freezing(fresh_heap):
    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector frees it
    ref = weakref.ref(a)
    del a, b
    heap.freeze_loaded()
    assert ref() is None  # collected first, not frozen with the pipeline


def test_the_runner_freezes_a_run_of_several_batches_with_the_same_records(fresh_heap):
    texts = [f"Anna Berg wrote letter {n} to Oslo." for n in range(5)]
    nlp = decision_pipeline()
    single = list(anonymize_records(nlp, _records(texts[:2]), batch_size=2))  # one batch
    assert gc.get_freeze_count() == 0
    several = list(anonymize_records(nlp, _records(texts), batch_size=2))  # three batches
    assert gc.get_freeze_count() > 0
    assert [r["id"] for r in several] == [f"r{i}" for i in range(5)]
    assert several[:2] == single
    assert all("Anna Berg" not in r["anonymized_text"] for r in several)
