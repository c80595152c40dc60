"""textanon.run.collector: the loaded objects frozen out of the garbage collector's way."""

import gc
import weakref

import pytest

from textanon.run.collector import YOUNG_THRESHOLD, settle


@pytest.fixture(autouse=True)
def _restore_collector():
    """settle() changes the process's collector: each test leaves it as it found it."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


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
