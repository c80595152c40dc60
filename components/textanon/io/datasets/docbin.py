"""spaCy DocBin files: writing, reading, and converting corpora to them (``python -m textanon lab convert``).

Formats of :func:`convert` (each converter lives with its format's reader):

* ``tab``: TAB JSON -> ``doc.spans[annotator]`` per annotator, gold attributes as span extensions;
* ``echr``: an entity layer (e.g. echr-dev) -> ``doc.spans["gold"]``;
* ``wikiactors``: one Doc per record and anonymization column, ``doc.spans["masked"]``;
* ``jsonl``: ``{"id", "text"}`` lines -> Docs with ``doc.user_data["id"]``.
"""

from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Union

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from textanon.io.datasets.gold_extensions import register_gold_extensions
from textanon.io.datasets.records import jsonl_to_docs
from textanon.io.datasets.tab import entity_layer_to_docs, tab_to_docs
from textanon.io.datasets.tokenize import blank_nlp
from textanon.io.datasets.wikiactors import wikiactors_to_docs

CONVERTERS: Dict[str, Callable[..., List[Doc]]] = {
    "tab": tab_to_docs,
    "echr": entity_layer_to_docs,
    "wikiactors": wikiactors_to_docs,
    "jsonl": jsonl_to_docs,
}


def convert(input_path: Union[str, Path], output_path: Union[str, Path], fmt: str) -> int:
    """Convert ``input_path`` in format ``fmt`` to a ``.spacy`` DocBin; returns the number of Docs."""
    if fmt not in CONVERTERS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(CONVERTERS)}")
    docs = CONVERTERS[fmt](input_path)
    write_docbin(docs, output_path)
    return len(docs)


def write_docbin(docs: Union[DocBin, Iterable[Doc]], path: Union[str, Path], store_user_data: bool = True) -> Path:
    """Write ``docs`` (or a ready DocBin) to ``path``, creating its folder; returns the path.

    store_user_data: keep ``doc.user_data`` (ids, gold attributes); training corpora leave it out.
    """
    if isinstance(docs, DocBin):
        db = docs
    else:
        db = DocBin(store_user_data=store_user_data)
        for doc in docs:
            db.add(doc)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db.to_disk(path)
    return path


def read_docbin(path: Union[str, Path], vocab: Optional[Vocab] = None) -> List[Doc]:
    """The Docs of a ``.spacy`` file (gold span extensions registered)."""
    register_gold_extensions()
    return list(DocBin().from_disk(path).get_docs(vocab or blank_nlp().vocab))


__all__ = ["CONVERTERS", "convert", "write_docbin", "read_docbin"]
