"""SQLite FTS5 backend (Python standard library): one ``index.sqlite`` file per index folder.

Documents go into a contentless FTS5 table (``detail=full``: positions, for phrase queries; the text
itself is not stored) tokenized by ``unicode61 remove_diacritics 2`` over text already folded by
:func:`textanon.risk.search.terms.index_text`; their ids and persons into a plain table. FTS5's ``bm25()``
(k1 1.2, b 0.75) is negated so that higher is better.
"""

import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from textanon.risk.search.base import Hit, IndexIncompatible, person_key, read_meta
from textanon.risk.search.terms import index_text, phrase_words

BACKEND = "sqlite-fts5"
DB_FILE = "index.sqlite"
FTS_TOKENIZER = "unicode61 remove_diacritics 2"
#: the most document numbers an open index keeps across calls in the answers of :meth:`SQLiteIndex.documents_any` and
#: :meth:`SQLiteIndex.term_scores_all` (at most about 50 MB; an index of a few thousand documents never reaches it)
LISTED_BUDGET = 500_000


def fts_phrase(words: Sequence[str]) -> str:
    """An FTS5 phrase query for ``words`` (quoted: no word is read as an operator)."""
    return '"' + " ".join(w.replace('"', '""') for w in words) + '"'


@lru_cache(maxsize=65536)
def phrase_query(text: str) -> str:
    """The FTS5 phrase query of ``text`` ("" when it has no word); kept: the generalizer asks for the same member
    phrases (a term and its hyponyms) in thousands of combinations per document."""
    words = phrase_words(text)
    return fts_phrase(words) if words else ""


