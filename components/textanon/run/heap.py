"""Python's garbage collector in long runs: the loaded pipeline is frozen out of the full collections.

A loaded ``en_textanon`` holds about 900,000 objects that the cyclic garbage collector tracks (500,000 after
``spacy.load``: the models, the gazetteer, the word tables; 400,000 more on the first documents: WordNet, the place
hierarchy, caches), and none of them ever becomes garbage. Every full collection walks all of them, about half a
second each on the development VM, and a run of documents triggers one every few batches, because a processed Doc
lives long enough to reach the oldest generation: on the 50 evaluated abstracts and the 27 echr-dev cases, 8 full
collections took 4.8 of 26 seconds (the fast profile, three passes; ad hoc, ``gc.callbacks``, docs/speed.md).

:func:`before_batch`, which the runner calls before each batch, freezes (:func:`gc.freeze`) the objects alive before
the process's second batch: the pipeline and whatever its first documents loaded. Frozen objects are left out of every
later collection; they are still freed by reference counting. Before freezing, the young generations are collected
(a few milliseconds), so the garbage of the first batch is freed first; a cycle of garbage that had reached the
oldest generation by then stays in memory (at most the first batch's Docs, once per process). Nothing else changes:
the same records, in the same order. A run of one batch (the CLI on one document) is never frozen, so it never
pays for it. Worker processes (``n_process > 1``) are forked with the parent's frozen objects and freeze their own
after their own first batch.

Code that runs the pipeline itself (``nlp.pipe`` over many documents) can do the same after its first documents:
``textanon.run.heap.freeze_loaded()``."""

import gc
import os
import threading

_LOCK = threading.Lock()
#: per process (a forked worker starts again from its parent's state, keyed by pid): batches started, frozen yet
_STATE = {"pid": None, "batches": 0, "frozen": False}


def before_batch() -> None:
    """Count a batch of this process; before the second one, :func:`freeze_loaded` (module docstring)."""
    with _LOCK:
        if _STATE["pid"] != os.getpid():
            _STATE.update(pid=os.getpid(), batches=0, frozen=False)
        _STATE["batches"] += 1
        if _STATE["batches"] == 2 and not _STATE["frozen"]:
            freeze_loaded()
            _STATE["frozen"] = True


def freeze_loaded() -> None:
    """Collect the young generations, then freeze every object alive: the loaded pipeline is left out of every later
    collection (module docstring). Call it once, after the first documents: what it freezes stays in memory."""
    gc.collect(1)
    gc.freeze()
