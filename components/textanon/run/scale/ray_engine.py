"""The Ray engine of ``anonymize`` (``--engine ray``): the same records out as the local engine, on a Ray cluster.

The driver reads the input (``records.read_records``: the local engine's reader, so every bad input record gives
the same error record, duplicate ids included) and hands the records to Ray Data in windows of ``window`` records
(bounded driver memory). Each window is one ``map_batches`` over an **actor pool**: every actor loads the pipeline
once (:class:`PipelineSpec`, never a pickled ``Language``) and runs batches with ``runner.anonymize_batch``, the
local engine's own batch function, so a component that raises gives the same error record. The output records
come back as JSON strings, are put back in input order by their index and yielded one by one: the caller writes
them with ``output.write_output`` exactly as the local engine's.

Fault tolerance: an actor that dies (killed, out of memory, node lost) is restarted and its batch retried, up to
``max_retries`` times (Ray's ``max_task_retries``). A window that still fails (a document that kills every worker
that runs it) is finished one record at a time in a fresh actor, restarted after each death: only the record
whose actor dies becomes an error record (``worker process died``), as in the local engine.

Privacy: record texts only travel in Ray's object store; nothing here logs them (ids and counts only), the
worker processes' output is not forwarded to the driver (``log_to_driver=False``) and Ray Data's progress is off.
"""

import json
import logging
import os
import pickle
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import spacy

import textanon  # noqa: F401  (extensions)
import textanon.pipes.factories  # noqa: F401  (the factories, before the pipeline loads)
from textanon.extensions import DEFAULT_SPANS_KEY
from textanon.io.datasets.records import Item, Record
from textanon.pipes.allow_deny import add_lists
from textanon.pipes.search_risk import use_index
from textanon.run.collector import settle
from textanon.run.runner import DEFAULT_MAX_CHARS, anonymize_batch, error_record

logger = logging.getLogger(__name__)

#: environment of a Ray started by :func:`ray_session` (unless already set): offline, no usage reporting
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_DISABLE_DOCKER_CPU_WARNING": "1"}
DEFAULT_WINDOW = 10_000
DEFAULT_MAX_RETRIES = 3


@dataclass(frozen=True)
class PipelineSpec:
    """What every worker loads: ``spacy.load(model, config=config)``, then the search index and the allow/deny
    lists as ``anonymize --index/--allow-list/--deny-list`` (paths readable on every node)."""

    model: str = "en_textanon"
    config: dict = field(default_factory=dict)
    index: Optional[str] = None
    allow_list: Optional[str] = None
    deny_list: Optional[str] = None

    def load(self):
        """The loaded pipeline (``Language``)."""
        nlp = spacy.load(self.model, config=self.config)
        if self.index is not None:
            use_index(nlp, self.index)
        if self.allow_list or self.deny_list:
            add_lists(nlp, self.allow_list, self.deny_list)
        return nlp


#: a :class:`PipelineSpec`, or any picklable function of no arguments returning a ``Language`` (tests)
Pipeline = Union[PipelineSpec, Callable[[], object]]


class RecordAnonymizer:
    """The callable class of ``map_batches``: loads the pipeline once per actor, then anonymizes batches of
    ``{"index": [...], "item": [pickled Record | RecordError, ...]}`` into
    ``{"index": [...], "record": [JSON line, ...]}``."""

    def __init__(self, pipeline: Pipeline, settings: dict):
        loader = pipeline.load if isinstance(pipeline, PipelineSpec) else pipeline
        self.nlp = loader()
        settle()  # the actor lives as long as the job: its loaded objects out of the collector's way
        self.settings = settings

    def ready(self) -> bool:
        """True once the pipeline is loaded (the fallback actor's health check)."""
        return True

    def run(self, jobs: List[Tuple[int, Item]]) -> List[Tuple[int, str]]:
        """``(index, output or error record as a JSON line)`` per job, in index order."""
        done = anonymize_batch(self.nlp, jobs, **self.settings)
        return [(i, json.dumps(record, ensure_ascii=False)) for i, record in done]

    def __call__(self, batch: Dict[str, list]) -> Dict[str, list]:
        done = self.run([(int(i), pickle.loads(item)) for i, item in zip(batch["index"], batch["item"])])
        return {"index": [i for i, _ in done], "record": [line for _, line in done]}


