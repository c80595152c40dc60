"""Score benchmark systems dumped by ``old_systems.py`` with today's measures: word-frequency TPI (role words not
credited), the BM25 and MiniLM judges, TRIR with the cached attacks of seeds 42, 1 and 2, the readability columns.
``python docs/scripts/rescore_systems.py old_systems.json rescored.json`` from the repository root. Ad hoc; see
docs/generalization.md.
"""

import json
import sys
from pathlib import Path

from textanon_lab.benchmarks.benchmark_settings import ScoreSettings
from textanon_lab.benchmarks.harness import fluency_texts, give_target_knowledge, load_records, score
from textanon_lab.benchmarks.judges import add_judge_columns

if __name__ == "__main__":
    source, output = Path(sys.argv[1]), Path(sys.argv[2])
    if output.exists():  # never overwrite a result, nor the systems read here
        sys.exit(f"{output} exists: give a new output path")
    data = Path("../shared/data/wikiactors/WikiActors_50_eval.json")
    records = load_records(data)
    systems = json.loads(source.read_text(encoding="utf8"))
    systems = {k + " [49b626f output]": v for k, v in systems.items()}
    give_target_knowledge(records, systems)
    fluency = fluency_texts(Path("../shared/data/wikiactors/WikiActors_500_random.json"), records)
    rows = score(records, systems, ScoreSettings(trir_seeds=(42, 1, 2), tpi_lm=False), fluency_corpus=fluency)
    add_judge_columns(records, systems, rows)  # the judges' columns, into rows
    keys = (
        "system",
        "trir",
        "trir_sd",
        "tpi",
        "masked_share",
        "fragment_rate",
        "adjacent_placeholders",
        "fluency_ratio",
        "generalized_share",
    )
    for r in rows:
        print({k: r.get(k) for k in keys}, {k: v for k, v in r.items() if "judge" in k})
    output.write_text(json.dumps(rows, indent=1), encoding="utf8")
