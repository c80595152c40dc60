"""``keep``: the mention stays as written (never for the protected person or a direct identifier)."""

from typing import Optional

from textanon.render.operators.base import Mention, Operator


class Keep(Operator):
    """Returns None: no mask. The renderer refuses it for a protected mention (see :mod:`.renderer`)."""

    name = "keep"

    def __call__(self, mention: Mention) -> Optional[str]:
        return None

    def visible_characters(self, mention: Mention) -> int:
        return len(mention.text)
