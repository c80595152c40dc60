"""Ad hoc (session 61): seconds of each entity model's features (model.predict) and of greedy_parse (features +
spaCy's transition loop) on the 27 echr-dev cases, batches of 8, two passes; writes nothing.
``OPENBLAS_NUM_THREADS=1 python docs/scripts/entity_model_seconds.py``."""

import time
from pathlib import Path
from textanon.profiles import load
from textanon_lab.benchmarks.speed import load_echr

cases = load_echr(Path("../shared/data/echr-dev/echr_dev_entities.json"))
cases = [(c[1] if isinstance(c, tuple) else c.text) for c in cases]
nlp = load("fast", replacement="generalize")
list(nlp.pipe(["A short warm-up text about John Smith, born 1960 in Paris."]))
from spacy.util import minibatch

for name in ("ner", "textanon_ner"):
    ner = nlp.get_pipe(name)
    for rep in range(2):
        docs = [nlp.make_doc(t) for t in cases]
        tp = tg = 0
        for batch in minibatch(docs, 8):
            t = time.perf_counter()
            m = ner.model.predict(batch)
            tp += time.perf_counter() - t
            t = time.perf_counter()
            ner.greedy_parse(batch)
            tg += time.perf_counter() - t
        print(name, "predict (features)", round(tp, 3), "greedy_parse (incl. predict)", round(tg, 3))
    print(ner.model.get_ref("lower").get_dim("nO") if ner.model.has_ref("lower") else "", ner.moves.n_moves)
