"""Tables read once per process, on first use (WordNet's index, the given names of ``gender_guesser``, GeoNames'
cities): built with Python's cyclic garbage collector paused.

Such a table is hundreds of thousands of small objects and none of them garbage, yet while it grows every collection
of the oldest generation walks all of it again: about two thirds of WordNet's 0.9-1.0 s index and three quarters of
the given names' 0.5 s were collections (2026-11-30, docs/speed.md). :func:`collector_paused` switches the collector
off while one is built and back on as it was; nothing is freed later than it would have been (a table holds no
cycles to collect), and an application that switched the collector off keeps it off.
"""

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """The cyclic garbage collector off inside the block, then as it was (module docstring)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
