"""Measuring the embedded backends (``python -m textanon index bench``): build time, size on disk and
query latency, on the same documents and the same seeded queries.

Queries (each drawn from a random indexed document, so each has at least one hit):

* ``count``: a conjunctive phrase count — a two-word phrase and a word of the same document, both must
  occur (the population risk's question);
* ``bm25``: a ranked BM25 query, top 10 — the query words of a 600-character passage of the document
  (the targeted attacker's question);
* ``term_scores``: one word's BM25 score for 20 documents (the greedy masking loop's question).

Latencies are wall-clock per query, after one warm-up pass, reported as p50/p95 in milliseconds.
"""
import random
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np

from .backends import BACKENDS, open_index
from .builder import build_index, folder_bytes, read_documents
from .terms import phrase_words, query_words


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
    return {"p50_ms": round(float(np.percentile(times, 50)), 3), "p95_ms": round(float(np.percentile(times, 95)), 3),
            "mean_ms": round(float(np.mean(times)), 3), "queries": len(times)}


def bench_backends(input_path: Path, backends: Sequence[str] = tuple(BACKENDS), n_queries: int = 300,
                   seed: int = 0, work_dir: Optional[Path] = None) -> dict:
    """Build an index of ``input_path`` with each backend and time the seeded queries on each."""
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
            rows.append({
                "backend": backend,
                "documents": meta["documents"],
                "build_s": round(build_s, 3),
                "index_bytes": folder_bytes(folder),
                "index_mb": round(folder_bytes(folder) / 2**20, 2),
                "count": _latencies(index.count, queries["count"]),
                "bm25": _latencies(lambda q: index.search(q, 10), queries["bm25"]),
                "term_scores": _latencies(lambda q: index.term_scores(*q), queries["term_scores"]),
                "agreement_count_hits": [index.count(q) for q in queries["count"][:20]],
            })
            index.close()
    same_counts = all(r["agreement_count_hits"] == rows[0]["agreement_count_hits"] for r in rows)
    for r in rows:
        r.pop("agreement_count_hits")
    return {"data": str(input_path), "documents": len(texts), "seed": seed, "queries_per_kind": n_queries,
            "count_answers_agree": same_counts, "backends": rows,
            "method": __doc__.split("\n\n", 1)[1].strip()}


def markdown(result: dict) -> str:
    """A table of the measurement."""
    lines = ["| backend | build s | size MB | count p50/p95 ms | BM25 top-10 p50/p95 ms | term scores p50/p95 ms |",
             "|---|---|---|---|---|---|"]
    for r in result["backends"]:
        cells = [f"{r[k]['p50_ms']} / {r[k]['p95_ms']}" for k in ("count", "bm25", "term_scores")]
        lines.append(f"| {r['backend']} | {r['build_s']} | {r['index_mb']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
