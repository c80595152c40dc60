"""Converters from evaluation corpora to spaCy DocBin (``python -m textanon convert``).

* ``tab``: TAB JSON -> ``doc.spans[annotator]`` per annotator, gold attributes as span extensions;
* ``echr``: an entity layer (e.g. echr-dev) -> ``doc.spans["gold"]``;
* ``wikiactors``: one Doc per record and anonymization column, ``doc.spans["masked"]``;
* ``jsonl``: ``{"id", "text"}`` lines -> Docs with ``doc.user_data["id"]``.
"""

from pathlib import Path
from typing import Callable, Dict, List

from spacy.tokens import Doc, DocBin

from .extensions import GOLD_SPAN_EXTENSIONS, MENTIONS_KEY, register_gold_extensions
from .simple import jsonl_to_docs, wikiactors_to_docs
from .tab import doc_to_gold, entity_layer_to_docs, gold_to_doc, gold_to_json, tab_to_docs

CONVERTERS: Dict[str, Callable[..., List[Doc]]] = {
    "tab": tab_to_docs,
    "echr": entity_layer_to_docs,
    "wikiactors": wikiactors_to_docs,
    "jsonl": jsonl_to_docs,
}


def convert(input_path, output_path, fmt: str) -> int:
    """Convert ``input_path`` in format ``fmt`` to a ``.spacy`` DocBin; returns the number of Docs."""
    if fmt not in CONVERTERS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(CONVERTERS)}")
    docs = CONVERTERS[fmt](input_path)
    write_docbin(docs, output_path)
    return len(docs)


def write_docbin(docs: List[Doc], path) -> None:
    db = DocBin(store_user_data=True)
    for doc in docs:
        db.add(doc)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db.to_disk(path)


def read_docbin(path, vocab=None) -> List[Doc]:
    from .tokenize import blank_nlp

    register_gold_extensions()
    return list(DocBin().from_disk(path).get_docs(vocab or blank_nlp().vocab))


__all__ = [
    "CONVERTERS",
    "convert",
    "write_docbin",
    "read_docbin",
    "tab_to_docs",
    "entity_layer_to_docs",
    "wikiactors_to_docs",
    "jsonl_to_docs",
    "gold_to_doc",
    "doc_to_gold",
    "gold_to_json",
    "GOLD_SPAN_EXTENSIONS",
    "MENTIONS_KEY",
]
