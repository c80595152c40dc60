"""``mask``: characters of the mention replaced by a masking character (``************1111``)."""

from typing import Optional

from textanon.render.operators.base import Mention, Operator, OperatorError


class Mask(Operator):
    """``chars_to_mask`` characters (all when None) replaced by ``masking_char``, from the start of the mention,
    or from its end when ``from_end``; every other character is kept as written."""

    name = "mask"

    def __init__(self, masking_char: str = "*", chars_to_mask: Optional[int] = None, from_end: bool = False):
        if len(masking_char) != 1:
            raise OperatorError(f"mask: masking_char must be one character, got {masking_char!r}")
        if chars_to_mask is not None and chars_to_mask < 0:
            raise OperatorError(f"mask: chars_to_mask must be 0 or more, got {chars_to_mask}")
        self.masking_char, self.chars_to_mask, self.from_end = masking_char, chars_to_mask, from_end

    def _count(self, text: str) -> int:
        """How many characters of ``text`` are masked."""
        return len(text) if self.chars_to_mask is None else min(self.chars_to_mask, len(text))

    def __call__(self, mention: Mention) -> str:
        text, n = mention.text, self._count(mention.text)
        if self.from_end:
            return text[: len(text) - n] + self.masking_char * n
        return self.masking_char * n + text[n:]

    def visible_characters(self, mention: Mention) -> int:
        return len(mention.text) - self._count(mention.text)

    def arguments(self) -> dict:
        return {"masking_char": self.masking_char, "chars_to_mask": self.chars_to_mask, "from_end": self.from_end}
