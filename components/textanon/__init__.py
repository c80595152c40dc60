"""textanon: risk-aware anonymization of English text as spaCy pipeline components."""

from .about import __version__
from .extensions import register_extensions
from .labels import TAB_LABELS

register_extensions()


def llm_prompt_names():
    """Names of the LLM prompt designs (imported lazily: no spacy_llm/torch import here)."""
    from .llm_anonymizer.prompts import prompt_names

    return prompt_names()


__all__ = ["__version__", "TAB_LABELS", "register_extensions", "llm_prompt_names"]
