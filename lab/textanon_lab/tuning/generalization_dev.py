"""A development set for generalization (issue 17) that never reads the evaluated abstracts.

:func:`dev_set` turns ``n`` summary pseudo-abstracts of NON-evaluated actors (:mod:`textanon_lab.tuning.summaries`,
seeded sample as ``index tune``) into a WikiActors-format file the benchmark reads like the evaluated one:
``original_abstract`` = the pseudo-abstract, ``public_knowledge`` = the rest of the actor's body (what the
retrieval judges rank, as they rank the evaluated people's full bodies), no manual anonymization. Beside it, the
documents of the defender's index built like ``WikiActors_500_random_BK25.json``
(:func:`textanon_lab.tuning.search_settings.tuning_documents`: the first quarter of every body once its
pseudo-abstract is cut out, the evaluated actors' bodies as distractors), so no pseudo-abstract is found verbatim in
the index.
"""

import json
from pathlib import Path
from typing import Dict, List

from textanon_lab.tuning.sample import TuningSample
from textanon_lab.tuning.search_settings import dev_pool, tuning_documents


def dev_set(
    background_path: Path, exclude_path: Path, n: int = 50, seed: int = 0, share: float = 0.25
) -> Dict[str, List[dict]]:
    """``{"records": [WikiActors records], "index": [{"id", "text", "name"}]}`` (module docstring)."""
    pool = dev_pool(background_path, exclude_path, "summary")
    _, _, items = TuningSample(background_path, exclude_path, n or None, seed).draw(pool)
    records = [
        {"name": it["name"], "public_knowledge": it["body"], "original_abstract": it["abstract"]} for it in items
    ]
    return {"records": records, "index": tuning_documents(background_path, exclude_path, share, pool=pool)}


def write_dev_set(
    background_path: Path, exclude_path: Path, output: Path, n: int = 50, seed: int = 0, share: float = 0.25
) -> Dict[str, Path]:
    """Write :func:`dev_set` into the folder ``output``: ``dev.json`` (the records) and ``index.jsonl`` (the
    documents of the defender's index, for ``index build``). Returns both paths."""
    found = dev_set(background_path, exclude_path, n, seed, share)
    output.mkdir(parents=True, exist_ok=True)
    paths = {"records": output / "dev.json", "index": output / "index.jsonl"}
    paths["records"].write_text(json.dumps(found["records"], ensure_ascii=False) + "\n", encoding="utf-8")
    paths["index"].write_text(
        "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in found["index"]), encoding="utf-8"
    )
    return paths
