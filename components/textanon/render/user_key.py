"""The user's key, the one secret of textanon: read from a key file (its first line) or ``$TEXTANON_MAPPING_KEY``,
and refused when too short. The reversible mapping (:mod:`textanon.render.mapping`, which re-exports every name here),
the keyed operators (:mod:`textanon.render.operators.keys`) and the pseudonyms' secret all read it here, at the bottom
of the house (this module imports nothing from textanon)."""

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Optional, Union

#: a shorter key is refused (a mapping can be attacked offline: scrypt slows guessing, it cannot make 8 characters safe)
MIN_KEY_CHARS = 12
KEY_ENV = "TEXTANON_MAPPING_KEY"


class MappingError(Exception):
    """A mapping that cannot be written, read or applied (wrong key, changed file, text that does not fit)."""


def check_key(key: Optional[str]) -> str:
    """``key`` if usable (at least :data:`MIN_KEY_CHARS` characters, no control characters), else
    :class:`MappingError`."""
    if not key:
        raise MappingError(
            f"the mapping holds the original identifiers: give a key (--key-file or ${KEY_ENV}) "
            "or ask for an unencrypted mapping explicitly (--mapping-unencrypted)"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in key):
        raise MappingError("the key holds control characters: give a text key (`textanon mapping-key` writes one)")
    if len(key) < MIN_KEY_CHARS:
        raise MappingError(
            f"the key is too short (fewer than {MIN_KEY_CHARS} characters): use a longer passphrase, or "
            "`textanon mapping-key -o FILE` for a random key"
        )
    return key


def read_key(key_file: Optional[Union[str, Path]] = None) -> Optional[str]:
    """The key from ``key_file`` (its first line, stripped), else from ``$TEXTANON_MAPPING_KEY``, else None.
    Raises :class:`MappingError` for a key file that cannot be read, is empty or is not UTF-8 text."""
    if key_file:
        try:
            data = Path(key_file).read_bytes()
        except OSError as err:
            raise MappingError(f"cannot read the key file {key_file}: {err.strerror or type(err).__name__}") from None
        try:
            lines = data.decode("utf-8").splitlines()
        except UnicodeDecodeError:
            raise MappingError(f"the key file {key_file} is not text (UTF-8): give a text key") from None
        key = lines[0].strip() if lines else ""
        if not key:
            raise MappingError(f"the key file {key_file} is empty (its first line holds the key)")
        return key
    return os.environ.get(KEY_ENV) or None


@lru_cache(maxsize=16)
def derive(key: str, purpose: str) -> bytes:
    """32 bytes derived from ``key`` for ``purpose`` (``"hash"``, ``"encrypt"``): scrypt with a salt naming it."""
    salt = f"textanon-operator-{purpose}-v1".encode("ascii")
    return hashlib.scrypt(key.encode("utf-8"), salt=salt, n=2**14, r=8, p=1, dklen=32, maxmem=64 * 1024 * 1024)


def random_key() -> str:
    """A random key for a run without one (its output cannot be reproduced)."""
    return os.urandom(32).hex()
