"""TRIR: text re-identification attack (Manzanares-Salor, Sánchez & Lison) as a privacy metric.

A transformer classifier is trained on public background knowledge (BD ∪ its NER-anonymized BD′) to
predict which individual a text is about; TRIR(method) is the share of that method's anonymized
documents it re-identifies.
"""

from textanon_eval.trir.attack import TrirSettings, default_cache_dir, run_trir
from textanon_eval.trir.data import (
    TrirError,
    TrirInputs,
    load_anonymized,
    load_background,
    load_dict,
    load_inputs,
    load_wikiactors,
)

__all__ = [
    "TrirError",
    "TrirInputs",
    "TrirSettings",
    "default_cache_dir",
    "load_anonymized",
    "load_background",
    "load_dict",
    "load_inputs",
    "load_wikiactors",
    "run_trir",
]
