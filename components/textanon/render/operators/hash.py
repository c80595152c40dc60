"""``hash``: a keyed HMAC-SHA256 of the entity, so equal entities get equal hashes and nobody without the key can
test a guess (a dictionary of names against plain SHA-256 would reverse it)."""

import hashlib
import hmac
from pathlib import Path
from typing import Optional, Union

from textanon.render.operators.base import Mention, Operator, OperatorError
from textanon.render.operators.keys import derive, random_key, user_key


class Hash(Operator):
    """HMAC-SHA256 of the entity's label and canonical form (every mention of the entity gets the same hash),
    hex, the first ``length`` characters (64: all). Key: ``key_file`` or ``$TEXTANON_MAPPING_KEY``; without
    one a random key is drawn for this run and :meth:`warnings` says that its hashes cannot be reproduced."""

    name = "hash"

    def __init__(self, length: int = 16, key_file: Optional[Union[str, Path]] = None):
        if not 8 <= length <= 64:
            raise OperatorError(f"hash: length must be between 8 and 64 hex characters, got {length}")
        self.length, self.key_file = length, key_file
        key = user_key(key_file, required=False)
        self._random = key is None
        self._key = derive(key or random_key(), "hash")

    def __call__(self, mention: Mention) -> str:
        canonical = " ".join(mention.entity_text.split()).casefold()
        message = f"{mention.label}\x00{canonical}".encode("utf-8")
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[: self.length]

    def arguments(self) -> dict:
        return {"length": self.length}

    def warnings(self) -> list:
        if self._random:
            return ["hash operator: no key given, a random one was drawn; these hashes cannot be reproduced"]
        return []
