"""Pointing a loaded pipeline at a search index (``python -m textanon anonymize --index DIR``)."""

from pathlib import Path
from typing import Union

from spacy.language import Language

from .. import search_risk  # noqa: F401  (the factory, also without the package's entry points)
from . import registry  # noqa: F401  (textanon.LocalIndex.v1)
from .backends import open_index

COMPONENT = "textanon_search_risk"


def use_index(nlp: Language, path: Union[str, Path]) -> str:
    """Make ``nlp`` decide with the search risk over the index at ``path``; returns what was done.

    The index is opened first: a missing or incompatible one raises
    :class:`~textanon.search.base.IndexUnavailable` before any document is read. A pipeline that has the
    search risk gets the new index path (its other settings kept); otherwise the search risk, with its
    default settings, takes the place of ``textanon_lm_risk`` (no language model runs), or is added before
    ``textanon_optimizer``."""
    index = open_index(path)
    n_docs = index.n_docs
    source = {"@misc": "textanon.LocalIndex.v1", "path": str(path)}
    if COMPONENT in nlp.pipe_names:
        config = dict(nlp.get_pipe_config(COMPONENT), index=source)
        config.pop("factory", None)
        nlp.replace_pipe(COMPONENT, COMPONENT, config=config)
        return f"search risk over {path} ({n_docs} documents)"
    if "textanon_optimizer" not in nlp.pipe_names:
        raise ValueError("the pipeline has no textanon_optimizer: the search risk's decisions would not be applied")
    replaced = "textanon_lm_risk" in nlp.pipe_names
    if replaced:
        nlp.remove_pipe("textanon_lm_risk")
    nlp.add_pipe(COMPONENT, before="textanon_optimizer", config={"index": source})
    how = "in place of the language-model risk" if replaced else "added before the optimizer"
    return f"search risk over {path} ({n_docs} documents) {how}"
