"""The reversible mapping (opt-in): original <-> replacement for every mask of every document, encrypted.

A mapping holds, per document id, one entry per applied mask — ``start``/``end`` in the original text, the
``original`` string, its ``replacement`` and where the replacement stands in the anonymized text
(``anon_start``/``anon_end``) — and, for the ``pseudonym`` style in corpus scope, the surrogate table that keeps
one surrogate per original across runs. :func:`restore` puts the originals back into an anonymized text.

Each document's entry is **bound to the output record it restores**: it is stored under the run identifier
(``run``: random per :class:`Mapping`, written into each output record of that run) and the document id, with
the SHA-256 fingerprint of the anonymized text. :func:`deanonymize_records` restores a record only when its run,
id and fingerprint match an entry; entries of earlier runs (``--mapping-in``) are kept beside the new ones (never
replaced: ids such as ``line1`` repeat across runs).

It holds the original identifiers, so it is written **encrypted** with a key the data controller keeps:
Fernet (AES-128-CBC + HMAC-SHA256, authenticated) from the ``cryptography`` package, its key derived from the
user's passphrase with scrypt (n=2**15, r=8, p=1) and a random 16-byte salt stored in the file. A wrong key or a
changed file fails authentication (:class:`MappingError`), never yields wrong text. Writing it unencrypted needs
``encrypted=False`` explicitly (``--mapping-unencrypted``), and so does reading one (``unencrypted=True``): a
plain-text mapping is not authenticated (anyone can write one), so it is refused whenever a key is given.

File format: ``TEXTANON-MAPPING-1\\n`` + salt (16 bytes) + Fernet token of the JSON document; an unencrypted
mapping is the JSON document itself: ``{"version": 2, "documents": [{"run", "id", "sha256", "entries"}, ...],
"pseudonyms": {...}}``. The file is created readable by its owner only (mode 0600).
"""

import base64
import hashlib
import json
import os
import secrets
import stat
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from textanon.render.masking import merge
from textanon.render.operators.base import OperatorError
from textanon.render.operators.encrypt import decrypt_text
from textanon.render.user_key import KEY_ENV, MIN_KEY_CHARS, MappingError, check_key, read_key  # noqa: F401  (re-exported)

MAGIC = b"TEXTANON-MAPPING-1\n"
SALT_BYTES = 16
VERSION = 2
#: the error of :func:`deanonymize_records` for an input error record (not a refusal)
NOTHING_TO_RESTORE = "error record: nothing to restore"


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


def fingerprint(anonymized: str) -> str:
    """The SHA-256 (hex) of an anonymized text: what binds a mapping entry to its output record."""
    return hashlib.sha256(anonymized.encode("utf-8")).hexdigest()


def new_run_id() -> str:
    """A random run identifier (16 hex digits)."""
    return secrets.token_hex(8)


