"""Seconds per component of the fast profile (``--replacement generalize`` by default; pass ``suppression`` for the
default) on the 27 echr-dev cases (no target) and the 50 evaluated abstracts (target known), two passes each, in one
warm process after ``textanon.run.collector.settle()`` and one warm-up document. Ad hoc (where the generalizing
profile's time goes, docs/profiles.md); not a speed measure against Presidio (that is ``spacy project run
bench-speed``). ``OPENBLAS_NUM_THREADS=1 python docs/scripts/component_seconds.py [REPLACEMENT]`` from the repository
root; prints one line per pass, writes nothing.
"""

import json
import sys
import time
from pathlib import Path

from textanon.profiles import load
from textanon.run.collector import settle
from textanon_lab.benchmarks.speed import load_echr

if __name__ == "__main__":
    cases = load_echr(Path("../shared/data/echr-dev/echr_dev_entities.json"))
    cases = [(c[1] if isinstance(c, tuple) else c.text, None) for c in cases]
    records = json.loads(Path("../shared/data/wikiactors/WikiActors_50_eval.json").read_text(encoding="utf8"))
    abstracts = [(r["original_abstract"], r["name"].split(" (")[0]) for r in records]
    nlp = load("fast", replacement=sys.argv[1] if len(sys.argv) > 1 else "generalize")
    settle()
    list(nlp.pipe(["A short warm-up text about John Smith, born 1960 in Paris."]))
    for name, corpus in (("cases", cases), ("abstracts", abstracts)):
        for repeat in range(2):
            seconds = {}
            t0 = time.perf_counter()
            docs = [nlp.make_doc(text) for text, _ in corpus]
            for doc, (_, target) in zip(docs, corpus):
                doc._.target = target
            for pipe_name, proc in nlp.pipeline:
                t = time.perf_counter()
                docs = list(proc.pipe(docs, batch_size=8)) if hasattr(proc, "pipe") else [proc(d) for d in docs]
                seconds[pipe_name] = round(time.perf_counter() - t, 3)
            print(name, repeat, round(time.perf_counter() - t0, 2), seconds, flush=True)
