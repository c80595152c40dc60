"""The garbage collector after a pipeline is loaded.

A loaded pipeline and the libraries it imports (spaCy, thinc, PyTorch, the language model's tokenizer...) leave
about half a million objects that Python's cyclic garbage collector tracks. They live as long as the process, yet
every full collection walks all of them again. On court cases the fast profile spends about a tenth of its time
there (``bench-speed``). :func:`settle` collects once and moves what is left into the permanent generation
(:func:`gc.freeze`), so later collections look only at what the documents create.

What the documents create is the other half. A court case's decision builds a few hundred thousand small objects
that live until the document is done (the generalizer's options and banned pairs, the solver's model): with
CPython's default first threshold (700 allocations) they survive into the oldest generation and are walked there
again and again, a tenth of a generalizing run on court cases (about 1.4 s of 10 s on the 27 echr-dev cases,
fast profile with ``--replacement generalize``, measured with ``gc.callbacks``). :func:`settle` therefore also
raises the first threshold to :data:`YOUNG_THRESHOLD`: collections come 14 times less often, each walks more young
objects, and most of a document's objects are freed by reference counting before they are ever walked. Garbage
in reference cycles waits a little longer for its collection; nothing else changes, no output included.

The command line (:func:`textanon.run.job.prepare_pipeline`) calls it after loading; a long-running application
that loads ``en_textanon`` with ``spacy.load`` can call it too (README, "Speed"). The speed benchmarks call it for
every system they time, Presidio included, after that system's warm-up document.

What the first documents load is the rest of the pipeline: WordNet, the place hierarchy, the word tables and their
caches (about 400,000 tracked objects more on ``en_textanon``'s first document), which :func:`settle` right after
loading cannot freeze. :func:`before_batch`, which the runner calls before each batch, freezes them once per process,
before its second batch (a run of one batch, the command line on one document, never pays for it): the young
generations are collected first, then every object alive is frozen. A cycle of garbage that had reached the oldest
generation by then stays in memory (at most the first batch's Docs, once per process). A forked worker
(``n_process > 1``) counts its own batches.
"""

import gc
import os
import threading

#: allocations (less deallocations) between two collections of the young generation (CPython's default: 700)
YOUNG_THRESHOLD = 10_000


def settle() -> None:
    """Collect what loading left behind, then freeze what is still alive (:func:`gc.freeze`): later collections
    skip it; and collect the young generation every :data:`YOUNG_THRESHOLD` allocations (the older generations'
    thresholds as they were; a higher threshold the application set, or 0 (automatic collection off), is kept). Call
    it once, after the pipeline is loaded and before the documents."""
    gc.collect()
    gc.freeze()
    young, middle, oldest = gc.get_threshold()
    if 0 < young < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)


_LOCK = threading.Lock()
#: the batches this process has started (a forked worker counts again: keyed by the process id)
_BATCHES = {"pid": None, "count": 0}


def before_batch() -> None:
    """Count a batch of this process; before its second one, collect the young generations and freeze every object
    alive: what the first documents loaded joins the pipeline out of the collector's way (module docstring)."""
    with _LOCK:
        if _BATCHES["pid"] != os.getpid():
            _BATCHES.update(pid=os.getpid(), count=0)
        _BATCHES["count"] += 1
        if _BATCHES["count"] == 2:
            gc.collect(1)
            gc.freeze()