@contextmanager
def ray_session(address: Optional[str] = None, num_cpus: Optional[int] = None, runtime_env: Optional[dict] = None):
    """Ray for the duration of the block: connected to the cluster at ``address`` (``auto``, ``ray://host:10001``,
    ``host:6379``), or a local Ray started here with ``num_cpus`` (None: every core) and shut down at the end.
    Inside an already initialized Ray (a notebook, a job submitted with ``ray job submit``, tests) it is used
    as it is and left running. No dashboard, no usage statistics, workers' output not forwarded."""
    import ray

    if ray.is_initialized():
        yield
        return
    for key, value in RAY_ENV.items():
        os.environ.setdefault(key, value)
    ray.init(
        address=address,
        num_cpus=None if address else num_cpus,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env=runtime_env,
    )
    try:
        yield
    finally:
        ray.shutdown()


def anonymize_on_ray(
    items: Iterable[Item],
    pipeline: Pipeline,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    num_workers: Optional[int] = None,
    runtime_env: Optional[dict] = None,
    **kwargs,
) -> Iterator[dict]:
    """:func:`ray_anonymize_records` inside a :func:`ray_session` (``address``, ``num_cpus``, ``runtime_env``)
    held open while the records are consumed: the library call behind ``anonymize --engine ray``.
    num_workers: actors (None: the cluster's CPUs); ``kwargs``: those of :func:`ray_anonymize_records`."""
    import ray

    with ray_session(address, num_cpus, runtime_env):
        if num_workers is None:
            num_workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        yield from ray_anonymize_records(items, pipeline, num_workers=num_workers, **kwargs)


def ray_anonymize_records(
    items: Iterable[Item],
    pipeline: Pipeline,
    target: Optional[str] = None,
    num_workers: int = 1,
    batch_size: int = 8,
    max_chars: int = DEFAULT_MAX_CHARS,
    spans_key: str = DEFAULT_SPANS_KEY,
    window: int = DEFAULT_WINDOW,
    max_retries: int = DEFAULT_MAX_RETRIES,
) -> Iterator[dict]:
    """As ``runner.anonymize_records``, on Ray (inside :func:`ray_session` or an initialized Ray): one output
    or error record per item of ``items``, in input order, from ``num_workers`` actors each holding the
    pipeline (``pipeline``: a :class:`PipelineSpec` or a picklable loader); batches of ``batch_size``
    records; ``window`` records handed to Ray at a time; a batch whose actor dies is retried ``max_retries``
    times before its records are run one by one (see the module's docstring)."""
    import ray

    if not ray.is_initialized():
        raise RuntimeError("Ray is not initialized: call ray_anonymize_records inside ray_session()")
    settings = {"target": target, "max_chars": max_chars, "spans_key": spans_key}
    jobs = enumerate(items)
    while True:
        chunk = list(islice(jobs, max(1, window)))
        if not chunk:
            return
        yield from _run_window(chunk, pipeline, settings, num_workers, batch_size, max_retries)


