"""The secret behind the keyed operators (``hash``, ``encrypt``): the user's key, never a public default.

The key is read from a key file (``key_file``) or from ``$TEXTANON_MAPPING_KEY`` — the same secret as the
reversible mapping's (``textanon mapping-key`` writes one). It is never part of the pipeline config, so a saved
pipeline holds no secret. Each operator derives its own 32-byte key from it with scrypt (n=2**14, r=8, p=1) and a
salt naming the operator, so the hash key and the encryption key differ and neither is the mapping's.
"""

from pathlib import Path
from typing import Optional, Union

from textanon.render.operators.base import OperatorError
from textanon.render.user_key import (  # noqa: F401  (derive, random_key: importable here as before)
    KEY_ENV,
    MIN_KEY_CHARS,
    MappingError,
    check_key,
    derive,
    random_key,
    read_key,
)


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
