"""What ``anonymize`` writes beside its output while it runs (the review report, the mapping): each needs an output
record together with the original text of its input record.

:class:`InputTexts` wraps the input items and keeps each record's text and target until its output record has
passed :meth:`InputTexts.tee` (the runner yields outputs in input order, so only the records in flight are held);
``tee`` hands each output record, its text and its target to every sink (``sink.add(record, text, target)``).
"""

from pathlib import Path
from typing import Dict, Iterable, Iterator, Optional, Sequence, Tuple, Union


class InputTexts:
    """The texts and targets of input records whose output has not passed yet."""

    def __init__(self, default_target: Optional[str] = None):
        self.default_target = default_target
        self._held: Dict[str, Tuple[str, Optional[str]]] = {}

    def inputs(self, items: Iterable) -> Iterator:
        """``items`` unchanged; each record's text and target held until its output passes :meth:`tee`."""
        for item in items:
            if hasattr(item, "text"):
                self._held[item.id] = (item.text, item.target)
            yield item

    def tee(self, records: Iterable[dict], sinks: Sequence) -> Iterator[dict]:
        """``records`` unchanged; each also given to every sink with its original text (None for an input that
        could not be read) and its target (the record's own, else the default)."""
        for record in records:
            text, target = self._held.pop(record.get("id"), (None, None))
            for sink in sinks:
                sink.add(record, text, target or self.default_target)
            yield record


class SideOutputs:
    """The review report and the mapping of one ``anonymize`` run: set up (and checked) before any work,
    fed while it runs, written at the end.

    report_dir: folder of the HTML review report. mapping_out: the mapping file (:mod:`textanon.mapping`),
    encrypted with ``key`` unless ``encrypted`` is False; mapping_in: an earlier mapping (same key) whose documents
    and pseudonym table are carried over. With the ``pseudonym`` replacement and a mapping, surrogates are kept
    across the whole corpus (corpus scope) and their table is saved in the mapping. Raises ValueError (report
    folder, key, earlier mapping) before anything is anonymized."""

    def __init__(
        self,
        target: Optional[str] = None,
        report_dir: Optional[Union[str, Path]] = None,
        mapping_out: Optional[Union[str, Path]] = None,
        mapping_in: Optional[Union[str, Path]] = None,
        key: Optional[str] = None,
        encrypted: bool = True,
    ):
        from .mapping import Mapping, MappingError, check_key

        self.texts = InputTexts(target)
        self.report = self.mapping = None
        self.mapping_out, self.key, self.encrypted = mapping_out, key, encrypted
        if report_dir is not None:
            from .review.report import ReportWriter

            self.report = ReportWriter(report_dir)
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
                self.mapping = Mapping.read(mapping_in, key) if mapping_in is not None else Mapping()
        except (MappingError, OSError) as err:
            raise ValueError(str(err)) from err
        self._pseudonyms = None

    def prepare(self, nlp, n_process: int) -> int:
        """Give the optimizer the mapping's pseudonym table (corpus scope) when it writes pseudonyms; returns the
        number of processes to use (1 then: the table lives in this process)."""
        from .pseudonyms import Pseudonymizer

        optimizer = next(
            (p for _, p in nlp.pipeline if isinstance(getattr(p, "pseudonyms", None), Pseudonymizer)), None
        )
        if self.mapping is None or optimizer is None:
            return n_process
        optimizer.pseudonyms = Pseudonymizer(optimizer.pseudonym_seed, "corpus", self.mapping.pseudonyms)
        self._pseudonyms = optimizer.pseudonyms
        return 1

    def inputs(self, items: Iterable) -> Iterator:
        """The input items, their texts held for the side outputs."""
        return self.texts.inputs(items) if self.report or self.mapping else iter(items)

    def records(self, records: Iterable[dict]) -> Iterator[dict]:
        """The output records, each written to the report and the mapping as it passes."""
        sinks = [s for s in (self.report, self.mapping) if s is not None]
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
