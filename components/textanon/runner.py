"""Running a pipeline over input records: one output or error record per input record, in input order.

Fail closed, per document: a record that cannot be read, is too long, repeats an id, makes a component
raise, or kills the worker process that runs it becomes an **error record** (that document is not
released); every other record goes on. Errors are never raised to the caller and never lost.

With ``n_process > 1`` batches run in forked worker processes. When a worker dies (killed, out of
memory), the batches it may have held are re-run one document at a time in fresh workers, so only
the document that kills a worker becomes an error record.
"""

import logging
import multiprocessing
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Deque, Dict, Iterable, Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from .datasets.records import Item, Record, RecordError
from .output import doc_to_record

logger = logging.getLogger(__name__)

#: Longest document processed (characters); spaCy's own ``nlp.max_length`` is raised up to this per document.
DEFAULT_MAX_CHARS = 5_000_000

Job = Tuple[int, Record]
_WORKER: dict = {}


def anonymize_records(
    nlp: Language,
    items: Iterable[Item],
    target: Optional[str] = None,
    n_process: int = 1,
    batch_size: int = 8,
    max_chars: int = DEFAULT_MAX_CHARS,
    spans_key: str = "pii",
) -> Iterator[dict]:
    """Yield one output record (``output.doc_to_record``) or error record (``RecordError.to_json``) per
    item of ``items`` (``records.read_records``), in input order, as soon as it and all before it are done.

    target: the person to protect for records without their own ``target``.
    max_chars: records longer than this become error records (longer than ``nlp.max_length`` is fine).
    """
    settings = {"target": target, "max_chars": max_chars, "spans_key": spans_key}
    jobs = enumerate(items)
    if n_process <= 1:
        for batch in _batches(jobs, batch_size):
            for _, record in _run_batch(nlp, batch, settings):
                yield record
    else:
        yield from _run_parallel(nlp, jobs, settings, n_process, batch_size)


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


def _run_batch(nlp: Language, batch: List[Tuple[int, Item]], settings: dict) -> List[Tuple[int, dict]]:
    """Output records of a batch: the whole batch through ``nlp.pipe``; if that raises, one document at a time."""
    out: Dict[int, dict] = {}
    docs: List[Tuple[int, Record, Doc]] = []
    for i, item in batch:
        if isinstance(item, RecordError):
            out[i] = item.to_json()
        elif len(item.text) > settings["max_chars"]:
            out[i] = error_record(item, f"{len(item.text):,} characters, over the limit of {settings['max_chars']:,}")
        else:
            try:
                docs.append((i, item, _make_doc(nlp, item, settings["target"])))
            except Exception as err:  # noqa: BLE001 — tokenizer failure: this document only
                out[i] = error_record(item, f"tokenizer failed ({type(err).__name__})")
    if docs:
        try:
            done = list(nlp.pipe([d for _, _, d in docs]))
            for (i, item, _), doc in zip(docs, done):
                out[i] = doc_to_record(doc, item.id, settings["spans_key"])
        except Exception:  # noqa: BLE001 — find the document that fails, run the others alone
            for i, item, _ in docs:
                out[i] = _run_one(nlp, item, settings)
    return sorted(out.items())


def _make_doc(nlp: Language, record: Record, target: Optional[str]) -> Doc:
    doc = nlp.tokenizer(record.text)  # not nlp.make_doc: the length limit is ours (max_chars)
    doc._.target = record.target or target
    return doc


def _run_one(nlp: Language, record: Record, settings: dict) -> dict:
    """One fresh document through every component; an exception gives an error record naming the component."""
    try:
        doc = _make_doc(nlp, record, settings["target"])
    except Exception as err:  # noqa: BLE001
        return error_record(record, f"tokenizer failed ({type(err).__name__})")
    for name, proc in nlp.pipeline:
        try:
            doc = proc(doc)
        except Exception as err:  # noqa: BLE001 — exception type only: messages may quote the text
            logger.warning("component %s failed on record %s (%s)", name, record.id, type(err).__name__)
            return error_record(record, f"component {name!r} failed ({type(err).__name__})")
    try:
        return doc_to_record(doc, record.id, settings["spans_key"])
    except Exception as err:  # noqa: BLE001
        return error_record(record, f"output failed ({type(err).__name__})")


def _worker_init(nlp: Language, settings: dict) -> None:
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
            n_process, mp_context=context, initializer=_worker_init, initargs=(nlp, settings)
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
