"""``generalize``: the truthful generalization the optimizer chose, else the suppression string."""

from textanon.render.operators.base import Mention, Operator


class Generalize(Operator):
    """Writes the entity's generalization (``replacement = "generalize"`` and the ``textanon_generalizer``
    decide it: "Bucharest" -> "a city"); an entity the optimizer suppressed gets ``suppression``."""

    name = "generalize"

    def __init__(self, suppression: str = "***"):
        self.suppression = suppression

    def __call__(self, mention: Mention) -> str:
        return mention.generalization if mention.generalization is not None else self.suppression

    def arguments(self) -> dict:
        return {"suppression": self.suppression}
