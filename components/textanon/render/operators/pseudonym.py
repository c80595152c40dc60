"""``pseudonym``: a realistic surrogate of the same type (:mod:`textanon.render.pseudonyms`), keyed by the user's
secret."""

from pathlib import Path
from typing import Optional, Union

from textanon.render.operators.base import Mention, Operator, OperatorError, untyped
from textanon.render.pseudonyms import RANDOM_KEY_WARNING, Pseudonymizer, read_key


class Pseudonym(Operator):
    """The optimizer's pseudonymizer (one per pipeline, keyed by its ``pseudonym_key``: the same entity gets the same
    surrogate in a document, or a corpus in corpus scope); a pseudonymizer of its own where the optimizer has none,
    keyed by ``key_file`` or ``$TEXTANON_MAPPING_KEY`` (else a random key: :meth:`warnings` says its surrogates
    cannot be reproduced). ``seed``: public, mixed with the key (never a secret on its own)."""

    name = "pseudonym"

    def __init__(self, seed: int = 0, key_file: Optional[Union[str, Path]] = None):
        self.seed, self.key_file = seed, key_file
        try:
            self._own = Pseudonymizer(seed, "document", key=read_key(str(key_file) if key_file else None))
        except ValueError as err:
            raise OperatorError(f"pseudonym: {err}") from None

    def __call__(self, mention: Mention) -> str:
        # no surrogate of the same kind: suppressed
        if untyped(mention.text, mention.plain_words, mention.doc_text, mention.start):
            return mention.suppression
        pseudonyms = mention.pseudonyms or self._own
        return pseudonyms(
            mention.label, mention.text, fallback=f"[{mention.entity_id}]", entity=mention.entity_text or None
        )

    def start_document(self, text: str, person_names) -> None:
        """Read the document's words (never used as surrogates) when this operator holds its own pseudonymizer."""
        self._own.start_document(text, person_names)

    def arguments(self) -> dict:
        return {"seed": self.seed}

    def warnings(self) -> list:
        """None: the optimizer's pseudonymizer writes the mentions and the optimizer records a random key itself."""
        return []

    @property
    def random_key(self) -> bool:
        """Whether this operator's own surrogates come from a random key (:data:`RANDOM_KEY_WARNING`)."""
        return self._own.random_key


__all__ = ["Pseudonym", "RANDOM_KEY_WARNING"]
