"""Running a pipeline over input records: the one place where textanon runs over a corpus.

* :func:`anonymize_records` — one output or error record per input record, in input order (the CLI's
  ``anonymize``); optionally in worker processes.
* :func:`pipe_records` — the same run, yielding the processed Docs instead of output records (benchmarks
  and tuning read spans, IC values and masks, or time each component).
* :func:`redecide` — re-decide already scored Docs at another risk threshold without running the models
  again (threshold sweeps).

Fail closed, per document: a record that cannot be read, is too long, repeats an id, makes a component
raise, or kills the worker process that runs it becomes an **error record** (that document is not
released); every other record goes on. Errors are never raised to the caller and never lost.

With ``n_process > 1`` batches run in forked worker processes, each with its share of the cores for torch
(:func:`textanon.risk.language_models.threads.set_process_threads`). When a worker dies (killed, out of
memory), the batches it may have held are re-run one document at a time in fresh workers, so only
the document that kills it becomes an error record.
"""

import logging
import multiprocessing
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc

from textanon.extensions import DEFAULT_SPANS_KEY
from textanon.io.datasets.records import Item, Record, RecordError
from textanon.io.markup import HTML, html_view, render_in_markup
from textanon.pipes.lm_risk import LMRiskScorer, warnings_before_decision
from textanon.pipes.optimizer import MaskingOptimizer
from textanon.render.output import doc_to_record
from textanon.risk.language_models.threads import set_process_threads
from textanon.run import collector
from textanon.run.chunking import pipe_in_pieces, run_components, stages

logger = logging.getLogger(__name__)

#: Longest document processed (characters); spaCy's own ``nlp.max_length`` is raised up to this per document.
DEFAULT_MAX_CHARS = 5_000_000

Job = Tuple[int, Record]
#: what a processed document becomes: an output record (``anonymize_records``) or the Doc (``pipe_records``)
Finish = Callable[[Doc, Record, dict], Union[dict, Doc]]
_WORKER: dict = {}


class RecordFailed(RuntimeError):
    """A record became an error record in a run that needs every document (:func:`pipe_docs`)."""


def anonymize_records(
    nlp: Language,
    items: Iterable[Item],
    target: Optional[str] = None,
    n_process: int = 1,
    batch_size: Optional[int] = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    spans_key: str = DEFAULT_SPANS_KEY,
) -> Iterator[dict]:
    """Yield one output record (``output.doc_to_record``) or error record (``RecordError.to_json``) per
    item of ``items`` (``records.read_records``), in input order, as soon as it and all before it are done.

    target: the person to protect for records without their own ``target``.
    batch_size: documents per batch (None: the pipeline's ``nlp.batch_size``).
    max_chars: records longer than this become error records (longer than ``nlp.max_length`` is fine).
    """
    settings = {"target": target, "max_chars": max_chars, "spans_key": spans_key, "timings": None}
    batch_size = batch_size or nlp.batch_size
    jobs = enumerate(items)
    if n_process <= 1:
        for batch in _batches(jobs, batch_size):
            for _, record in _run_batch(nlp, batch, settings):
                yield record
    else:
        yield from _run_parallel(nlp, jobs, settings, n_process, batch_size)


def anonymize_batch(
    nlp: Language,
    batch: List[Tuple[int, Item]],
    target: Optional[str] = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    spans_key: str = DEFAULT_SPANS_KEY,
) -> List[Tuple[int, dict]]:
    """``(index, output or error record)`` for each ``(index, item)`` of ``batch``, sorted by index: one batch of
    :func:`anonymize_records` with the same settings, in this process (the unit of work of other engines, e.g.
    ``textanon.run.scale.ray_engine``)."""
    settings = {"target": target, "max_chars": max_chars, "spans_key": spans_key, "timings": None}
    return _run_batch(nlp, batch, settings)


def pipe_records(
    nlp: Language,
    items: Iterable[Item],
    target: Optional[str] = None,
    batch_size: Optional[int] = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    timings: Optional[Dict[str, float]] = None,
) -> Iterator[Tuple[Item, Union[Doc, dict]]]:
    """Yield ``(item, doc)`` per item, in input order, in this process: the Doc processed by the pipeline
    (the pipes that ``nlp.select_pipes`` leaves enabled), or, for an item that fails, its error record
    (a dict, as in :func:`anonymize_records`).

    timings: if given, each batch runs through one component after the other (each component's ``pipe`` over
    the whole batch, as ``nlp.pipe`` does), and the seconds spent in the tokenizer (key ``"tokenizer"``) and in
    each component are added to it (benchmarks).
    """
    settings = {"target": target, "max_chars": max_chars, "spans_key": None, "timings": timings}
    batches = _batches(enumerate(items), batch_size or nlp.batch_size)  # None: the pipeline's batch size
    for batch in batches:
        by_index = dict(batch)
        for i, doc in _run_batch(nlp, batch, settings, finish=_keep_doc):
            yield by_index[i], doc


