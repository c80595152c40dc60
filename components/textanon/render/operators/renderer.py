"""Which operator renders a masked mention: the ``operators`` setting of the optimizer (label -> operator,
``default`` for the rest), applied after the decision. Privacy first: an operator that would show a direct
identifier or the protected person's name whole (``keep``), or the protected name even in part (a partial
``mask``: "***rescu"), is refused for that mention: it is replaced by its label, and the Doc says so. A partial
mask of a code stays the user's choice (``************1111``)."""

from typing import Callable, Dict, List, Optional, Tuple

from textanon.render.operators.base import Mention, Operator, OperatorError
from textanon.render.operators.registry import DEFAULT
from textanon.render.operators.replace import Replace

REFUSED = "operator {operator} refused for a {what} ({label}): replaced by its label"


class Renderer:
    """``operators``: label -> :class:`Operator` (``"default"``: every other label). Empty: every mention is
    written by the optimizer's ``replacement`` style, as without operators."""

    def __init__(self, operators: Optional[Dict[str, Operator]] = None):
        operators = dict(operators or {})
        for label, operator in operators.items():
            if not isinstance(operator, Operator):
                raise OperatorError(f"operators.{label}: {operator!r} is not a textanon operator")
        self.default = operators.pop(DEFAULT, None)
        self.operators = operators
        self._label = Replace()

    def __bool__(self) -> bool:
        return bool(self.operators) or self.default is not None

    def operator_for(self, label: str) -> Optional[Operator]:
        """The operator configured for ``label`` (else the default one; None: the replacement style)."""
        return self.operators.get(label, self.default)

    def render(
        self, mention: Mention, style: Callable[[], str], warnings: List[str], style_name: Optional[str] = None
    ) -> Tuple[Optional[str], Optional[str]]:
        """(what replaces ``mention`` — None keeps it —, the name of the operator that wrote it). A label without an
        operator is written by ``style`` (the optimizer's replacement style), named ``style_name``. A refused
        operator appends to ``warnings`` (module docstring)."""
        operator = self.operator_for(mention.label)
        if operator is None:
            return style(), style_name
        visible = operator.visible_characters(mention) if mention.protected else 0
        if visible and (visible >= len(mention.text) or mention.protected_name):
            what = "protected name" if mention.protected_name or mention.label == "PERSON" else "direct identifier"
            message = REFUSED.format(operator=operator.name, what=what, label=mention.label)
            if message not in warnings:
                warnings.append(message)
            return self._label(mention), self._label.name
        return operator(mention), operator.name

    def all(self) -> List[Operator]:
        """Every configured operator (the default one last)."""
        return [*self.operators.values(), *([self.default] if self.default is not None else [])]

    def describe(self) -> Dict[str, dict]:
        """``{label: operator.describe()}`` (no secret): what ``cfg.json`` records."""
        out = {label: op.describe() for label, op in self.operators.items()}
        if self.default is not None:
            out[DEFAULT] = self.default.describe()
        return out

    def warnings(self) -> List[str]:
        """The operators' own warnings (e.g. a random hash key), once each."""
        seen: List[str] = []
        for op in self.all():
            for w in op.warnings():
                if w not in seen:
                    seen.append(w)
        return seen
