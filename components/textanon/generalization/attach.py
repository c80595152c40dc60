"""Turning generalization on in a loaded pipeline (``textanon anonymize --replacement generalize``)."""

from spacy.language import Language

from . import component  # noqa: F401  (the textanon_generalizer factory, also without the entry points)

COMPONENT = "textanon_generalizer"


def use_generalizer(nlp: Language) -> None:
    """Add ``textanon_generalizer`` right before ``textanon_optimizer`` (its candidates are what the optimizer's
    ``replacement = "generalize"`` chooses among; without them it could only suppress). A pipeline that has it
    is left as it is (a disabled one is enabled). Raises ValueError for a pipeline without the optimizer."""
    if "textanon_optimizer" not in nlp.pipe_names:
        raise ValueError("the pipeline has no textanon_optimizer")
    if COMPONENT in nlp.disabled:  # a profile that leaves it off (textanon.profiles)
        nlp.enable_pipe(COMPONENT)
    elif COMPONENT not in nlp.pipe_names:
        nlp.add_pipe(COMPONENT, before="textanon_optimizer")
