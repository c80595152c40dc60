"""Every output of the fast, generalizing fast and search profiles (``textanon.profiles.load``; the search profile over
``corpus/index_bk25``) on the 50 dev pseudo-abstracts, the 50 evaluated abstracts (target known) and the 27 echr-dev
cases (no target): anonymized text, masks, warnings and each span's treatment, to a JSON file. Ad hoc: two such files
compared byte for byte (``cmp``) show that a change leaves every output as it was, without reading the evaluated ones.
``python docs/scripts/profile_outputs.py OUT.json`` from the repository root.
"""

import json
import sys
from pathlib import Path

from textanon.io.datasets.records import Record
from textanon.profiles import load
from textanon.run.runner import pipe_docs
from textanon_lab.benchmarks.speed import load_echr

if __name__ == "__main__":
    output = Path(sys.argv[1])
    if output.exists():  # never overwrite a result
        sys.exit(f"{output} exists: give a new output path")
    dev = json.loads(Path("build/generalization_dev/dev.json").read_text(encoding="utf8"))
    evaluated = json.loads(Path("../shared/data/wikiactors/WikiActors_50_eval.json").read_text(encoding="utf8"))
    cases = load_echr(Path("../shared/data/echr-dev/echr_dev_entities.json"))
    out = {}
    for name, replacement in (("fast", None), ("fast", "generalize"), ("search", None)):
        nlp = load(name, replacement=replacement, index="corpus/index_bk25" if name == "search" else None)
        docs = [
            Record(id=f"d{i}", text=r["original_abstract"], target=r["name"].split(" (")[0]) for i, r in enumerate(dev)
        ]
        docs += [
            Record(id=f"e{i}", text=r["original_abstract"], target=r["name"].split(" (")[0])
            for i, r in enumerate(evaluated)
        ]
        docs += [Record(id=f"c{i}", text=c[1] if isinstance(c, tuple) else c.text) for i, c in enumerate(cases)]
        out[f"{name}-{replacement}"] = [
            [
                d._.anonymized_text,
                d._.masks,
                d._.anonymization_warnings,
                [(s.start_char, s.end_char, s.label_, s._.treatment, s._.entity_id) for s in d.spans.get("pii", [])],
            ]
            for d in pipe_docs(nlp, docs)
        ]
    output.write_text(json.dumps(out), encoding="utf8")
    print({k: len(v) for k, v in out.items()})
