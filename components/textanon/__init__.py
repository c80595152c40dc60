"""textanon: risk-aware anonymization of English text as spaCy pipeline components.

The public API (see README, "From Python"):

* :func:`anonymize_records` — run a pipeline over records (:func:`read_records` reads .txt/.jsonl/.json):
  one output or error record per input record, in input order, fail closed per document;
* :func:`pipe_records` — the same run, yielding the processed Docs;
* :func:`redecide` — re-decide scored Docs at another risk threshold without running the models again;
* :func:`profile` — the ``spacy.load`` config overrides of a named profile (``fast``, ``lm``, ``search``),
  :func:`load` — ``spacy.load`` with them (:mod:`textanon.profiles`).
"""

from textanon.about import __version__
from textanon.extensions import DEFAULT_SPANS_KEY, register_extensions
from textanon.io.datasets.records import read_records
from textanon.labels import TAB_LABELS
from textanon.llm.prompts import prompt_names
from textanon.profiles import PROFILES, profile
from textanon.profiles import load as load
from textanon.run.runner import anonymize_records, pipe_records, redecide

register_extensions()


def llm_prompt_names():
    """Names of the LLM prompt designs (imported lazily: no spacy_llm/torch import here)."""
    return prompt_names()


__all__ = [
    "__version__",
    "TAB_LABELS",
    "DEFAULT_SPANS_KEY",
    "register_extensions",
    "llm_prompt_names",
    "anonymize_records",
    "pipe_records",
    "read_records",
    "redecide",
    "PROFILES",
    "profile",
    "load",
]
