"""tantivy backend (``pip install tantivy``): a tantivy index in the ``tantivy/`` folder of the index folder.

Schema: ``num`` (integer, the document number), ``person`` (raw string: the folded name), ``text``
(tantivy's default tokenizer — split on non-alphanumeric characters, lower case — over text folded by
:func:`textanon.risk.search.terms.index_text`; positions indexed for phrase queries, text not stored). Queries
are built from words, never parsed, so no word is read as an operator. tantivy's BM25: k1 1.2, b 0.75.
"""

import shutil
from pathlib import Path
from typing import Dict, List, Sequence

from textanon.risk.search.base import Hit, IndexIncompatible, person_key, read_meta
from textanon.risk.search.terms import index_text, phrase_words

BACKEND = "tantivy"
FOLDER = "tantivy"


def _schema():
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("num", stored=True, indexed=True, fast=True)
    builder.add_text_field("person", stored=False, tokenizer_name="raw")
    builder.add_text_field("text", stored=False, tokenizer_name="default", index_option="position")
    return builder.build()


class TantivyWriter:
    """Adds documents to a new index folder; :meth:`close` commits and merges."""

    def __init__(self, path: Path, heap_bytes: int = 128_000_000):
        import tantivy

        self.path = Path(path)
        folder = self.path / FOLDER
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        self.index = tantivy.Index(_schema(), path=str(folder))
        self.writer = self.index.writer(heap_bytes, 1)
        self._doc = tantivy.Document

    def add(self, num: int, doc_id: str, text: str, person: str = None) -> None:
        """Index one document under the integer ``num`` (the id is not kept: answers name documents by number)."""
        fields = {"num": [int(num)], "text": [index_text(text)]}
        if person:
            fields["person"] = [person_key(person)]
        self.writer.add_document(self._doc(**fields))

    def close(self) -> None:
        """Commit the added documents and wait for tantivy's segment merges."""
        self.writer.commit()
        self.writer.wait_merging_threads()


class TantivyIndex:
    """A read-only tantivy index (see :class:`textanon.risk.search.base.SearchIndex`)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.meta = read_meta(self.path, BACKEND)
        try:
            import tantivy
        except ImportError:
            raise IndexIncompatible(
                f"the search index at {self.path} needs the tantivy package: pip install tantivy"
            ) from None
        self._t = tantivy
        try:
            self.index = tantivy.Index.open(str(self.path / FOLDER))
            self.index.reload()
            self.searcher = self.index.searcher()
        except (OSError, ValueError) as err:
            raise IndexIncompatible(
                f"unreadable tantivy index at {self.path} ({type(err).__name__}); rebuild it"
            ) from None
        self.schema = self.index.schema

    @property
    def n_docs(self) -> int:
        """Number of indexed documents."""
        return int(self.searcher.num_docs)

    def _phrase(self, words: Sequence[str]):
        if len(words) == 1:
            return self._t.Query.term_query(self.schema, "text", words[0])
        return self._t.Query.phrase_query(self.schema, "text", list(words))

    def _nums(self, hits) -> List[Hit]:
        return [(int(self.searcher.doc(addr)["num"][0]), float(score)) for score, addr in hits]

    def count(self, phrases: Sequence[str]) -> int:
        """Number of documents that contain every phrase (a boolean query of phrase queries, all required)."""
        queries = [self._phrase(ws) for ws in map(phrase_words, phrases) if ws]
        if not queries:
            return self.n_docs
        query = self._t.Query.boolean_query([(self._t.Occur.Must, q) for q in queries])
        return int(self.searcher.search(query, limit=1, count=True).count)

    def count_any(self, groups: Sequence[Sequence[str]]) -> int:
        """Number of documents that contain one phrase of every group (Must of Should phrase queries)."""
        musts = []
        for group in groups:
            queries = [self._phrase(ws) for ws in map(phrase_words, group) if ws]
            if queries:
                musts.append(self._t.Query.boolean_query([(self._t.Occur.Should, q) for q in queries]))
        if not musts:
            return self.n_docs
        query = self._t.Query.boolean_query([(self._t.Occur.Must, q) for q in musts])
        return int(self.searcher.search(query, limit=1, count=True).count)

    def search(self, words: Sequence[str], limit: int) -> List[Hit]:
        """tantivy's BM25 ranking for any of the query words: ``[(doc, score)]``, best (highest) first."""
        phrases = list(dict.fromkeys(tuple(ws) for ws in map(phrase_words, words) if ws))
        if not phrases:
            return []
        query = self._t.Query.boolean_query([(self._t.Occur.Should, self._phrase(ws)) for ws in phrases])
        return self._nums(self.searcher.search(query, limit=int(limit), count=False).hits)

    def term_scores(self, word: str, docs: Sequence[int]) -> Dict[int, float]:
        """BM25 score of the one-word query ``word`` for each of ``docs`` that contains it."""
        ws = phrase_words(word)
        if not ws or not docs:
            return {}
        only = self._t.Query.const_score_query(
            self._t.Query.term_set_query(self.schema, "num", list(map(int, docs))), 0.0
        )
        query = self._t.Query.boolean_query([(self._t.Occur.Must, self._phrase(ws)), (self._t.Occur.Must, only)])
        return dict(self._nums(self.searcher.search(query, limit=len(docs), count=False).hits))

    def documents_of(self, person: str) -> List[int]:
        """Numbers of the documents indexed for ``person`` (matched by the folded name), sorted."""
        query = self._t.Query.term_query(self.schema, "person", person_key(person))
        return sorted(n for n, _ in self._nums(self.searcher.search(query, limit=10_000, count=False).hits))

    def close(self) -> None:
        """Drop the searcher."""
        self.searcher = None
