"""The development rows of the fast (generalizing), suppressing fast and search profiles, as users load them
(``textanon.profiles.load``), on the 50 dev pseudo-abstracts (``index dev-set``, seed 0) and their index: BM25 and
MiniLM judges over the remaining bodies, TPI (SmolLM2, word frequencies), masked share, fragment rate, adjacent
placeholders. Ad hoc (the before/after dev numbers of a readability rule, docs/generalization.md); first build the
dev set as ``spacy project run select-search-profile-round3`` does, then ``python docs/scripts/dev_profiles.py``
from the repository root. Prints one line per profile; writes nothing.
"""

from pathlib import Path

from textanon.profiles import load
from textanon_lab.benchmarks.harness import load_records
from textanon_lab.benchmarks.profile_rows import dev_rows

INDEX = "build/generalization_dev/index"

if __name__ == "__main__":
    records = load_records(Path("build/generalization_dev/dev.json"), None)
    runs = [
        ("fast (default, generalizing)", {}, lambda: load("fast")),
        ("fast, suppression", {}, lambda: load("fast", replacement="suppression")),
        ("search", {}, lambda: load("search", "en_textanon", INDEX)),
    ]
    rows, _ = dev_rows(records, runs)
    for r in rows:
        print(
            r["system"],
            r["bm25_reid"],
            r["dense_reid"],
            r.get("tpi_lm"),
            r["tpi"],
            r["masked_share"],
            r["fragment_rate"],
            r["adjacent_placeholders"],
            flush=True,
        )