class SQLiteWriter:
    """Adds documents to a new index folder; :meth:`close` commits."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        db = self.path / DB_FILE
        if db.exists():
            db.unlink()
        self.conn = sqlite3.connect(str(db))
        self.conn.execute("PRAGMA journal_mode=OFF")
        self.conn.execute("PRAGMA synchronous=OFF")
        self.conn.execute(
            f"CREATE VIRTUAL TABLE fts USING fts5(text, content='', detail=full, tokenize='{FTS_TOKENIZER}')"
        )
        self.conn.execute(
            "CREATE TABLE docs (num INTEGER PRIMARY KEY, id TEXT NOT NULL, person TEXT, person_key TEXT, chars INTEGER)"
        )
        self.conn.execute("CREATE INDEX docs_person ON docs(person_key)")

    def add(self, num: int, doc_id: str, text: str, person: str = None) -> None:
        """Index one document under the integer ``num``."""
        self.conn.execute("INSERT INTO fts(rowid, text) VALUES (?, ?)", (num, index_text(text)))
        self.conn.execute(
            "INSERT INTO docs VALUES (?, ?, ?, ?, ?)",
            (num, doc_id, person, person_key(person) if person else None, len(text)),
        )

    def close(self) -> None:
        """Commit and merge the FTS5 segments (smaller, faster index)."""
        self.conn.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        self.conn.commit()
        self.conn.execute("VACUUM")
        self.conn.close()


class SQLiteIndex:
    """A read-only FTS5 index (see :class:`textanon.risk.search.base.SearchIndex`)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.meta = read_meta(self.path, BACKEND)
        db = self.path / DB_FILE
        if not db.is_file():
            raise IndexIncompatible(f"search index at {self.path} has no {DB_FILE}; rebuild it")
        try:
            self.conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
            self._n = int(self.conn.execute("SELECT count(*) FROM docs").fetchone()[0])
            # documents_any's and term_scores_all's answers, kept across documents (:meth:`_keep`)
            self._listed: Dict[str, Tuple[FrozenSet[int], bool]] = {}
            self._scored: Dict[str, Tuple[Dict[int, float], bool]] = {}
            self._kept_size = 0
        except sqlite3.Error as err:
            raise IndexIncompatible(
                f"unreadable search index at {self.path} ({type(err).__name__}); rebuild it"
            ) from None

    @property
    def n_docs(self) -> int:
        """Number of indexed documents."""
        return self._n

    def count(self, phrases: Sequence[str]) -> int:
        """Number of documents that contain every phrase (one FTS5 ``MATCH``: quoted phrases joined by ``AND``)."""
        parts = [q for q in map(phrase_query, phrases) if q]
        if not parts:
            return self._n
        row = self.conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (" AND ".join(parts),)).fetchone()
        return int(row[0])

    def count_any(self, groups: Sequence[Sequence[str]]) -> int:
        """Number of documents that contain one phrase of every group (one ``MATCH``: ORs of phrases joined by AND)."""
        clauses = []
        for group in groups:
            parts = list(dict.fromkeys(q for q in map(phrase_query, group) if q))
            if parts:
                clauses.append("(" + " OR ".join(parts) + ")")
        if not clauses:
            return self._n
        row = self.conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (" AND ".join(clauses),)).fetchone()
        return int(row[0])

    def documents_any(self, group: Sequence[str], limit: int) -> Optional[FrozenSet[int]]:
        """The documents that contain one phrase of ``group``; None when more than ``limit`` do or the group has no
        phrase (ask :meth:`count_any` then). :meth:`count_any` of several groups is the size of their intersection."""
        parts = list(dict.fromkeys(q for q in map(phrase_query, group) if q))
        if not parts:
            return None
        # the union of each phrase's documents (an OR query's): phrases recur from group to group, each asked once
        each = [self._documents(q, limit) for q in parts]
        if any(len(f) > limit for f in each):
            return None
        found = each[0] if len(each) == 1 else frozenset().union(*each)
        return found if len(found) <= limit else None

    def _documents(self, query: str, limit: int) -> FrozenSet[int]:
        """The documents that match the FTS5 ``query``, kept (:meth:`_keep`); more than ``limit`` of them when more
        than ``limit`` match (then not necessarily all)."""
        kept = self._listed.get(query)
        if kept is not None and (kept[1] or len(kept[0]) > limit):  # all of them, or more than this limit
            return kept[0]
        rows = self.conn.execute("SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?", (query, limit + 1)).fetchall()
        found = frozenset(r[0] for r in rows)
        self._keep(self._listed, query, found, complete=len(found) <= limit)
        return found

    def _keep(self, store: dict, query: str, found, complete: bool) -> None:
        """Keep a query's documents (``documents_any``) or scores (``term_scores_all``) for the next documents of the
        corpus (phrases recur: "film", "award"): up to :data:`LISTED_BUDGET` documents in all, then both stores
        start again (a bound on memory). Read-only index: an answer kept is the answer."""
        if self._kept_size + len(found) > LISTED_BUDGET:
            self._listed.clear()
            self._scored.clear()
            self._kept_size = 0
        if len(found) <= LISTED_BUDGET:
            store[query] = (found, complete)
            self._kept_size += len(found)

    def search(self, words: Sequence[str], limit: int) -> List[Hit]:
        """FTS5 BM25 ranking of the quoted words joined by ``OR``: ``[(doc, score)]``, best (highest) first."""
        parts = list(dict.fromkeys(fts_phrase(ws) for ws in map(phrase_words, words) if ws))
        if not parts:
            return []
        rows = self.conn.execute(
            "SELECT rowid, bm25(fts) AS s FROM fts WHERE fts MATCH ? ORDER BY s LIMIT ?",
            (" OR ".join(parts), int(limit)),
        )
        return [(int(num), -float(s)) for num, s in rows]

    def query_key(self, word: str) -> Optional[str]:
        """The query term ``word`` is in :meth:`search` (its FTS5 phrase; words with the same one are one term),
        None when it is none."""
        ws = phrase_words(word)
        return fts_phrase(ws) if ws else None

    def term_scores(self, word: str, docs: Sequence[int]) -> Dict[int, float]:
        """BM25 score of the one-word query ``word`` for each of ``docs`` that contains it."""
        ws = phrase_words(word)
        if not ws or not docs:
            return {}
        marks = ",".join("?" * len(docs))
        rows = self.conn.execute(
            f"SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ? AND rowid IN ({marks})",
            (fts_phrase(ws), *map(int, docs)),
        )
        return {int(num): -float(s) for num, s in rows}

    def term_scores_all(self, word: str, limit: int) -> Optional[Dict[int, float]]:
        """:meth:`term_scores` of ``word`` for every document that contains it (one query), None when more than
        ``limit`` do (FTS5's BM25 of a one-word query does not depend on which documents are asked for)."""
        ws = phrase_words(word)
        if not ws:
            return {}
        query = fts_phrase(ws)
        kept = self._scored.get(query)
        if kept is not None and (kept[1] or len(kept[0]) > limit):  # all of them, or more than this limit
            scores = kept[0]
        else:
            rows = self.conn.execute(
                "SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ? LIMIT ?", (query, int(limit) + 1)
            ).fetchall()
            scores = {int(num): -float(s) for num, s in rows}
            self._keep(self._scored, query, scores, complete=len(scores) <= limit)
        return dict(scores) if len(scores) <= limit else None

    def documents_of(self, person: str) -> List[int]:
        """Numbers of the documents indexed for ``person`` (matched by the folded name)."""
        rows = self.conn.execute("SELECT num FROM docs WHERE person_key = ? ORDER BY num", (person_key(person),))
        return [int(r[0]) for r in rows]

    def close(self) -> None:
        """Close the database connection."""
        self.conn.close()
