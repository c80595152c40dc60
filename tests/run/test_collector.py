"""textanon.run.collector: the loaded objects frozen out of the garbage collector's way."""

import gc
import weakref

import pytest
from core_fixtures import decision_pipeline

import textanon  # noqa: F401  (extensions)
from textanon.io.datasets.records import Record
from textanon.run import collector
from textanon.run.collector import YOUNG_THRESHOLD, before_batch, settle
from textanon.run.runner import anonymize_records


@pytest.fixture(autouse=True)
def _restore_collector():
    """settle() changes the process's collector: each test leaves it as it found it."""
    thresholds = gc.get_threshold()
    gc.unfreeze()
    collector._BATCHES.update(pid=None, count=0)  # a process that has run no batch
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    collector._BATCHES.update(pid=None, count=0)


def test_settle_collects_cycles_then_freezes_what_is_alive():
    class Node:
        pass

    gc.unfreeze()
    try:
        garbage = Node()
        garbage.me = garbage  # a reference cycle: only the collector frees it
        dead = weakref.ref(garbage)
        kept = Node()
        del garbage
        before = gc.get_freeze_count()
        settle()
        assert dead() is None  # collected before the freeze, not kept forever
        assert gc.get_freeze_count() > before  # what is alive is out of later collections' way
        assert kept is not None
    finally:
        gc.unfreeze()


def test_settle_spaces_young_collections_and_keeps_the_older_thresholds():
    gc.set_threshold(700, 10, 10)
    settle()
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    assert YOUNG_THRESHOLD > 700


def test_settle_never_lowers_a_threshold_the_application_raised():
    gc.set_threshold(10 * YOUNG_THRESHOLD, 20, 30)
    settle()
    assert gc.get_threshold() == (10 * YOUNG_THRESHOLD, 20, 30)


def test_settle_leaves_automatic_collection_off_when_the_application_turned_it_off():
    gc.set_threshold(0, 10, 10)  # a first threshold of 0: no automatic collection
    settle()
    assert gc.get_threshold() == (0, 10, 10)


def test_cycles_made_after_settle_are_collected_without_being_asked():
    class Node:
        pass

    settle()
    dead = []
    for _ in range(3 * YOUNG_THRESHOLD):  # more allocations than the young threshold: a collection runs by itself
        garbage = Node()
        garbage.me = garbage  # a reference cycle: only the collector frees it
        dead.append(weakref.ref(garbage))
        del garbage
    assert any(ref() is None for ref in dead)


def test_before_batch_freezes_before_the_second_batch_only():
    before_batch()
    assert gc.get_freeze_count() == 0  # the first batch: nothing frozen (the CLI on one document never pays)
    before_batch()
    frozen = gc.get_freeze_count()
    assert frozen > 0  # what the first batch loaded, with the rest
    created_later = [[n] for n in range(1000)]  # noqa: F841
    before_batch()
    assert gc.get_freeze_count() == frozen  # once per process


def test_before_batch_collects_young_cycles_before_freezing_and_a_frozen_object_is_still_freed():
    class Node:
        pass

    cycle = Node()
    cycle.me = cycle  # a reference cycle: only the collector frees it
    dead = weakref.ref(cycle)
    plain = Node()
    alive = weakref.ref(plain)
    del cycle
    before_batch()
    before_batch()
    assert gc.get_freeze_count() > 0
    assert dead() is None  # collected first, not frozen forever
    del plain
    assert alive() is None  # reference counting still frees a frozen object


def test_the_runner_freezes_a_run_of_several_batches_with_the_same_records():
    nlp = decision_pipeline()
    records = [Record(id=f"r{n}", text=f"Anna Berg wrote letter {n} to Oslo.", target="Anna Berg") for n in range(5)]
    single = list(anonymize_records(nlp, records[:2], batch_size=2))  # one batch
    assert gc.get_freeze_count() == 0
    several = list(anonymize_records(nlp, records, batch_size=2))  # three batches more
    assert gc.get_freeze_count() > 0
    assert [r["id"] for r in several] == [f"r{n}" for n in range(5)]
    assert several[:2] == single
    assert all("Anna Berg" not in r["anonymized_text"] for r in several)
