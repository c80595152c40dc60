"""``replace``: a custom text, the label (``[PERSON]``) or the numbered entity (``[PERSON_2]``)."""

from typing import Optional

from textanon.render.operators.base import Mention, Operator, OperatorError

STYLES = ("label", "numbered")


class Replace(Operator):
    """``new_value`` when given (``{label}`` in it becomes the label), else the ``style`` string."""

    name = "replace"

    def __init__(self, new_value: Optional[str] = None, style: str = "label"):
        if style not in STYLES:
            raise OperatorError(f"replace: style must be one of {', '.join(STYLES)}, got {style!r}")
        self.new_value, self.style = new_value, style

    def __call__(self, mention: Mention) -> str:
        if self.new_value is not None:
            return self.new_value.replace("{label}", mention.label)
        return f"[{mention.entity_id}]" if self.style == "numbered" else f"[{mention.label}]"

    def arguments(self) -> dict:
        return {"new_value": self.new_value, "style": self.style}
