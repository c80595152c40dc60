"""The secret behind the keyed operators (``hash``, ``encrypt``): the user's key, never a public default.

The key is read from a key file (``key_file``) or from ``$TEXTANON_MAPPING_KEY`` — the same secret as the
reversible mapping's (``textanon mapping-key`` writes one). It is never part of the pipeline config, so a saved
pipeline holds no secret. Each operator derives its own 32-byte key from it with scrypt (n=2**14, r=8, p=1) and a
salt naming the operator, so the hash key and the encryption key differ and neither is the mapping's.
"""

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Optional, Union

from ..user_key import KEY_ENV, MIN_KEY_CHARS, MappingError, check_key, read_key
from .base import OperatorError


def user_key(key_file: Optional[Union[str, Path]] = None, required: bool = True) -> Optional[str]:
    """The user's key from ``key_file``, else ``$TEXTANON_MAPPING_KEY``; None when neither is set and not
    ``required``. Raises :class:`OperatorError` for a missing (when ``required``), unreadable, empty, binary or
    short key (the message says which; never a traceback)."""
    try:
        key = read_key(key_file)
    except MappingError as err:
        raise OperatorError(str(err)) from None
    if not key and not required:
        return None
    if not key:
        raise OperatorError(
            f"this operator needs a key of at least {MIN_KEY_CHARS} characters: --key-file FILE or ${KEY_ENV} "
            "(`textanon mapping-key -o FILE` writes a random one)"
        )
    try:
        return check_key(key)
    except MappingError as err:
        raise OperatorError(f"the operator key: {err}") from None


@lru_cache(maxsize=16)
def derive(key: str, purpose: str) -> bytes:
    """32 bytes derived from ``key`` for ``purpose`` (``"hash"``, ``"encrypt"``): scrypt with a salt naming it."""
    salt = f"textanon-operator-{purpose}-v1".encode("ascii")
    return hashlib.scrypt(key.encode("utf-8"), salt=salt, n=2**14, r=8, p=1, dklen=32, maxmem=64 * 1024 * 1024)


def random_key() -> str:
    """A random key for a run without one (its output cannot be reproduced)."""
    return os.urandom(32).hex()
