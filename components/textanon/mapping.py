"""The reversible mapping (opt-in): original <-> replacement for every mask of every document, encrypted.

A mapping holds, per document id, one entry per applied mask — ``start``/``end`` in the original text, the
``original`` string, its ``replacement`` and where the replacement stands in the anonymized text
(``anon_start``/``anon_end``) — and, for the ``pseudonym`` style in corpus scope, the surrogate table that keeps
one surrogate per original across runs. :func:`restore` puts the originals back into an anonymized text.

It holds the original identifiers, so it is written **encrypted** with a key the data controller keeps:
Fernet (AES-128-CBC + HMAC-SHA256, authenticated) from the ``cryptography`` package, its key derived from the
user's passphrase with scrypt (n=2**15, r=8, p=1) and a random 16-byte salt stored in the file. A wrong key or a
changed file fails authentication (:class:`MappingError`), never yields wrong text. Writing it unencrypted needs
``encrypted=False`` explicitly (``--mapping-unencrypted``).

File format: ``TEXTANON-MAPPING-1\\n`` + salt (16 bytes) + Fernet token of the JSON document; an unencrypted
mapping is the JSON document itself.
"""

import base64
import json
import os
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

from .masking import merge

MAGIC = b"TEXTANON-MAPPING-1\n"
SALT_BYTES = 16
MIN_KEY_CHARS = 8
KEY_ENV = "TEXTANON_MAPPING_KEY"
VERSION = 1


class MappingError(Exception):
    """A mapping that cannot be written, read or applied (wrong key, changed file, text that does not fit)."""


def document_entries(text: str, masks: Sequence[Sequence]) -> List[dict]:
    """The mapping entries of one document: each applied mask (merged, sorted) with its original string and the
    offsets of its replacement in the anonymized text."""
    entries, shift = [], 0
    for start, end, rep in merge(tuple(m) for m in masks):
        rep = rep or ""
        anon_start = start + shift
        entries.append(
            {
                "start": start,
                "end": end,
                "original": text[start:end],
                "replacement": rep,
                "anon_start": anon_start,
                "anon_end": anon_start + len(rep),
            }
        )
        shift += len(rep) - (end - start)
    return entries


def restore(anonymized: str, entries: Sequence[dict]) -> str:
    """The original text: every replacement of ``entries`` (:func:`document_entries`) put back. Raises
    :class:`MappingError` when a replacement is not where the mapping says (another text, or an edited one)."""
    parts, pos = [], 0
    for e in sorted(entries, key=lambda e: e["anon_start"]):
        if e["anon_start"] < pos or anonymized[e["anon_start"] : e["anon_end"]] != e["replacement"]:
            raise MappingError(f"the text does not match the mapping at offset {e['anon_start']}")
        parts += [anonymized[pos : e["anon_start"]], e["original"]]
        pos = e["anon_end"]
    parts.append(anonymized[pos:])
    return "".join(parts)


