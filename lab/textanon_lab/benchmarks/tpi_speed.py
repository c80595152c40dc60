"""TPI runtime benchmark (``bench-tpi``): IC of every original document with N-TA and S-TA."""

import os
import platform
import tempfile
import time
from typing import Callable, Optional

import numpy as np

from textanon.risk.language_models import MaskedLM, minilm_path
from textanon_eval.corpus import Corpus, load_corpus, masks_of
from textanon_eval.provenance import write_metrics
from textanon_eval.tpi import InformationContent, build_passes, is_masked, tpi_corpus
from textanon_eval.utility import report_missing

PUBLISHED = {
    "source": "Manzanares-Salor et al. 2025 (TPI), 50 WikiActors abstracts, bert-base-uncased on a T4 GPU",
    "seconds": {"2-TA": 5, "6-TA": 12, "S-TA": 137},
    "finding": "TPI with 6-TA within 6 % of S-TA",
}


def _reset(model) -> None:
    cache = getattr(model, "_doc_cache", None)
    if cache is not None:
        cache.clear()


def _run(corpus: Corpus, model, alternation: str, n: int, ids, masks) -> dict:
    ic = InformationContent(model, alternation, n, cache_dir=None)
    t0 = time.perf_counter()
    ic.document_ic("Warm-up sentence. It loads the weights.")  # model load, excluded from the timing
    load_s = time.perf_counter() - t0
    _reset(ic.model)
    texts = [corpus.originals[d] for d in ids]
    t0 = time.perf_counter()
    docs = ic.many(texts, ids, progress=True, desc=f"IC {alternation if alternation == 's' else f'{n}-'}TA")
    seconds = time.perf_counter() - t0
    masked = is_masked(ic.model)
    passes = sum(len(build_passes(d.terms, alternation, n)) for d in docs) if masked else len(docs)
    sub = {m: {d: v for d, v in by_id.items() if d in set(ids)} for m, by_id in masks.items()}
    res = tpi_corpus(ic, corpus.originals, sub, progress=False)
    return {
        "model": ic.settings["model"],
        "alternation": ic.settings["alternation"],
        "requested": f"{n}-TA" if alternation == "n" else "S-TA",
        "documents": len(ids),
        "terms": int(sum(len(d.terms) for d in docs)),
        "passes": int(passes),
        "seconds": round(seconds, 2),
        "model_load_s": round(load_s, 2),
        "tpi": {m: round(v, 4) for m, v in res.mean().items()},
    }


def _random_bert_base(folder: str) -> str:
    """A randomly initialised BERT-base (bert-base-uncased sizes) with the MiniLM (BERT uncased) tokenizer."""
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    tokenizer = AutoTokenizer.from_pretrained(str(minilm_path()))
    torch.manual_seed(0)
    model = BertForMaskedLM(BertConfig(vocab_size=tokenizer.vocab_size))
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def _compare(a: dict, b: dict) -> dict:
    """Relative difference of a's TPI to b's, per method."""
    return {m: round(abs(a["tpi"][m] - b["tpi"][m]) / b["tpi"][m], 4) for m in a["tpi"] if b["tpi"].get(m)}


def bench_tpi(
    input_path,
    output,
    model=None,
    n: int = 6,
    limit: Optional[int] = None,
    random_bert_base: bool = False,
    bert_limit: Optional[int] = None,
    device: str = "cpu",
    warn: Callable[[str], None] = print,
) -> dict:
    """``bench-tpi``: load the corpus (``warn``: columns with missing anonymizations), :func:`bench`, write the
    result to ``output`` (JSON with provenance). Returns the result."""
    corpus = report_missing(load_corpus(input_path, limit), warn)
    result = bench(corpus, model, n, random_bert_base, bert_limit, str(input_path), device)
    write_metrics(output, result)
    return result


def bench(
    corpus: Corpus,
    model=None,
    n: int = 6,
    random_bert_base: bool = False,
    bert_limit: Optional[int] = None,
    path: str = "",
    device: str = "cpu",
) -> dict:
    """Time the IC of every original with N-TA and S-TA (and a random-weights BERT-base if asked).

    Returns the runs, their relative TPI differences, the published reference and the machine."""
    import torch

    ids = list(corpus.originals)
    masks = masks_of(corpus, progress=True)
    runs = [_run(corpus, model, "n", n, ids, masks), _run(corpus, model, "s", n, ids, masks)]
    notes = []
    main = runs[0]
    if not main["alternation"].endswith("TA"):
        notes.append(
            "The offline default LM is causal: each token is scored once given its left context, so N-TA and "
            "S-TA are the same computation (one pass per document); the two timings differ only by noise. "
            "No pretrained masked LM is available offline, so the published alternation comparison (BERT) "
            "cannot be reproduced here."
        )
    comparisons = {f"{runs[0]['requested']} vs {runs[1]['requested']} ({main['model']})": _compare(runs[0], runs[1])}
    if random_bert_base:
        with tempfile.TemporaryDirectory() as tmp:
            folder = _random_bert_base(tmp)

            bert = MaskedLM(folder, window=512, batch_size=8, device=device)
            sub = ids[:bert_limit] if bert_limit else ids
            bert_runs = [_run(corpus, bert, "n", n, sub, masks), _run(corpus, bert, "s", n, sub, masks)]
        for r in bert_runs:
            r["model"] = "masked: random-weights BERT-base (bert-base-uncased architecture, MiniLM uncased vocab)"
            r["tpi_note"] = "random weights: TPI values are meaningless, only the runtime is informative"
        runs += bert_runs
        notes.append(
            "The random-weights BERT-base runs measure the cost of the masked-LM alternations on this CPU "
            "(same architecture and vocabulary size as bert-base-uncased); their TPI values are meaningless."
        )
    return {
        "corpus": path,
        "runs": runs,
        "tpi_relative_difference": comparisons,
        "published_reference": PUBLISHED,
        "machine": {
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
            "torch_threads": torch.get_num_threads(),
            "device": device if random_bert_base else "cpu",
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        },
        "timing": "seconds = term segmentation (spaCy) + LM scoring of all documents, no IC cache, "
        "model already loaded",
        "notes": notes,
        "mean_terms_per_document": float(np.mean([r["terms"] / r["documents"] for r in runs[:1]])),
    }
