"""Torch and BLAS threads per process: worker processes share the cores instead of each taking all of them.

A process forked by :func:`textanon.run.runner.anonymize_records` (``n_process``) or by spaCy's
``nlp.pipe(n_process=N)`` inherits torch's thread count, which defaults to every core: N processes would
then run N times more threads than cores. :func:`set_process_threads` gives each worker
``cores // n_process`` threads (at least 1); :func:`adapt_threads_to_process`, called before a forward
pass, does it in a forked child nobody configured, counting the processes started by its parent.
"""

import os
import sys
from typing import Optional

_CONFIGURED_PID: Optional[int] = None
_MAIN_PID = os.getpid()  # the process that imported textanon (forked children inherit the value)


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the platform reports it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def threads_per_process(n_process: int, cores: Optional[int] = None) -> int:
    """Threads for each of ``n_process`` processes sharing ``cores`` (default: the available cores); >= 1."""
    return max(1, (cores or available_cores()) // max(1, n_process))


def set_process_threads(n_process: int) -> int:
    """Limit this process's torch (and OpenMP/MKL, if torch is imported later) threads to its share of the cores
    among ``n_process`` processes; returns the thread count."""
    global _CONFIGURED_PID
    threads = threads_per_process(n_process)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(threads)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)
    _limit_blas(threads)
    _CONFIGURED_PID = os.getpid()
    return threads


def _limit_blas(threads: int) -> None:
    """Limit the BLAS libraries this process has loaded (NumPy's OpenBLAS, which the trained models multiply with:
    :mod:`textanon.run.matmul`) to ``threads``: a BLAS reads its environment variable only when it is loaded, and a
    forked worker inherits its parent's loaded one. Without threadpoolctl (a dependency of textanon; an install
    without it) the environment variables above are all there is."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover — a declared dependency; an install may lack it
        return
    threadpool_limits(limits=threads, user_api="blas")


def adapt_threads_to_process() -> None:
    """In a forked child whose threads nobody set (e.g. spaCy's ``nlp.pipe(n_process=N)``), take this process's
    share of the cores among the processes its parent runs; no effect in the main process or once set."""
    pid = os.getpid()
    if pid == _MAIN_PID or pid == _CONFIGURED_PID:
        return
    set_process_threads(max(1, _sibling_count()))


def _sibling_count() -> int:
    """Live processes started by this process's parent (this one included); when that cannot be known, the number
    of cores (each worker then takes one thread: never more threads than cores)."""
    try:
        import psutil

        children = psutil.Process(os.getppid()).children()
    except Exception:  # noqa: BLE001 — psutil missing or the parent gone
        return available_cores()
    alive = 0
    for child in children:
        try:
            alive += child.status() != psutil.STATUS_ZOMBIE
        except psutil.Error:  # ended meanwhile
            continue
    return max(1, alive)
