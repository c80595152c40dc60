"""The real language model through the pipeline: docs scored together (nlp.pipe) or in worker processes give the
values of one doc at a time."""

import multiprocessing

import pytest
from core_fixtures import decision_pipeline

from textanon.io.datasets.records import Record
from textanon.risk.language_models.threads import adapt_threads_to_process, set_process_threads, threads_per_process
from textanon.run.runner import anonymize_records

TEXTS = [
    "The applicant, Mr Andrei Petrescu, was born in 1961 and lives in Balti. He is a veterinary surgeon.",
    "Ms Elena Rusu, a lawyer from Chisinau, met the applicant on 3 March 2006 at the Orhei hospital.",
    "On 14 May 2004 the Balti Court of Appeal dismissed the appeal lodged by Mr Ion Ursu, a primary-school teacher.",
    "Mr Vlad Cazacu was treated for tuberculosis in Soroca in 2009; application no. 48213/09 was lodged in 2010.",
]


@pytest.fixture(scope="module")
def nlp():
    return decision_pipeline(gazetteer=None, risk=("textanon_lm_risk", {"threshold": -4.0}))


def ics(doc):
    return [s._.ic for s in doc.spans["pii"]]


def assert_same(a, b):
    assert a._.anonymized_text == b._.anonymized_text
    assert [s._.entity_id for s in a.spans["pii"]] == [s._.entity_id for s in b.spans["pii"]]
    for x, y in zip(ics(a), ics(b)):
        assert (x is None) == (y is None)
        assert x is None or x == pytest.approx(y, abs=1e-4)


@pytest.mark.slow
def test_pipe_batches_the_docs_and_equals_one_doc_at_a_time(nlp):
    alone = [nlp(text) for text in TEXTS]
    assert sum(ic is not None for doc in alone for ic in ics(doc)) >= 4  # the language model really scored (dates)
    together = list(nlp.pipe(TEXTS, batch_size=4))
    for a, b in zip(together, alone):
        assert_same(a, b)


@pytest.mark.slow
def test_two_processes_give_the_output_of_one(nlp):
    one = list(nlp.pipe(TEXTS, batch_size=2))
    for a, b in zip(nlp.pipe(TEXTS, batch_size=1, n_process=2), one):
        assert_same(a, b)
    records = [Record(id=str(i), text=t) for i, t in enumerate(TEXTS)]
    out1 = list(anonymize_records(nlp, records, n_process=1, batch_size=2))
    out2 = list(anonymize_records(nlp, records, n_process=2, batch_size=1))
    assert [r["anonymized_text"] for r in out2] == [r["anonymized_text"] for r in out1]
    for r1, r2 in zip(out1, out2):
        assert [s["ic"] for s in r2["spans"]] == pytest.approx([s["ic"] for s in r1["spans"]], abs=1e-4)


def _threads_in_child(queue, configure, barrier):
    import torch

    barrier.wait()  # as in spaCy's nlp.pipe: every worker is started before the first document arrives
    if configure:
        set_process_threads(2)
    else:
        adapt_threads_to_process()
    queue.put(torch.get_num_threads())


def test_worker_processes_share_the_cores():
    import torch

    assert threads_per_process(2, cores=2) == 1 and threads_per_process(3, cores=16) == 5
    assert threads_per_process(4, cores=2) == 1
    before = torch.get_num_threads()
    ctx = multiprocessing.get_context("fork")
    for configure in (True, False):  # runner workers set it; spaCy's nlp.pipe children adapt (2 siblings here)
        queue, barrier = ctx.Queue(), ctx.Barrier(2)
        procs = [ctx.Process(target=_threads_in_child, args=(queue, configure, barrier)) for _ in range(2)]
        for p in procs:
            p.start()
        got = [queue.get(timeout=60) for _ in procs]
        for p in procs:
            p.join()
        assert got == [threads_per_process(2)] * 2
    assert torch.get_num_threads() == before  # the main process keeps its threads


def _blas_threads_in_child(queue):
    import numpy  # noqa: F401  (its OpenBLAS, loaded in the parent and inherited by the fork)
    from threadpoolctl import threadpool_info

    set_process_threads(2)
    queue.put(sorted({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}))


def test_a_worker_limits_the_blas_the_trained_models_multiply_with():
    """NumPy's OpenBLAS (textanon.run.matmul) read its thread count when the parent loaded it: a forked worker limits
    it to its share of the cores, and the parent keeps its own."""
    from threadpoolctl import threadpool_info

    before = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert before, "NumPy's BLAS is loaded"
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_blas_threads_in_child, args=(queue,))
    proc.start()
    got = queue.get(timeout=60)
    proc.join()
    assert got == [threads_per_process(2)]
    assert [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"] == before