def pipe_docs(nlp: Language, records: Iterable[Record], **kwargs) -> Iterator[Doc]:
    """Each record's Doc (:func:`pipe_records`, same keyword arguments), in input order, as it is done; raises
    :class:`RecordFailed` (naming the record and the component, never the text) at the first record that fails
    (benchmarks and tuning: every document is needed)."""
    for _item, doc in pipe_records(nlp, records, **kwargs):
        if not isinstance(doc, Doc):
            raise RecordFailed(doc["error"])
        yield doc


def redecide(nlp: Language, docs: Sequence[Doc], threshold: float) -> Sequence[Doc]:
    """Re-decide ``docs`` (already through the risk scorer) at the risk ``threshold``, in place, without
    running any model again: the risk scorer recomputes each doc's risky combinations from its stored
    ``span._.ic`` values at ``threshold`` and the optimizer decides again. The warnings recorded before the
    first decision (earlier components, a language-model failure) are kept; those of the previous decision
    are replaced by the new one's. The components' configured settings are left unchanged, so the same docs
    can be re-decided at any number of thresholds (threshold sweeps)."""
    risk, optimizer = _component(nlp, LMRiskScorer), _component(nlp, MaskingOptimizer)
    for doc in docs:
        doc._.anonymization_warnings = warnings_before_decision(doc) or None
        optimizer(risk.set_combinations(doc, threshold=threshold))
    return docs


def _component(nlp: Language, cls: type):
    """The pipeline's component of type ``cls`` (ValueError if it has none)."""
    found = [proc for _, proc in nlp.components if isinstance(proc, cls)]
    if not found:
        raise ValueError(f"the pipeline has no {cls.__name__} component (pipes: {nlp.component_names})")
    return found[0]


def _batches(jobs: Iterator[Tuple[int, Item]], size: int) -> Iterator[List[Tuple[int, Item]]]:
    batch: List[Tuple[int, Item]] = []
    for job in jobs:
        batch.append(job)
        if len(batch) >= max(1, size):
            yield batch
            batch = []
    if batch:
        yield batch


def error_record(record: Record, error: str) -> dict:
    """The error record of a readable record that could not be anonymized (names its id and line)."""
    where = record.where or "record"
    return RecordError(
        id=record.id,
        error=f"{where} (id {record.id}): {error}; not anonymized",
        source=record.source or "",
        line=record.line,
    ).to_json()


def _output_record(doc: Doc, record: Record, settings: dict) -> dict:
    out = doc_to_record(doc, record.id, settings["spans_key"])
    if record.markup == HTML:  # the masks written into the document itself, its tags kept (textanon.io.markup)
        out["anonymized_text"], out["masks"] = render_in_markup(record.text, html_view(record.text), doc._.masks or [])
    return out


def _keep_doc(doc: Doc, record: Record, settings: dict) -> Doc:
    return doc


def _run_batch(
    nlp: Language, batch: List[Tuple[int, Item]], settings: dict, finish: Finish = _output_record
) -> List[Tuple[int, Union[dict, Doc]]]:
    """Results of a batch: the whole batch through ``nlp.pipe`` (component by component, timed, when
    ``settings["timings"]`` is set); if that raises, one document at a time. Before the process's second batch, what
    the first documents loaded is frozen out of the garbage collector's way (:func:`.collector.before_batch`)."""
    collector.before_batch()
    out: Dict[int, Union[dict, Doc]] = {}
    todo: List[Tuple[int, Record]] = []
    for i, item in batch:
        if isinstance(item, RecordError):
            out[i] = item.to_json()
        elif len(item.text) > settings["max_chars"]:
            out[i] = error_record(item, f"{len(item.text):,} characters, over the limit of {settings['max_chars']:,}")
        else:
            todo.append((i, item))
    docs: List[Tuple[int, Record, Doc]] = []
    start = time.perf_counter()
    for i, item in todo:
        try:
            docs.append((i, item, _make_doc(nlp, item, settings["target"])))
        except Exception as err:  # noqa: BLE001 — tokenizer failure: this document only
            out[i] = error_record(item, f"tokenizer failed ({type(err).__name__})")
    _add_time(settings["timings"], "tokenizer", start)
    if docs:
        try:
            done = _pipe(nlp, [d for _, _, d in docs], settings["timings"])
            for (i, item, _), doc in zip(docs, done):
                out[i] = finish(doc, item, settings)
        except Exception:  # noqa: BLE001 — find the document that fails, run the others alone
            for i, item, _ in docs:
                out[i] = _run_one(nlp, item, settings, finish)
    return sorted(out.items(), key=lambda kv: kv[0])


