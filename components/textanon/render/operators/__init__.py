"""Operators: how each masked entity is written (replace, redact, mask, hash, encrypt, pseudonym, generalize,
keep), one per module over :mod:`.base`, built by registered functions (:mod:`.registry`) and chosen per label by
the optimizer's ``operators`` setting (:mod:`.renderer`). See the README's operator table."""

from textanon.render.operators.base import Mention, Operator, OperatorError
from textanon.render.operators.encrypt import decrypt_text
from textanon.render.operators.registry import (
    DEFAULT,
    OPERATORS,
    build,
    operator_block,
    operators_from_specs,
    parse_spec,
)
from textanon.render.operators.renderer import Renderer

__all__ = [
    "DEFAULT",
    "OPERATORS",
    "Mention",
    "Operator",
    "OperatorError",
    "Renderer",
    "build",
    "decrypt_text",
    "operator_block",
    "operators_from_specs",
    "parse_spec",
]
