"""The operator contract: how one masked mention is written in the anonymized text.

The optimizer decides *what* is masked; an operator decides *how* a masked mention is replaced (Presidio's
operators, spaCy-style: each is built by a registered function, :mod:`textanon.render.operators.registry`). An operator
is called once per masked mention with a :class:`Mention` and returns the string written in its place, or
``None`` to leave the mention as it is (``keep``).
"""

from dataclasses import dataclass
from typing import Any, Dict, Optional


class OperatorError(ValueError):
    """An operator that cannot be built or applied (unknown name, bad argument, missing key)."""


@dataclass(frozen=True)
class Mention:
    """One masked mention and its context, as an operator sees it.

    text: the mention as written; label: its TAB label; entity_id: the id its entity's mentions share;
    entity_text: the entity's canonical form (its longest mention, whitespace collapsed), the same for every
    mention of the entity; start/end: character offsets in the document; doc_text: the document's text;
    generalization: the truthful generalization the optimizer chose for the entity (``replacement =
    "generalize"``), else None; pseudonyms: the optimizer's pseudonymizer, where it has one; protected: a mention
    of the protected person or a direct identifier (never shown whole); protected_name: the protected person's name
    or an entity that holds it (never shown, not even in part); plain_words: every mention of the entity is a phrase
    of ordinary words the search risk proposed (a verb, a common noun: "lodged"), which has no type a surrogate could
    keep (:func:`untyped`); suppression: the optimizer's suppression string."""

    text: str
    label: str
    entity_id: str
    entity_text: str
    start: int = 0
    end: int = 0
    doc_text: str = ""
    generalization: Optional[str] = None
    pseudonyms: Any = None
    protected: bool = False
    protected_name: bool = False
    plain_words: bool = False
    suppression: str = "***"


def untyped(text: str, plain_words: bool, doc_text: str = "", start: int = 0) -> bool:
    """Whether a mention is a phrase of ordinary words with no type (``plain_words``, not capitalized as a name-like
    phrase is): a surrogate of the same kind cannot exist, so pseudonyms suppress it instead of writing a random
    term ("the pneumonia" for "lodged"). A capital that only opens a sentence or a field (``doc_text`` before
    ``start``: nothing, ".", "!", "?", ":", ";" or a line break) makes no name of it ("Witness statement of", "Pt is
    a" became town names)."""
    if not plain_words:
        return False
    words = text.split()
    capitals = [w[:1].isupper() for w in words]
    if capitals and _opens_sentence(doc_text, start):
        capitals[0] = False
    return not any(capitals)


def _opens_sentence(text: str, start: int) -> bool:
    before = text[max(0, start - 40) : start]
    stripped = before.rstrip()
    return not stripped or stripped[-1] in ".!?:;" or "\n" in before[len(stripped) :]


class Operator:
    """Base of every operator: ``name`` (what output records name), ``reversible`` (``deanonymize`` can undo it
    with the key) and :meth:`__call__`. Subclasses take their arguments as keyword arguments of the registered
    function that builds them; :meth:`describe` returns them (never a key) for ``cfg.json`` and the docs."""

    name = "operator"
    reversible = False

    def __call__(self, mention: Mention) -> Optional[str]:  # pragma: no cover - the contract
        raise NotImplementedError

    def visible_characters(self, mention: Mention) -> int:
        """How many characters of the mention this operator leaves as written (0: none; ``keep``: all)."""
        return 0

    def arguments(self) -> Dict[str, Any]:
        """The operator's arguments (no secret), as given to its registered function."""
        return {}

    def describe(self) -> Dict[str, Any]:
        """``{"operator": name, **arguments}``: what ``cfg.json`` records of this operator."""
        return {"operator": self.name, **self.arguments()}

    def warnings(self) -> list:
        """What a run must be told about this operator (e.g. a random key that cannot be reproduced)."""
        return []
