"""``redact``: the mention is removed (nothing written in its place)."""

from textanon.render.operators.base import Mention, Operator


class Redact(Operator):
    """Writes the empty string."""

    name = "redact"

    def __call__(self, mention: Mention) -> str:
        return ""
