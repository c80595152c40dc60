"""The search-index protocol: what the risk component asks a public-knowledge index.

An index holds documents of public knowledge (e.g. Wikipedia bodies), each optionally about a named
person. The risk component needs four questions answered, and nothing else, so that a search server can
replace the embedded backends later without touching it:

* :meth:`SearchIndex.count`: how many documents contain **every** one of some phrases (population risk,
  the neural text sanitizer's web-hit counts, answered locally);
* :meth:`SearchIndex.search`: the BM25 ranking of the documents for a bag of query words (the attacker);
* :meth:`SearchIndex.term_scores`: the BM25 contribution of one query word to given documents (what
  masking that word removes from their scores: BM25 is a sum over query words);
* :meth:`SearchIndex.documents_of`: the documents about a person (the protected target's).

Every index folder has a ``meta.json`` (:data:`META_FILE`) recording the backend, the schema version
and the tokenizer; :func:`read_meta` checks them and raises :class:`IndexMissing` or
:class:`IndexIncompatible` with a message that says how to rebuild.
"""

import json
from pathlib import Path
from typing import Callable, Dict, FrozenSet, List, Optional, Protocol, Sequence, Tuple, Union, runtime_checkable

from textanon.detect.target import fold

#: bumped whenever the on-disk layout or the tokenization changes; older indexes must be rebuilt
SCHEMA_VERSION = 1
META_FILE = "meta.json"
#: the words of documents and queries: lower case, diacritics folded, split on anything not a letter or digit
TOKENIZER = "unicode61-folded"

Hit = Tuple[int, float]


class IndexUnavailable(RuntimeError):
    """The index cannot be used (missing, incompatible or unreadable)."""


class IndexMissing(IndexUnavailable):
    """No index at the given path."""


class IndexIncompatible(IndexUnavailable):
    """An index built by another schema version, tokenizer or backend."""


@runtime_checkable
class SearchIndex(Protocol):
    """A read-only index of public knowledge (see the module docstring)."""

    meta: dict

    @property
    def n_docs(self) -> int:
        """Number of indexed documents."""

    def count(self, phrases: Sequence[str]) -> int:
        """Number of documents that contain every phrase (each a run of words, matched in order)."""

    def count_any(self, groups: Sequence[Sequence[str]]) -> int:
        """Number of documents that contain, for every group, at least one of its phrases (an AND of ORs)."""

    def search(self, words: Sequence[str], limit: int) -> List[Hit]:
        """BM25 ranking for the query ``words`` (any of them may match): ``[(doc, score)]``, best first,
        higher scores better, at most ``limit``."""

    def term_scores(self, word: str, docs: Sequence[int]) -> Dict[int, float]:
        """BM25 score of the one-word query ``word`` for each of ``docs`` that contains it."""

    def documents_of(self, person: str) -> List[int]:
        """The documents about ``person`` (by the name given when the index was built)."""


#: the most documents of one phrase :func:`memo_count` keeps as a set (a commoner phrase: the index counts each
#: combination with it itself)
MAX_LISTED_DOCUMENTS = 20_000


def memo_count(index: SearchIndex) -> Callable[[Sequence[str]], int]:
    """``index.count`` with its answers kept (one per document: the search risk's and the generalizer's attacker
    ask the same phrases again). An index with a cheaper exact equivalent (the word-frequency prior's
    ``memo_count``) gives that. When the backend lists a phrase's documents (``documents_any``), each phrase is
    asked once and a combination's count is the size of the intersection of its phrases' documents: the same
    number as the index's conjunctive count, without one query per pair (the population risk asks for thousands
    of pairs per document)."""
    own = getattr(index, "memo_count", None)
    if callable(own):
        return own()
    cache: Dict[Tuple[str, ...], int] = {}
    listing = getattr(index, "documents_any", None)
    listed: Dict[str, Optional[FrozenSet[int]]] = {}

    def documents(phrase: str) -> Optional[FrozenSet[int]]:
        if phrase not in listed:
            listed[phrase] = listing([phrase], MAX_LISTED_DOCUMENTS)
        return listed[phrase]

    def count(phrases: Sequence[str]) -> int:
        key = tuple(sorted(" ".join(p.split()) for p in phrases))
        if key not in cache:
            sets = [documents(p) for p in key] if listing is not None and key else None
            if sets and all(s is not None for s in sets):
                cache[key] = len(sets[0].intersection(*sets[1:]))
            else:
                cache[key] = index.count(list(key))
        return cache[key]

    return count


def person_key(name: str) -> str:
    """The key under which a person's documents are found: folded, single-spaced."""
    return " ".join(fold(name or "").split())


def read_meta(path: Union[str, Path], backend: str = None) -> dict:
    """The index's ``meta.json``, checked: :class:`IndexMissing` / :class:`IndexIncompatible` otherwise."""
    path = Path(path)
    meta_path = path / META_FILE
    if not meta_path.is_file():
        raise IndexMissing(
            f"no search index at {path} (no {META_FILE}); build one with "
            "`python -m textanon index build INPUT --output DIR`"
        )
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise IndexIncompatible(f"unreadable {META_FILE} in {path} ({type(err).__name__}); rebuild the index") from None
    if not isinstance(meta, dict):
        raise IndexIncompatible(f"{META_FILE} in {path} is not an object; rebuild the index")
    problems = []
    if meta.get("schema_version") != SCHEMA_VERSION:
        problems.append(f"schema version {meta.get('schema_version')!r}, expected {SCHEMA_VERSION}")
    if meta.get("tokenizer") != TOKENIZER:
        problems.append(f"tokenizer {meta.get('tokenizer')!r}, expected {TOKENIZER!r}")
    if backend is not None and meta.get("backend") != backend:
        problems.append(f"backend {meta.get('backend')!r}, expected {backend!r}")
    if problems:
        raise IndexIncompatible(
            f"incompatible search index at {path}: {'; '.join(problems)}; rebuild it with "
            "`python -m textanon index build`"
        )
    return meta


def write_meta(path: Path, meta: dict) -> None:
    """Write ``meta.json`` (schema version and tokenizer added)."""
    body = dict(meta, schema_version=SCHEMA_VERSION, tokenizer=TOKENIZER)
    (Path(path) / META_FILE).write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
