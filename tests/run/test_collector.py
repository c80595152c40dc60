"""textanon.run.collector: the loaded objects frozen out of the garbage collector's way."""

import gc
import weakref

from textanon.run.collector import settle


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