class Mapping:
    """The mapping of a corpus: ``documents`` ((run, id) -> ``{"sha256", "entries"}``) and the pseudonym table.

    ``run`` is this run's identifier: :meth:`add` files entries under it, and ``anonymize`` writes it into each
    output record (``run``). Documents of earlier runs (read from a file) keep their own run."""

    def __init__(
        self,
        documents: Optional[Dict[Tuple[str, str], dict]] = None,
        pseudonyms: Optional[dict] = None,
        run: Optional[str] = None,
    ):
        self.documents: Dict[Tuple[str, str], dict] = dict(documents or {})
        self.pseudonyms: Dict[str, Dict[str, str]] = dict(pseudonyms or {})
        self.run = run or new_run_id()

    def add(self, record: dict, text: Optional[str], target: Optional[str] = None) -> None:
        """Add the entries of an output record under this run (error records and records without their text are
        skipped; they never touch another document's entry). Raises :class:`MappingError` for an id already added
        in this run (its entry is never replaced)."""
        if "error" in record or text is None or record.get("anonymized_text") is None:
            return
        key = (self.run, str(record["id"]))
        if key in self.documents:
            raise MappingError(f"document id {key[1]!r} twice in one run: its mapping entry would be replaced")
        self.documents[key] = {
            "sha256": fingerprint(record["anonymized_text"]),
            "entries": document_entries(text, record.get("masks") or []),
        }

    def to_json(self) -> dict:
        """The JSON document written to the file."""
        documents = [{"run": run, "id": doc_id, **doc} for (run, doc_id), doc in self.documents.items()]
        return {"version": VERSION, "documents": documents, "pseudonyms": self.pseudonyms}

    @classmethod
    def from_json(cls, data: dict) -> "Mapping":
        """Read :meth:`to_json`'s document (raises :class:`MappingError` on another version or shape, and on a
        pseudonym table that maps an original to itself: such a table would write the originals as surrogates)."""
        if not isinstance(data, dict) or data.get("version") != VERSION:
            old = isinstance(data, dict) and data.get("version") == 1
            raise MappingError(
                "a mapping of an earlier textanon (version 1): its entries are not bound to their output records, "
                "so they are not used; anonymize the texts again with --mapping-out"
                if old
                else f"not a textanon mapping (version {VERSION})"
            )
        documents: Dict[Tuple[str, str], dict] = {}
        try:
            for doc in data.get("documents") or []:
                key = (str(doc["run"]), str(doc["id"]))
                if key in documents:
                    raise MappingError(f"document id {key[1]!r} twice under run {key[0]} in the mapping")
                documents[key] = {"sha256": str(doc["sha256"]), "entries": list(doc["entries"])}
            pseudonyms = data.get("pseudonyms") or {}
            for kind, table in pseudonyms.items():
                for original, surrogate in table.items() if isinstance(table, dict) else ():
                    if str(original).casefold().split() == str(surrogate).casefold().split():
                        raise MappingError(
                            f"the mapping's pseudonym table ({kind!r}) maps an original to itself: "
                            "the file was changed or forged"
                        )
        except (KeyError, TypeError, AttributeError):
            raise MappingError("not a textanon mapping (a document or the pseudonym table has another shape)") from None
        return cls(documents, pseudonyms)

    def write(self, path: Union[str, Path], key: Optional[str], encrypted: bool = True) -> Path:
        """Write the mapping to ``path`` (atomically; created readable by its owner only, mode 0600); encrypted
        with ``key`` unless ``encrypted`` is False. Raises :class:`MappingError` if ``encrypted`` and no usable key
        is given."""
        payload = json.dumps(self.to_json(), ensure_ascii=False).encode("utf-8")
        if encrypted:
            check_key(key)
            salt = os.urandom(SALT_BYTES)
            payload = MAGIC + salt + _fernet(key, salt).encrypt(payload)
        elif key:
            raise MappingError("a key was given but encryption was turned off")
        path = Path(path)
        fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.")  # mode 0600 from the start
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def read(cls, path: Union[str, Path], key: Optional[str], unencrypted: bool = False) -> "Mapping":
        """Read a mapping file (encrypted: ``key`` needed; a wrong key raises :class:`MappingError`). A plain-text
        mapping is not authenticated: it is refused when a ``key`` is given, and read only with
        ``unencrypted=True``."""
        data = Path(path).read_bytes()
        if data.startswith(MAGIC):
            if not key:
                raise MappingError(f"{path} is encrypted: give its key")

            salt, token = data[len(MAGIC) : len(MAGIC) + SALT_BYTES], data[len(MAGIC) + SALT_BYTES :]
            try:
                data = _fernet(key, salt).decrypt(token)
            except InvalidToken:
                raise MappingError(f"cannot decrypt {path}: wrong key, or the file was changed") from None
        elif key:
            raise MappingError(
                f"{path} is not encrypted although a key was given: a plain-text mapping is not authenticated "
                "(anyone can write one), so it is refused"
            )
        elif not unencrypted:
            raise MappingError(
                f"{path} is a plain-text (unencrypted) mapping: it is not authenticated; read it only by asking "
                "explicitly (--mapping-unencrypted)"
            )
        try:
            return cls.from_json(json.loads(data.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise MappingError(f"{path} is not a textanon mapping") from None

    def lookup(self, doc_id: str, anonymized: str, run: Optional[str]) -> List[dict]:
        """The entries that restore ``anonymized`` (document ``doc_id`` of run ``run``). Raises
        :class:`MappingError` when none is bound to it: no entry, another run, a changed text, or — for a record
        without ``run`` — several runs' entries that fit and disagree."""
        same_id = {r: doc for (r, i), doc in self.documents.items() if i == doc_id}
        if not same_id:
            raise MappingError("no mapping for this document")
        if run is not None:
            if run not in same_id:
                raise MappingError(
                    f"the record is from run {run}, the mapping holds this id only from another run "
                    f"({', '.join(sorted(same_id))}): not restored"
                )
            same_id = {run: same_id[run]}
        digest = fingerprint(anonymized)
        fits = [doc["entries"] for doc in same_id.values() if doc["sha256"] == digest]
        if not fits:
            raise MappingError(
                "the anonymized text is not the one the mapping was written for (changed, or a record of another "
                "run; SHA-256 differs): not restored"
            )
        if any(entries != fits[0] for entries in fits[1:]):
            raise MappingError(
                "several runs hold this id and text with different originals, and the record names no run: "
                "not restored (give the output record with its 'run' field)"
            )
        return fits[0]


def key_file_warning(key_file: Optional[Union[str, Path]]) -> Optional[str]:
    """A warning when ``key_file`` can be read by other users than its owner (group or world), else None."""
    if not key_file:
        return None
    try:
        mode = os.stat(key_file).st_mode
    except OSError:
        return None
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        return f"the key file {key_file} is readable by other users (mode {stat.S_IMODE(mode):o}): chmod 600 {key_file}"
    return None


def new_key() -> str:
    """A random key (a Fernet key: 32 random bytes, URL-safe base64)."""
    return Fernet.generate_key().decode("ascii")


def _fernet(key: str, salt: bytes):
    derived = Scrypt(salt=salt, length=32, n=2**15, r=8, p=1).derive(key.encode("utf-8"))
    return Fernet(base64.urlsafe_b64encode(derived))


def deanonymize_records(records, mapping: Mapping):
    """``{"id", "text"}`` per record (an ``anonymize`` output record, or ``{"id", "text"}``; or a ``(line number,
    record)`` pair): the original text restored from ``mapping`` — only when the record's ``run`` (if it has
    one), id and the SHA-256 of its text match an entry (:meth:`Mapping.lookup`). Otherwise an error record
    ``{"id", "error", "line"?}`` — no partial restore — for a record with no mapping, from another run, with a
    changed text, an error record or a text that does not fit its mapping."""
    for item in records:
        line, record = item if isinstance(item, tuple) else (None, item)
        doc_id = str(record.get("id"))
        where = {} if line is None else {"line": line}
        if "error" in record:
            yield {"id": doc_id, "error": NOTHING_TO_RESTORE, **where}
            continue
        text = record.get("anonymized_text", record.get("text"))
        if not isinstance(text, str):
            yield {"id": doc_id, "error": "no text", **where}
            continue
        run = record.get("run")
        try:
            entries = mapping.lookup(doc_id, text, None if run is None else str(run))
            yield {"id": doc_id, "text": restore(text, entries)}
        except MappingError as err:
            yield {"id": doc_id, "error": str(err), **where}


def decrypt_records(records, key: str):
    """``{"id", "text"}`` per record with every token of the ``encrypt`` operator decrypted with ``key``;
    ``{"id", "error"}`` for an error record, a record without text or a token that does not decrypt."""
    for record in records:
        doc_id = str(record.get("id"))
        text = record.get("anonymized_text", record.get("text"))
        if "error" in record or text is None:
            yield {"id": doc_id, "error": NOTHING_TO_RESTORE if "error" in record else "no text"}
            continue
        try:
            yield {"id": doc_id, "text": decrypt_text(text, key)}
        except OperatorError as err:
            yield {"id": doc_id, "error": str(err)}
