"""``encrypt``: the mention encrypted with the user's key, reversible by ``textanon deanonymize`` with that key.

AES-SIV (deterministic authenticated encryption, ``cryptography``): the same text gets the same token, so the
mentions of one entity stay linkable, and a changed token or a wrong key fails authentication instead of giving
wrong text. The token is written ``[enc:<base64url>]``; :func:`decrypt_text` restores every token of a text.
"""

import base64
import re
from pathlib import Path
from typing import Optional, Union

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESSIV

from textanon.render.operators.base import Mention, Operator, OperatorError
from textanon.render.operators.keys import derive, user_key

ASSOCIATED = b"textanon-encrypt-v1"
TOKEN = re.compile(r"\[enc:([A-Za-z0-9_-]+)\]")


def _cipher(key: str):
    return AESSIV(derive(key, "encrypt") + derive(key, "encrypt-siv"))  # AES-SIV takes a 64-byte key (AES-256)


class Encrypt(Operator):
    """``[enc:...]`` in place of the mention. Needs a key (``key_file`` or ``$TEXTANON_MAPPING_KEY``): a run
    without one is refused, since nobody could decrypt its output."""

    name = "encrypt"
    reversible = True

    def __init__(self, key_file: Optional[Union[str, Path]] = None):
        self.key_file = key_file
        self._cipher = _cipher(user_key(key_file, required=True))

    def __call__(self, mention: Mention) -> str:
        token = self._cipher.encrypt(mention.text.encode("utf-8"), [ASSOCIATED])
        return "[enc:" + base64.urlsafe_b64encode(token).decode("ascii").rstrip("=") + "]"


def decrypt_text(text: str, key: str) -> str:
    """``text`` with every ``[enc:...]`` token decrypted. Raises :class:`OperatorError` naming the offset of a
    token that does not decrypt with ``key`` (another key, or a changed token)."""
    cipher, parts, pos = _cipher(key), [], 0
    for m in TOKEN.finditer(text):
        raw = m.group(1)
        try:
            plain = cipher.decrypt(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)), [ASSOCIATED])
        except (InvalidTag, ValueError):
            raise OperatorError(f"the token at offset {m.start()} does not decrypt with this key") from None
        parts += [text[pos : m.start()], plain.decode("utf-8")]
        pos = m.end()
    parts.append(text[pos:])
    return "".join(parts)
