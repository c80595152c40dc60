"""``pseudonym``: a realistic surrogate of the same type (:mod:`textanon.pseudonyms`)."""

from ..pseudonyms import Pseudonymizer
from .base import Mention, Operator


class Pseudonym(Operator):
    """The optimizer's pseudonymizer (one per pipeline: the same original gets the same surrogate in a document,
    or a corpus in corpus scope); a pseudonymizer of its own (``seed``) where the optimizer has none."""

    name = "pseudonym"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._own = Pseudonymizer(seed, "document")

    def __call__(self, mention: Mention) -> str:
        pseudonyms = mention.pseudonyms or self._own
        return pseudonyms(mention.label, mention.text, fallback=f"[{mention.entity_id}]")

    def start_document(self, text: str, person_names) -> None:
        """Read the document's words (never used as surrogates) when this operator holds its own pseudonymizer."""
        self._own.start_document(text, person_names)

    def arguments(self) -> dict:
        return {"seed": self.seed}