def _pipe(nlp: Language, docs: List[Doc], timings: Optional[Dict[str, float]]) -> List[Doc]:
    """``docs`` through the pipeline as one batch, component by component (each component's ``pipe`` over the
    batch, as ``nlp.pipe`` does); spaCy's own components take a long document in pieces
    (:func:`textanon.run.chunking.pipe_in_pieces`). ``timings``: the seconds of each component are added to it."""
    for mine, components in stages(nlp):
        docs = run_components(components, docs, timings) if mine else pipe_in_pieces(components, docs, timings=timings)
    return docs


def _make_doc(nlp: Language, record: Record, target: Optional[str]) -> Doc:
    """The record's Doc: its text, or for an HTML record the text a browser shows, its markup blanked (the same
    length: the offsets are the document's, :func:`textanon.io.markup.html_view`)."""
    text = html_view(record.text).text if record.markup == HTML else record.text
    doc = nlp.tokenizer(text)  # not nlp.make_doc: the length limit is ours (max_chars)
    doc._.target = record.target or target
    return doc


def _run_one(nlp: Language, record: Record, settings: dict, finish: Finish = _output_record) -> Union[dict, Doc]:
    """One fresh document through every component; an exception gives an error record naming the component.
    With ``settings["timings"]``, the seconds of the tokenizer and of each component are added to it."""
    timings = settings["timings"]
    start = time.perf_counter()
    try:
        doc = _make_doc(nlp, record, settings["target"])
    except Exception as err:  # noqa: BLE001
        return error_record(record, f"tokenizer failed ({type(err).__name__})")
    _add_time(timings, "tokenizer", start)
    for name, proc in nlp.pipeline:
        start = time.perf_counter()
        try:
            doc = proc(doc)
        except Exception as err:  # noqa: BLE001 — exception type only: messages may quote the text
            logger.warning("component %s failed on record %s (%s)", name, record.id, type(err).__name__)
            return error_record(record, f"component {name!r} failed ({type(err).__name__})")
        _add_time(timings, name, start)
    try:
        return finish(doc, record, settings)
    except Exception as err:  # noqa: BLE001
        return error_record(record, f"output failed ({type(err).__name__})")


def _add_time(timings: Optional[Dict[str, float]], name: str, start: float) -> None:
    if timings is not None:
        timings[name] = timings.get(name, 0.0) + time.perf_counter() - start


def _worker_init(nlp: Language, settings: dict, n_process: int) -> None:
    set_process_threads(n_process)  # n_process workers share the cores: no oversubscription
    _WORKER.update(nlp=nlp, settings=settings)


def _worker_batch(batch: List[Tuple[int, Item]]) -> List[Tuple[int, dict]]:
    return _run_batch(_WORKER["nlp"], batch, _WORKER["settings"])


def _run_parallel(
    nlp: Language, jobs: Iterator[Tuple[int, Item]], settings: dict, n_process: int, batch_size: int
) -> Iterator[dict]:
    """Batches in worker processes; results buffered and yielded in input order."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    batches = _batches(jobs, batch_size)
    suspects: Deque[Tuple[int, Item]] = deque()  # documents lost with a dead worker: re-run one at a time
    results: Dict[int, dict] = {}
    next_out, exhausted, broken = 0, False, True
    while broken:
        broken = False
        executor = ProcessPoolExecutor(
            n_process, mp_context=context, initializer=_worker_init, initargs=(nlp, settings, n_process)
        )
        running: Dict = {}  # future -> (batch, alone)
        try:
            while True:
                while not any(alone for _, alone in running.values()):
                    if suspects:  # alone: if its worker dies, this document is the cause
                        if running:
                            break
                        batch, alone = [suspects.popleft()], True
                    elif exhausted or len(running) >= 2 * n_process:
                        break
                    else:
                        batch, alone = next(batches, None), False
                        if batch is None:
                            exhausted = True
                            break
                    running[executor.submit(_worker_batch, batch)] = (batch, alone)
                if not running:
                    break
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    batch, alone = running.pop(future)
                    try:
                        results.update(future.result())
                    except BrokenProcessPool:
                        broken = True
                        if alone:
                            i, item = batch[0]
                            logger.warning("a worker process died on record %s", getattr(item, "id", i))
                            results[i] = (
                                error_record(item, "worker process died")
                                if isinstance(item, Record)
                                else item.to_json()
                            )
                        else:
                            suspects.extend(batch)
                    except Exception as err:  # noqa: BLE001 — e.g. an unpicklable result: run in this process
                        logger.warning("worker batch failed (%s); running it in this process", type(err).__name__)
                        results.update(_run_batch(nlp, batch, settings))
                while next_out in results:
                    yield results.pop(next_out)
                    next_out += 1
                if broken:  # every batch still running was lost with the pool
                    for batch, _ in running.values():
                        suspects.extend(batch)
                    suspects = deque(sorted(suspects, key=lambda job: job[0]))
                    break
        finally:
            executor.shutdown(wait=True, cancel_futures=True)
    for i in sorted(results):  # none expected: every index below the last was yielded above
        yield results[i]
