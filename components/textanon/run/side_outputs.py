"""What ``anonymize`` writes beside its output while it runs (the review report, the mapping): each needs an output
record together with the original text of its input record.

:class:`InputTexts` wraps the input items and keeps each record's text and target until its output record has
passed :meth:`InputTexts.tee`: the runner yields one output or error record per input item, in input order, so
the held items form a queue and each output takes the oldest (an error record never takes the text of a later
record with the same id); ``tee`` hands each output record, its text and its target to every sink
(``sink.add(record, text, target)``).
"""

import os
from collections import deque
from contextlib import contextmanager
from pathlib import Path
from typing import Deque, Dict, Iterable, Iterator, Optional, Sequence, Tuple, Union

from textanon.render.mapping import Mapping, MappingError, check_key
from textanon.render.pseudonyms import Pseudonymizer
from textanon.review.report import ReportWriter


class InputTexts:
    """The texts and targets of input records whose output has not passed yet."""

    def __init__(self, default_target: Optional[str] = None):
        self.default_target = default_target
        self._held: Deque[Tuple[str, Optional[str], Optional[str]]] = deque()

    def inputs(self, items: Iterable) -> Iterator:
        """``items`` unchanged; each item's id, text and target (None, None for an item that could not be read)
        held, in order, until its output passes :meth:`tee`."""
        for item in items:
            self._held.append((str(item.id), getattr(item, "text", None), getattr(item, "target", None)))
            yield item

    def tee(self, records: Iterable[dict], sinks: Sequence) -> Iterator[dict]:
        """``records`` unchanged; each also given to every sink with its original text (None for an input that
        could not be read, or when the oldest held item is not this record's) and its target (the record's own,
        else the default)."""
        for record in records:
            doc_id, text, target = self._held.popleft() if self._held else (None, None, None)
            if doc_id != str(record.get("id")):
                text, target = None, None
            for sink in sinks:
                sink.add(record, text, target or self.default_target)
            yield record


@contextmanager
def owner_only() -> Iterator[None]:
    """Files and folders created inside are readable by their owner only (umask 077; process-wide while it
    lasts): for files that show original texts, such as the review report's pages."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


class OwnerOnlyReport:
    """A review report writer (``review.report.ReportWriter``) whose pages are created with mode 0600."""

    def __init__(self, report_dir: Union[str, Path]):
        with owner_only():
            self.writer = ReportWriter(report_dir)

    def add(self, record: dict, text: Optional[str] = None, target: Optional[str] = None) -> Path:
        with owner_only():
            return self.writer.add(record, text, target)

    def close(self) -> Path:
        with owner_only():
            return self.writer.close()


class SideOutputs:
    """The review report and the mapping of one ``anonymize`` run: set up (and checked) before any work,
    fed while it runs, written at the end.

    report_dir: folder of the HTML review report (pages created with mode 0600). mapping_out: the mapping file
    (:mod:`textanon.render.mapping`), encrypted with ``key`` unless ``encrypted`` is False; mapping_in: an earlier
    mapping (same key; a plain-text one only when ``encrypted`` is False) whose documents — kept under their own
    runs, never replaced — and pseudonym table are carried over. With a mapping, each output record gets this
    run's identifier (``run``). With the ``pseudonym`` replacement and a mapping, surrogates are kept across the
    whole corpus (corpus scope) and their table is saved in the mapping. Raises ValueError (report folder, key,
    earlier mapping) before
    anything is anonymized."""

    def __init__(
        self,
        target: Optional[str] = None,
        report_dir: Optional[Union[str, Path]] = None,
        mapping_out: Optional[Union[str, Path]] = None,
        mapping_in: Optional[Union[str, Path]] = None,
        key: Optional[str] = None,
        encrypted: bool = True,
    ):
        self.texts = InputTexts(target)
        self.report = self.mapping = None
        self.mapping_out, self.key, self.encrypted = mapping_out, key, encrypted
        if report_dir is not None:
            self.report = OwnerOnlyReport(report_dir)
        if mapping_in is not None and mapping_out is None:
            raise ValueError("--mapping-in needs --mapping-out (where the updated mapping goes)")
        if mapping_out is not None and (Path(mapping_out).is_dir() or not Path(mapping_out).parent.is_dir()):
            raise ValueError(f"the mapping {mapping_out} cannot be written: give a file in an existing folder")
        try:
            if mapping_out is not None and encrypted:
                check_key(key)
            if mapping_out is not None and not encrypted and key:
                raise MappingError("a key was given but --mapping-unencrypted asks for no encryption")
            if mapping_out is not None:
                earlier = Mapping.read(mapping_in, key, unencrypted=not encrypted) if mapping_in is not None else None
                self.mapping = Mapping(earlier.documents, earlier.pseudonyms) if earlier else Mapping()
        except (MappingError, OSError) as err:
            raise ValueError(str(err)) from err
        self._pseudonyms = None

    def prepare(self, nlp, n_process: int) -> int:
        """Give the optimizer the mapping's pseudonym table (corpus scope) when it writes pseudonyms; returns the
        number of processes to use (1 then: the table lives in this process)."""
        optimizer = next(
            (p for _, p in nlp.pipeline if isinstance(getattr(p, "pseudonyms", None), Pseudonymizer)), None
        )
        if self.mapping is None or optimizer is None:
            return n_process
        # keyed by the optimizer's pseudonym key, else by the mapping's key (textanon.render.pseudonyms)
        optimizer.pseudonyms = optimizer.pseudonyms.in_corpus(self.mapping.pseudonyms, self.key)
        self._pseudonyms = optimizer.pseudonyms
        return 1

    def inputs(self, items: Iterable) -> Iterator:
        """The input items, their texts held for the side outputs."""
        return self.texts.inputs(items) if self.report or self.mapping else iter(items)

    def records(self, records: Iterable[dict]) -> Iterator[dict]:
        """The output records, each written to the report and the mapping as it passes."""
        sinks = [s for s in (self.report, self.mapping) if s is not None]
        if self.mapping is not None:
            records = (r if "error" in r else {**r, "run": self.mapping.run} for r in records)
        return self.texts.tee(records, sinks) if sinks else iter(records)

    def close(self) -> Dict[str, str]:
        """Write the report's index and the mapping; returns what was written (``{"report": path, ...}``)."""
        written = {}
        if self.report is not None:
            written["report"] = str(self.report.close())
        if self.mapping is not None:
            if self._pseudonyms is not None:
                self.mapping.pseudonyms = self._pseudonyms.table
            written["mapping"] = str(self.mapping.write(self.mapping_out, self.key, self.encrypted))
        return written
