"""Ad hoc (session 61, decision 11): the generalizing fast profile at n_docs N (20000 shipped before, 5000 after) in a
fresh process, as bench-speed (load, one warm-up document, the abstracts, then the cases), two passes; prints seconds,
writes nothing. ``OPENBLAS_NUM_THREADS=1 python docs/scripts/generalizing_population_speed.py N``, interleaving N."""

import json, sys, time
from pathlib import Path
from textanon.profiles import load
from textanon.run.collector import settle
from textanon_lab.benchmarks.systems import WARM_UP
from textanon_lab.benchmarks.speed import load_echr

records = json.loads(Path("../shared/data/wikiactors/WikiActors_50_eval.json").read_text(encoding="utf8"))
abstracts = [(r["original_abstract"], r["name"].split(" (")[0]) for r in records]
cases = [(c[1], None) for c in load_echr(Path("../shared/data/echr-dev/echr_dev_entities.json"))]
n = int(sys.argv[1])
nlp = load("fast", replacement="generalize", config={"components.textanon_search_risk.index.n_docs": n})
settle()
d = nlp.make_doc(WARM_UP.text)
d._.target = WARM_UP.target
nlp(d)
for name, corpus in (("abstracts", abstracts), ("cases", cases), ("abstracts", abstracts), ("cases", cases)):
    t0 = time.perf_counter()
    docs = [nlp.make_doc(x) for x, _ in corpus]
    for dd, (_, g) in zip(docs, corpus):
        dd._.target = g
    list(nlp.pipe(docs, batch_size=8))
    print(n, name, round(time.perf_counter() - t0, 2), flush=True)