def _run_window(
    chunk: List[Tuple[int, Item]], pipeline: Pipeline, settings: dict, num_workers: int, batch_size: int, retries: int
) -> Iterator[dict]:
    """One Ray Data execution over ``chunk``; its records in input order."""
    import ray.data

    lost_worker = _lost_worker_errors()
    results: Dict[int, str] = {}
    order = [i for i, _ in chunk]
    position = 0
    ctx = ray.data.DataContext.get_current()
    saved = (ctx.execution_options.preserve_order, ctx.enable_progress_bars)
    ctx.execution_options.preserve_order, ctx.enable_progress_bars = True, False
    try:
        with warnings.catch_warnings():  # Ray 2.60 has no named parameter for the retries yet, only remote args
            warnings.filterwarnings("ignore", message=".*ray_remote_args.* is deprecated")
            dataset = _dataset(chunk, pipeline, settings, num_workers, batch_size, retries)
        for batch in dataset.iter_batches(batch_size=None, batch_format="numpy"):
            results.update(zip((int(i) for i in batch["index"]), batch["record"]))
            while position < len(order) and order[position] in results:
                yield json.loads(results.pop(order[position]))
                position += 1
    except lost_worker as err:
        done = set(order[:position]) | set(results)
        pending = [(i, item) for i, item in chunk if i not in done]
        logger.warning("Ray window failed (%s): %d records run one at a time", type(err).__name__, len(pending))
        results.update(_run_alone(pending, pipeline, settings, err))
    finally:
        ctx.execution_options.preserve_order, ctx.enable_progress_bars = saved
    for i in order[position:]:
        yield json.loads(results.pop(i))


def _lost_worker_errors() -> tuple:
    """Ray's errors for a worker (actor) that died or whose results were lost: the only ones that send a window's
    remaining records one at a time (any other error, e.g. a bug in the UDF, stops the run)."""
    import ray.exceptions as errors

    return (errors.RayActorError, errors.WorkerCrashedError, errors.ObjectLostError, errors.NodeDiedError)


def _dataset(chunk, pipeline: Pipeline, settings: dict, num_workers: int, batch_size: int, retries: int):
    """The Ray Dataset of one window: its records (pickled, one block per batch) through the actor pool."""
    import ray.data

    return ray.data.from_items(
        [{"index": i, "item": pickle.dumps(item)} for i, item in chunk],
        override_num_blocks=_blocks(len(chunk), batch_size),
    ).map_batches(
        RecordAnonymizer,
        fn_constructor_args=(pipeline, settings),
        batch_size=max(1, batch_size),
        batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(size=max(1, num_workers)),
        num_cpus=1,
        max_restarts=-1,
        max_task_retries=max(0, retries),
    )


def _blocks(n_records: int, batch_size: int) -> int:
    """Input blocks of a window: one per batch, so that batches spread over the actors from the start."""
    return max(1, -(-n_records // max(1, batch_size)))


#: seconds a fresh actor of the one-at-a-time fallback may take to load the pipeline before the run stops with the
#: window's error (a pipeline loads in seconds; an actor that never starts would otherwise block the run forever)
READY_TIMEOUT_S = 600.0


def _run_alone(pending: List[Tuple[int, Item]], pipeline: Pipeline, settings: dict, cause: Exception) -> Dict[int, str]:
    """Each record of ``pending`` alone in one actor, a fresh one after each death: the record whose actor
    dies becomes an error record. Raises ``cause`` if a fresh actor cannot even load the pipeline (or has not loaded
    it within :data:`READY_TIMEOUT_S`).

    The fallback's actor reserves no CPU (``num_cpus=0``): it starts right after the failed window, while Ray may still
    count the window's pool actors as holding every CPU of the cluster; an actor waiting for a CPU then waited forever
    (a full test run hung so on a 2-CPU local Ray, 2026-11-30). It runs one record at a time, alone."""
    import ray

    remote = ray.remote(num_cpus=0, max_restarts=0, max_task_retries=0)(RecordAnonymizer)
    results: Dict[int, str] = {}
    actor = None
    for i, item in pending:
        if actor is None:
            actor = remote.remote(pipeline, settings)
            try:
                ray.get(actor.ready.remote(), timeout=READY_TIMEOUT_S)
            except ray.exceptions.RayError:  # GetTimeoutError included
                try:
                    ray.kill(actor)
                except Exception:  # noqa: BLE001 — already gone
                    pass
                raise cause from None
        try:
            results.update(ray.get(actor.run.remote([(i, item)])))
        except ray.exceptions.RayActorError:
            logger.warning("a Ray worker died on record %s", getattr(item, "id", i))
            lost = error_record(item, "worker process died") if isinstance(item, Record) else item.to_json()
            results[i] = json.dumps(lost, ensure_ascii=False)
            actor = None
    if actor is not None:
        ray.kill(actor)
    return results