class Mapping:
    """The mapping of a corpus: ``documents`` (id -> entries) and the pseudonym ``table``."""

    def __init__(self, documents: Optional[Dict[str, List[dict]]] = None, pseudonyms: Optional[dict] = None):
        self.documents: Dict[str, List[dict]] = dict(documents or {})
        self.pseudonyms: Dict[str, Dict[str, str]] = dict(pseudonyms or {})

    def add(self, record: dict, text: Optional[str], target: Optional[str] = None) -> None:
        """Add the entries of an output record (error records and records without their text are skipped)."""
        if "error" in record or text is None:
            return
        self.documents[str(record["id"])] = document_entries(text, record.get("masks") or [])

    def to_json(self) -> dict:
        """The JSON document written to the file."""
        return {"version": VERSION, "documents": self.documents, "pseudonyms": self.pseudonyms}

    @classmethod
    def from_json(cls, data: dict) -> "Mapping":
        """Read :meth:`to_json`'s document (raises :class:`MappingError` on another version or shape)."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise MappingError(f"not a textanon mapping (version {VERSION})")
        return cls(data.get("documents") or {}, data.get("pseudonyms") or {})

    def write(self, path: Union[str, Path], key: Optional[str], encrypted: bool = True) -> Path:
        """Write the mapping to ``path`` (atomically, readable by its owner only); encrypted with ``key`` unless
        ``encrypted`` is False. Raises :class:`MappingError` if ``encrypted`` and no usable key is given."""
        payload = json.dumps(self.to_json(), ensure_ascii=False).encode("utf-8")
        if encrypted:
            check_key(key)
            salt = os.urandom(SALT_BYTES)
            payload = MAGIC + salt + _fernet(key, salt).encrypt(payload)
        elif key:
            raise MappingError("a key was given but encryption was turned off")
        path = Path(path)
        fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def read(cls, path: Union[str, Path], key: Optional[str]) -> "Mapping":
        """Read a mapping file (encrypted: ``key`` needed; a wrong key raises :class:`MappingError`)."""
        data = Path(path).read_bytes()
        if data.startswith(MAGIC):
            if not key:
                raise MappingError(f"{path} is encrypted: give its key")
            from cryptography.fernet import InvalidToken

            salt, token = data[len(MAGIC) : len(MAGIC) + SALT_BYTES], data[len(MAGIC) + SALT_BYTES :]
            try:
                data = _fernet(key, salt).decrypt(token)
            except InvalidToken:
                raise MappingError(f"cannot decrypt {path}: wrong key, or the file was changed") from None
        try:
            return cls.from_json(json.loads(data.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise MappingError(f"{path} is not a textanon mapping") from None


def check_key(key: Optional[str]) -> str:
    """``key`` if usable (at least :data:`MIN_KEY_CHARS` characters), else :class:`MappingError`."""
    if not key:
        raise MappingError(
            f"the mapping holds the original identifiers: give a key (--key-file or ${KEY_ENV}) "
            "or ask for an unencrypted mapping explicitly (--mapping-unencrypted)"
        )
    if len(key) < MIN_KEY_CHARS:
        raise MappingError(f"the key is too short (fewer than {MIN_KEY_CHARS} characters)")
    return key


def read_key(key_file: Optional[Union[str, Path]] = None) -> Optional[str]:
    """The key from ``key_file`` (its first line), else from ``$TEXTANON_MAPPING_KEY``, else None."""
    if key_file:
        lines = Path(key_file).read_text(encoding="utf-8").splitlines()
        return lines[0].strip() if lines else ""
    return os.environ.get(KEY_ENV) or None


def new_key() -> str:
    """A random key (a Fernet key: 32 random bytes, URL-safe base64)."""
    from cryptography.fernet import Fernet

    return Fernet.generate_key().decode("ascii")


def _fernet(key: str, salt: bytes):
    from cryptography.fernet import Fernet
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    derived = Scrypt(salt=salt, length=32, n=2**15, r=8, p=1).derive(key.encode("utf-8"))
    return Fernet(base64.urlsafe_b64encode(derived))


def deanonymize_records(records, mapping: Mapping):
    """``{"id", "text"}`` per record (an ``anonymize`` output record, or ``{"id", "text"}``): the original text
    restored from ``mapping``; ``{"id", "error"}`` for a record with no mapping, an error record, or a text that
    does not fit its mapping."""
    for record in records:
        doc_id = str(record.get("id"))
        if "error" in record:
            yield {"id": doc_id, "error": "error record: nothing to restore"}
            continue
        text = record.get("anonymized_text", record.get("text"))
        entries = mapping.documents.get(doc_id)
        if text is None or entries is None:
            yield {"id": doc_id, "error": "no text" if text is None else "no mapping for this document"}
            continue
        try:
            yield {"id": doc_id, "text": restore(text, entries)}
        except MappingError as err:
            yield {"id": doc_id, "error": str(err)}


def decrypt_records(records, key: str):
    """``{"id", "text"}`` per record with every token of the ``encrypt`` operator decrypted with ``key``;
    ``{"id", "error"}`` for an error record, a record without text or a token that does not decrypt."""
    from .operators.base import OperatorError
    from .operators.encrypt import decrypt_text

    for record in records:
        doc_id = str(record.get("id"))
        text = record.get("anonymized_text", record.get("text"))
        if "error" in record or text is None:
            yield {"id": doc_id, "error": "error record: nothing to restore" if "error" in record else "no text"}
            continue
        try:
            yield {"id": doc_id, "text": decrypt_text(text, key)}
        except OperatorError as err:
            yield {"id": doc_id, "error": str(err)}
