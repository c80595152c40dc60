"""Batch size (``bench-batch``): ``nlp.batch_size`` timed on development documents (docs/profiles.md, decision 7: the
rule chose 32; ``bench-speed`` then found it slower on long documents and with 2 processes on small corpora, which this
design cannot see — its long corpus fills no batch of 16 or 32 and it times one process —, so ``en_textanon`` keeps 8).

spaCy's trained components — the court NER, en_core_web_sm's tok2vec, tagger, parser and ner — process a batch of
documents at once (one matrix product over every token of the batch, the parser's steps over every document of it);
textanon's own components take one document at a time. So the batch size is timed on the trained components alone
(every component of the search profile before the recognizer: the most models any profile runs), in one warm process,
the sizes interleaved ``repeats`` times (the order rotating), medians.

Development documents only, none that ``bench-speed`` or ``profiles`` report on: the summary pseudo-abstracts of
actors who are not evaluated (``index dev-set``: short documents, as the evaluated abstracts) and slices of
:data:`LONG_CHARS` characters (the echr-dev court cases' average length) from the public bodies of other actors who
are not evaluated, starting at a paragraph a third into the body (long documents).

The rule, fixed before the run: the size with the highest geometric mean over the two corpora of documents per second
(:func:`choose`).
"""

import math
import random
import statistics
import time
from pathlib import Path
from typing import Dict, List, Sequence

from textanon.io.datasets.records import Record
from textanon.io.datasets.wikiactors import read_wikiactors
from textanon.profiles import SEARCH, load
from textanon.run.collector import settle
from textanon.run.runner import pipe_docs
from textanon_lab.benchmarks.speed import Docs, load_wikiactors
from textanon_lab.benchmarks.systems import WARM_UP

#: the batch sizes timed
SIZES = (4, 8, 16, 32)
#: the length of a long development document (the 27 echr-dev court cases: 163,598 characters)
LONG_CHARS = 6_000
SHORT, LONG = "dev pseudo-abstracts", "dev long documents"


def dev_corpora(dev: Path, background: Path, exclude: Path, n_long: int = 27, seed: int = 0) -> Dict[str, Docs]:
    """The two development corpora (module docstring): ``dev``'s pseudo-abstracts (``index dev-set``'s dev.json) and
    ``n_long`` slices of the bodies in ``background`` of actors neither in ``exclude`` (the evaluated) nor in ``dev``,
    drawn with ``seed``."""
    short = load_wikiactors(dev)
    taken = {r.name for r in read_wikiactors(exclude)} | {name for name, _, _ in short}
    bodies = sorted(
        (r.name, r.background)
        for r in read_wikiactors(background)
        if r.name not in taken and r.background and len(r.background) >= 2 * LONG_CHARS
    )
    long = [
        (name, long_slice(body), None) for name, body in random.Random(seed).sample(bodies, min(n_long, len(bodies)))
    ]
    return {SHORT: short, LONG: long}


def long_slice(body: str, chars: int = LONG_CHARS) -> str:
    """``chars`` characters of ``body`` from the first paragraph that starts a third into it (the body's start when
    none does)."""
    start = body.find("\n", len(body) // 3) + 1
    return body[start : start + chars] if start and len(body) - start >= chars // 2 else body[:chars]


def time_sizes(
    corpora: Dict[str, Docs], model: str, index: str, sizes: Sequence[int] = SIZES, repeats: int = 3
) -> Dict[str, Dict[str, List[float]]]:
    """Seconds of the search profile's trained components (over ``index``) on each corpus at each batch size:
    ``{str(size): {corpus: [seconds per repeat]}}``."""
    nlp = load(SEARCH, model, index)
    keep = nlp.pipe_names[: nlp.pipe_names.index("textanon_entity_recognizer")]
    records = {name: [Record(id=i, text=t, target=g) for i, t, g in docs] for name, docs in corpora.items()}
    out: Dict[str, Dict[str, List[float]]] = {str(s): {name: [] for name in corpora} for s in sizes}
    with nlp.select_pipes(enable=keep):
        list(pipe_docs(nlp, [WARM_UP]))
        settle()
        for r in range(repeats):
            for size in list(sizes[r % len(sizes) :]) + list(sizes[: r % len(sizes)]):  # the order rotates
                for name, recs in records.items():
                    t0 = time.perf_counter()
                    for _ in pipe_docs(nlp, recs, batch_size=size):
                        pass
                    out[str(size)][name].append(time.perf_counter() - t0)
    return out


def summarize(seconds: Dict[str, Dict[str, List[float]]], corpora: Dict[str, Docs]) -> List[dict]:
    """One row per size: docs/s per corpus (medians of the repeats) and their geometric mean."""
    rows = []
    for size, by_corpus in seconds.items():
        rates = {name: len(corpora[name]) / statistics.median(s) for name, s in by_corpus.items()}
        rows.append(
            {
                "batch_size": int(size),
                "docs_per_s": {name: round(v, 3) for name, v in rates.items()},
                "geometric_mean": round(math.exp(statistics.fmean(math.log(v) for v in rates.values())), 3),
            }
        )
    return rows


def choose(rows: List[dict]) -> dict:
    """The rule (module docstring): the highest geometric mean of docs/s; of equal ones, the smaller batch."""
    best = max(rows, key=lambda r: (r["geometric_mean"], -r["batch_size"]))
    return {"batch_size": best["batch_size"], "rule": "the highest geometric mean over the two corpora of docs/s"}


def bench_batch(dev: Path, background: Path, exclude: Path, model: str, index: str, repeats: int = 3) -> dict:
    """``bench-batch``: the corpora, the timings, the rows and the choice."""
    corpora = dev_corpora(dev, background, exclude)
    seconds = time_sizes(corpora, model, index, repeats=repeats)
    rows = summarize(seconds, corpora)
    return {
        "corpora": {
            name: {"documents": len(d), "characters": sum(len(t) for _, t, _ in d)} for name, d in corpora.items()
        },
        "timed": "the search profile's components before the recognizer (the trained models), one warm process",
        "repeats": repeats,
        "seconds": seconds,
        "rows": rows,
        "selected": choose(rows),
    }


def markdown(result: dict) -> str:
    names = list(result["corpora"])
    lines = [
        "| batch size | " + " | ".join(f"{n}: docs/s" for n in names) + " | geometric mean |",
        "|---|" + "---|" * (len(names) + 1),
    ]
    for r in result["rows"]:
        lines.append(
            f"| {r['batch_size']} | "
            + " | ".join(str(r["docs_per_s"][n]) for n in names)
            + f" | {r['geometric_mean']} |"
        )
    corpora = ", ".join(
        f"{n}: {c['documents']} documents, {c['characters']} characters" for n, c in result["corpora"].items()
    )
    lines += [
        "",
        f"Selected: **{result['selected']['batch_size']}** ({result['selected']['rule']}). Timed: {result['timed']}, "
        f"medians of {result['repeats']} interleaved repeats. Corpora: {corpora}.",
    ]
    return "\n".join(lines) + "\n"
