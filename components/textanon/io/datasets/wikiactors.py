"""The WikiActors format: the one place where it is read.

A WikiActors file (TRIR benchmark; also its ``_BK25`` variants, whose background bodies are cut to a quarter)
is a JSON list of records, one per individual:

* ``name``: the individual (record id, class label of the re-identification attack);
* ``public_knowledge``: the Wikipedia body, an attacker's background knowledge;
* ``original_abstract``: the abstract to protect (only for the evaluated individuals; background-only
  records have none, or null);
* ``<method>_abstract``: that abstract anonymized by a method (``ner3``, ``manual``, ...);
* ``dev_abstract``: another individual's abstract, already anonymized (development set of the attack).

Null or empty texts mean "not available for this record". :func:`read_wikiactors` validates every record
into a :class:`WikiActor`; what a consumer requires beyond that (a name, an abstract, unique names) it checks
itself, naming the record with :attr:`WikiActor.where`. :func:`wikiactors_to_docs` turns records into
Docs with the masked spans of every anonymization (``convert --format wikiactors``).
"""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence

from textanon.io.datasets.alignment import masked_spans
from textanon.io.datasets.base import DatasetError, Source, read_json
from textanon.io.datasets.tokenize import exact_span, make_doc

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

NAME = "name"
BACKGROUND = "public_knowledge"
ORIGINAL = "original_abstract"
DEV = "dev_abstract"
SUFFIX = "_abstract"


def method_name(column: str) -> str:
    """The anonymization method of a column: ``"ner3_abstract"`` -> ``"ner3"`` (other names unchanged)."""
    return column[: -len(SUFFIX)] if column.endswith(SUFFIX) else column


@dataclass
class WikiActor:
    """One record of a WikiActors file."""

    index: int  # position in the file
    name: Optional[str]
    background: Optional[str] = None  # ``public_knowledge``
    abstracts: Dict[str, Optional[str]] = field(default_factory=dict)  # every ``*_abstract`` column, file order
    fields: Dict[str, object] = field(default_factory=dict)  # the record as read (e.g. another background column)
    source: str = "WikiActors records"

    @property
    def original(self) -> Optional[str]:
        """The abstract to protect (``original_abstract``); None for background-only records."""
        return self.abstracts.get(ORIGINAL)

    @property
    def dev(self) -> Optional[str]:
        """``dev_abstract``: another individual's anonymized abstract (attack development set)."""
        return self.abstracts.get(DEV)

    @property
    def anonymizations(self) -> Dict[str, Optional[str]]:
        """Column -> anonymized abstract for every method column (not the original, not ``dev_abstract``)."""
        return {k: v for k, v in self.abstracts.items() if k not in (ORIGINAL, DEV)}

    @property
    def where(self) -> str:
        """The record in error messages: ``record 'Name' (#3) of file.json``."""
        named = f"{self.name!r} (#{self.index})" if self.name is not None else f"#{self.index}"
        return f"record {named} of {self.source}"

    def text(self, key: str) -> Optional[str]:
        """The value of any field if it is a string (e.g. a background column other than ``public_knowledge``)."""
        value = self.fields.get(key)
        return value if isinstance(value, str) else None


def read_wikiactors(source: Source, name: Optional[str] = None) -> List[WikiActor]:
    """Validated records of a WikiActors file (a path, or its parsed list with ``name`` for messages).

    Errors (:class:`DatasetError`) name the file and the record: not a list, a record that is not an object,
    a key repeated in a record, a ``name``, ``public_knowledge`` or ``*_abstract`` value that is neither a
    string nor null.
    """
    where = name or (str(source) if not isinstance(source, (list, dict)) else "WikiActors records")
    data = read_json(source, "WikiActors file", unique_keys=True)
    if not isinstance(data, list):
        raise DatasetError(f"WikiActors file {where}: expected a JSON list of records")
    records = []
    for i, raw in enumerate(data):
        if not isinstance(raw, dict):
            raise DatasetError(f"WikiActors file {where}: record #{i} is not an object")
        if raw.get(NAME) is not None and not isinstance(raw[NAME], str):
            raise DatasetError(f"record #{i} of {where}: field {NAME!r} must be a string")
        record = WikiActor(i, raw.get(NAME), fields=raw, source=where)
        for key, value in raw.items():
            if key != BACKGROUND and not key.endswith(SUFFIX):
                continue
            if value is not None and not isinstance(value, str):
                raise DatasetError(f"{record.where}: field {key!r} must be a string or null")
            if key == BACKGROUND:
                record.background = value
            else:
                record.abstracts[key] = value
        records.append(record)
    return records


def evaluated(records: Sequence[WikiActor]) -> List[WikiActor]:
    """The records with an original abstract (the evaluated individuals), in file order."""
    return [r for r in records if r.original]


def wikiactors_to_docs(
    source: Source, columns: Optional[Sequence[str]] = None, nlp: Optional["Language"] = None
) -> List["Doc"]:
    """One Doc per (record, column): the original abstract, masked spans in ``doc.spans["masked"]``.

    ``doc.user_data``: ``name``, ``column`` (``original_abstract`` for the unmasked original),
    ``method``. Records without an original abstract (background only) and empty columns are skipped.
    """
    docs = []
    for rec in read_wikiactors(source):
        if rec.name is None:
            raise DatasetError(f"WikiActors record #{rec.index}: missing field {NAME!r}")
        original = rec.original
        if not original:
            continue
        names = list(rec.anonymizations) if columns is None else columns
        for column in [ORIGINAL, *names]:
            anonymized = rec.fields.get(column)
            if not anonymized:
                continue
            if not isinstance(anonymized, str):
                raise DatasetError(f"WikiActors record {rec.name!r}: field {column!r} must be a string")
            spans = [] if column == ORIGINAL else masked_spans(original, anonymized)
            doc = make_doc(original, spans, nlp)
            doc.spans["masked"] = [exact_span(doc, s, e, "MASKED") for s, e in spans]
            doc.user_data.update({"name": rec.name, "column": column, "method": method_name(column)})
            docs.append(doc)
    return docs


__all__ = [
    "WikiActor",
    "read_wikiactors",
    "evaluated",
    "method_name",
    "wikiactors_to_docs",
    "NAME",
    "BACKGROUND",
    "ORIGINAL",
    "DEV",
    "SUFFIX",
]
