"""Measuring the embedded backends (``python -m textanon index bench``): build time, size on disk and
query latency, on the same documents and the same seeded queries.

Queries (each drawn from a random indexed document, so each has at least one hit):

* ``count``: a conjunctive phrase count — a two-word phrase and a word of the same document, both must
  occur (the population risk's question);
* ``bm25``: a ranked BM25 query, top 10 — the query words of a 600-character passage of the document
  (the targeted attacker's question);
* ``term_scores``: one word's BM25 score for 20 documents (the greedy masking loop's question).

Latencies are wall-clock per query, after one warm-up pass, reported as p50/p95 in milliseconds.

With a pipeline (``--pipeline``, one with ``textanon_search_risk``), the component itself is timed too: the
same documents, processed up to the component before it (untimed), then the search risk with each backend
(``risk_ms_per_doc``), and whether both backends take the same decisions (``same_decisions``).
"""

import random
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from textanon.io.datasets.records import Record
from textanon.pipes.search_risk import SearchRisk
from textanon.risk.search.backends import BACKENDS, open_index
from textanon.risk.search.builder import build_index, folder_bytes, read_documents
from textanon.risk.search.source import LocalIndex
from textanon.risk.search.terms import phrase_words, query_words
from textanon.run.runner import pipe_docs


def sample_queries(texts: Sequence[str], n: int, seed: int = 0) -> Dict[str, list]:
    """Seeded queries of the three kinds (see the module docstring)."""
    rng = random.Random(seed)
    counts, rankings, scores = [], [], []
    n_docs = len(texts)
    while len(counts) < n:
        words = phrase_words(rng.choice(texts))
        if len(words) < 10:
            continue
        i = rng.randrange(len(words) - 1)
        counts.append([" ".join(words[i : i + 2]), rng.choice(words)])
        j = rng.randrange(len(words))
        rankings.append(query_words(" ".join(words[j : j + 100])) or words[:5])
        scores.append((rng.choice(words), rng.sample(range(n_docs), min(20, n_docs))))
    return {"count": counts, "bm25": rankings, "term_scores": scores}


def _latencies(fn, queries) -> Dict[str, float]:
    for q in queries[: max(1, len(queries) // 10)]:  # warm-up
        fn(q)
    times = []
    for q in queries:
        t0 = time.perf_counter()
        fn(q)
        times.append((time.perf_counter() - t0) * 1000)
    return {
        "p50_ms": round(float(np.percentile(times, 50)), 3),
        "p95_ms": round(float(np.percentile(times, 95)), 3),
        "mean_ms": round(float(np.mean(times)), 3),
        "queries": len(times),
    }


def bench_backends(
    input_path: Path,
    backends: Sequence[str] = tuple(BACKENDS),
    n_queries: int = 300,
    seed: int = 0,
    work_dir: Optional[Path] = None,
    nlp=None,
    documents: Sequence[Tuple[str, str]] = (),
) -> dict:
    """Build an index of ``input_path`` with each backend and time the seeded queries on each; with ``nlp``,
    time its search risk on ``documents`` (``(text, target)``) with each backend too."""
    prepared = _prepare(nlp, documents) if nlp is not None else []
    texts = [t for _, t, _ in read_documents(input_path) if t]
    queries = sample_queries(texts, n_queries, seed)
    rows: List[dict] = []
    with tempfile.TemporaryDirectory(dir=work_dir) as tmp:
        for backend in backends:
            folder = Path(tmp) / backend
            t0 = time.perf_counter()
            meta = build_index(input_path, folder, backend=backend, progress=False)
            build_s = time.perf_counter() - t0
            index = open_index(folder)
            rows.append(
                {
                    "backend": backend,
                    "documents": meta["documents"],
                    "build_s": round(build_s, 3),
                    "index_bytes": folder_bytes(folder),
                    "index_mb": round(folder_bytes(folder) / 2**20, 2),
                    "count": _latencies(index.count, queries["count"]),
                    "bm25": _latencies(lambda q: index.search(q, 10), queries["bm25"]),
                    "term_scores": _latencies(lambda q: index.term_scores(*q), queries["term_scores"]),
                    "agreement_count_hits": [index.count(q) for q in queries["count"][:20]],
                }
            )
            if prepared:
                rows[-1].update(_time_component(nlp, folder, prepared))
            index.close()
    same_counts = all(r["agreement_count_hits"] == rows[0]["agreement_count_hits"] for r in rows)
    same_decisions = all(r.get("decisions") == rows[0].get("decisions") for r in rows) if prepared else None
    for r in rows:
        r.pop("agreement_count_hits")
        r.pop("decisions", None)
    return {
        "data": str(input_path),
        "documents": len(texts),
        "seed": seed,
        "queries_per_kind": n_queries,
        "count_answers_agree": same_counts,
        "risk_documents": len(prepared),
        "same_decisions": same_decisions,
        "backends": rows,
        "method": __doc__.split("\n\n", 1)[1].strip(),
    }


def _prepare(nlp, documents: Sequence[Tuple[str, str]]) -> list:
    """The documents processed up to the search risk (not timed)."""
    names = nlp.pipe_names
    before = names[: names.index("textanon_search_risk")]
    records = [Record(id=str(i), text=text, target=target) for i, (text, target) in enumerate(documents)]
    with nlp.select_pipes(enable=before):
        return list(pipe_docs(nlp, records, batch_size=1))


def _time_component(nlp, folder: Path, prepared: list) -> dict:
    """The pipeline's search risk pointed at ``folder``: ms per document, and its decisions."""
    cfg = {k: v for k, v in nlp.get_pipe("textanon_search_risk")._cfg().items() if k != "index"}
    risk = SearchRisk(LocalIndex(folder), **cfg)
    risk(prepared[0].copy())  # opens the index
    times, decisions = [], []
    for doc in prepared:
        doc = doc.copy()
        t0 = time.perf_counter()
        risk(doc)
        times.append((time.perf_counter() - t0) * 1000)
        decisions.append(sorted(map(sorted, doc._.risky_combinations or [])))
    return {
        "risk_ms_per_doc": {
            "p50_ms": round(float(np.percentile(times, 50)), 3),
            "p95_ms": round(float(np.percentile(times, 95)), 3),
            "mean_ms": round(float(np.mean(times)), 3),
        },
        "decisions": decisions,
    }


def markdown(result: dict) -> str:
    """A table of the measurement."""
    timed = any("risk_ms_per_doc" in r for r in result["backends"])
    lines = [
        "| backend | build s | size MB | count p50/p95 ms | BM25 top-10 p50/p95 ms | term scores p50/p95 ms |"
        + (" search risk ms/doc p50/p95 |" if timed else ""),
        "|---|---|---|---|---|---|" + ("---|" if timed else ""),
    ]
    for r in result["backends"]:
        cells = [f"{r[k]['p50_ms']} / {r[k]['p95_ms']}" for k in ("count", "bm25", "term_scores")]
        if "risk_ms_per_doc" in r:
            cells.append(f"{r['risk_ms_per_doc']['p50_ms']} / {r['risk_ms_per_doc']['p95_ms']}")
        lines.append(f"| {r['backend']} | {r['build_s']} | {r['index_mb']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
