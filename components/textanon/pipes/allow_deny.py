"""``textanon_allow_deny``: allow and deny lists, applied to the recognizer's spans before any decision.

* **Allow list**: terms that must never be masked (a court's name, a product, "Article 6"). A detected span of
  ``doc.spans[spans_key]`` whose text (whitespace runs as one space) equals an exact entry, or that a regex
  entry matches in full, is removed before linking, risk scoring and the optimizer; it is kept in
  ``doc.spans["allowed"]`` for the review report. Privacy first: an allow entry never un-masks a direct
  identifier: a span labelled CODE or found by a CODE rule, a date of birth, or a span overlapping an occurrence
  of the protected person's name (``doc._.target``, every variant :func:`textanon.detect.target.name_occurrences` finds,
  as the optimizer) stays, and a warning counts the matches ignored. (Whatever the allow list, the optimizer masks every
  occurrence of the target's name.)
* **Deny list**: terms that must always be masked. Every occurrence in the text (exact entries on whole words,
  any run of whitespace between words; regex entries anywhere) becomes a span of ``spans_key`` with the entry's
  label and ``span._.source == "deny"``, which the optimizer always masks. A detected span it overlaps is merged
  into it (the deny span grows to cover both): nothing detected is ever covered less.

An entry is a string (exact text; ``re:PATTERN`` for a regex) or a dict ``{"text": ...}`` / ``{"regex": ...}``
with optional ``"case_sensitive"`` (default: the component's ``case_sensitive``) and, for deny entries,
``"label"`` (default ``deny_label``). Inline lists are settings (``allow``, ``deny``: override them at
``spacy.load``); list files (``.txt``: one entry per line, ``#`` comments; ``.jsonl``: one string or dict per
line) are read by ``nlp.initialize`` (``[initialize.components.textanon_allow_deny]`` ``allow_path``/``deny_path``)
or :meth:`AllowDenyLists.load_files`, and saved with the pipeline.
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Pattern, Sequence, Tuple, Union

import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import ensure_path

from textanon.detect.target import name_occurrences
from textanon.doc_text import text_of
from textanon.extensions import ALLOWED_KEY, DEFAULT_SPANS_KEY, add_warning, register_extensions
from textanon.labels import check_label
from textanon.pipes.entity_linker import EntityLinker
from textanon.pipes.optimizer import DENY_SOURCE, is_direct_identifier
from textanon.render.masking import merge

#: texts of unrelated kinds (a name, a place, a date, an organization, an amount): a regex entry that matches three
#: or more of them in full is a catch-all, and every document it acts on says how many spans it kept
CATCH_ALL_PROBES = ("John Smith", "Manchester", "12 March 2009", "Acme Holdings Ltd", "EUR 5,000")
REGEX_PREFIX = "re:"
Entry = Union[str, dict]


@dataclass(frozen=True)
class ListEntry:
    """One compiled allow or deny entry: ``pattern`` (exact entries are escaped), ``search`` (the pattern found in a
    text: exact entries on whole words only), the label (deny entries)."""

    pattern: Pattern
    search: Pattern
    label: Optional[str] = None
    name: str = "entry"  # "allow entry 2", "allow file entry 5": how warnings name the rule (never its text)
    catch_all: bool = False  # a regex that matches text of every kind (:data:`CATCH_ALL_PROBES`)

    def matches_span(self, text: str) -> bool:
        """True if the whole of ``text`` (a span's text, whitespace runs as one space) matches."""
        return self.pattern.fullmatch(" ".join(text.split())) is not None


def compile_entries(
    entries: Iterable[Entry], case_sensitive: bool, label: Optional[str] = None, where: str = "list"
) -> List[ListEntry]:
    """Compile allow (``label`` None) or deny entries (see the module docstring). Raises ValueError naming the
    entry (``where`` and its position) for an unknown key, a bad regex or an unknown label."""
    out = []
    for i, entry in enumerate(entries):
        name = f"{where} entry {i + 1}"
        if isinstance(entry, str):
            entry = {"regex": entry[len(REGEX_PREFIX) :]} if entry.startswith(REGEX_PREFIX) else {"text": entry}
        if not isinstance(entry, dict) or len({"text", "regex"} & set(entry)) != 1:
            raise ValueError(f"{name}: expected a string or a dict with 'text' or 'regex'")
        unknown = set(entry) - {"text", "regex", "case_sensitive", "label"}
        if unknown:
            raise ValueError(f"{name}: unknown keys {sorted(unknown)}")
        flags = 0 if entry.get("case_sensitive", case_sensitive) else re.IGNORECASE
        is_regex = "regex" in entry
        if is_regex:
            try:
                pattern = re.compile(entry["regex"], flags)
            except re.error as err:
                raise ValueError(f"{name}: invalid regular expression ({err.msg})") from err
        else:
            words = str(entry["text"]).split()
            if not words:
                raise ValueError(f"{name}: empty text")
            pattern = re.compile(r"\s+".join(re.escape(w) for w in words), flags)
        search = pattern if is_regex else re.compile(rf"(?<!\w)(?:{pattern.pattern})(?!\w)", flags)
        entry_label = None if label is None else check_label(entry.get("label", label))
        catch_all = is_regex and sum(pattern.fullmatch(p) is not None for p in CATCH_ALL_PROBES) >= 3
        out.append(ListEntry(pattern=pattern, search=search, label=entry_label, name=name, catch_all=catch_all))
    return out


def read_list_file(path: Union[str, Path]) -> List[Entry]:
    """Entries of a list file: ``.jsonl`` (a JSON string or dict per line) or text (one entry per line; blank lines
    and lines starting with ``#`` skipped). Raises ValueError naming the file and line."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"list file {path} does not exist")
    entries: List[Entry] = []
    for n, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if path.suffix.lower() == ".jsonl":
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise ValueError(f"{path} line {n}: not JSON ({err.msg})") from err
        else:
            entries.append(line.strip())
    return entries


class AllowDenyLists:
    """Removes allow-listed spans (never a direct identifier) and adds deny-listed ones (see the module docstring)."""

    #: the settings of the config (:mod:`textanon.pipes.factories`); the list files are saved with the pipeline
    SETTINGS = ("spans_key", "allow", "deny", "case_sensitive", "deny_label")

    def __init__(
        self,
        name: str = "textanon_allow_deny",
        spans_key: str = DEFAULT_SPANS_KEY,
        allow: Sequence[Entry] = (),
        deny: Sequence[Entry] = (),
        case_sensitive: bool = False,
        deny_label: str = "MISC",
    ):
        register_extensions()
        self.name, self.spans_key, self.case_sensitive = name, spans_key, case_sensitive
        self.deny_label = check_label(deny_label)
        self.allow, self.deny = list(allow), list(deny)
        self.file_allow: List[Entry] = []
        self.file_deny: List[Entry] = []
        self._compile()

    def _compile(self) -> None:
        self._allow = compile_entries(self.allow, self.case_sensitive, where="allow") + compile_entries(
            self.file_allow, self.case_sensitive, where="allow file"
        )
        self._deny = compile_entries(self.deny, self.case_sensitive, self.deny_label, "deny") + compile_entries(
            self.file_deny, self.case_sensitive, self.deny_label, "deny file"
        )

    def initialize(
        self,
        get_examples: Optional[Callable] = None,
        *,
        nlp: Optional[Language] = None,
        allow_path: Optional[str] = None,
        deny_path: Optional[str] = None,
    ) -> None:
        """Read the list files (saved with the pipeline)."""
        self.load_files(allow_path, deny_path)

    def load_files(self, allow_path: Optional[Union[str, Path]] = None, deny_path: Optional[Union[str, Path]] = None):
        """Replace the file entries by those of ``allow_path`` / ``deny_path`` (:func:`read_list_file`)."""
        if allow_path:
            entries = read_list_file(allow_path)
            compile_entries(entries, self.case_sensitive, where=str(allow_path))  # errors name the file
            self.file_allow = entries
        if deny_path:
            entries = read_list_file(deny_path)
            compile_entries(entries, self.case_sensitive, self.deny_label, where=str(deny_path))
            self.file_deny = entries
        self._compile()
        return self

    def __call__(self, doc: Doc) -> Doc:
        spans = list(doc.spans.get(self.spans_key, []))
        if self._allow:
            spans = self._apply_allow(doc, spans)
        if self._deny:
            spans = self._apply_deny(doc, spans)
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=sorted(spans, key=lambda s: s.start))
        return doc

    def _apply_allow(self, doc: Doc, spans: List[Span]) -> List[Span]:
        protected = name_occurrences(text_of(doc), doc._.target) if doc._.target else []
        rules = [next((e for e in self._allow if e.matches_span(span.text)), None) for span in spans]
        groups = EntityLinker().groups(doc, spans) if any(rules) else []
        detected_elsewhere = {g for g, rule in zip(groups, rules) if rule is None}
        kept, allowed, refused = [], [], 0
        linked: Dict[str, int] = {}
        catch_all: Dict[str, int] = {}
        for i, (span, rule) in enumerate(zip(spans, rules)):
            if rule is None:
                kept.append(span)
            elif is_direct_identifier(span) or any(span.start_char < e and s < span.end_char for s, e in protected):
                kept.append(span)
                refused += 1
            elif groups[i] in detected_elsewhere:  # a mention of an entity detected elsewhere: decided with it
                kept.append(span)
                linked[rule.name] = linked.get(rule.name, 0) + 1
            else:
                allowed.append(span)
                if rule.catch_all:
                    catch_all[rule.name] = catch_all.get(rule.name, 0) + 1
        if refused:
            add_warning(
                doc,
                f"{self.name}: the allow list matched {refused} direct identifiers or protected names; "
                "they stay detected",
            )
        for rule_name, n in linked.items():
            add_warning(
                doc,
                f"{self.name}: {rule_name} matched {n} mention(s) of an entity detected elsewhere in the document; "
                "they stay with their entity (masked if it is masked)",
            )
        for rule_name, n in catch_all.items():
            add_warning(doc, f"{self.name}: {rule_name} is a catch-all pattern; it kept {n} span(s) unmasked")
        if allowed:
            doc.spans[ALLOWED_KEY] = SpanGroup(
                doc, name=ALLOWED_KEY, spans=list(doc.spans.get(ALLOWED_KEY, [])) + allowed
            )
        return kept

    def _apply_deny(self, doc: Doc, spans: List[Span]) -> List[Span]:
        regions = self._deny_regions(doc)
        if not regions:
            return spans
        absorbed = set()
        changed = True
        while changed:  # grow each region over the detected spans it overlaps, then to token boundaries
            changed = False
            merged = merge(sorted(regions), shortest_first=True)  # overlapping regions: the first label kept
            regions = []
            for start, end, label in merged:
                for i, s in enumerate(spans):
                    if i not in absorbed and s.start_char < end and start < s.end_char:
                        absorbed.add(i)
                        start, end, changed = min(start, s.start_char), max(end, s.end_char), True
                snapped = doc.char_span(start, end, alignment_mode="expand")
                if snapped is not None and (snapped.start_char, snapped.end_char) != (start, end):
                    start, end, changed = snapped.start_char, snapped.end_char, True
                regions.append((start, end, label))
        out = [s for i, s in enumerate(spans) if i not in absorbed]
        for start, end, label in regions:
            span = doc.char_span(start, end, label=label, alignment_mode="expand")
            if span is not None and len(span):
                span._.source = DENY_SOURCE
                out.append(span)
        return out

    def _deny_regions(self, doc: Doc) -> List[Tuple[int, int, str]]:
        regions = []
        for entry in self._deny:
            regions += [
                (m.start(), m.end(), entry.label) for m in entry.search.finditer(text_of(doc)) if m.end() > m.start()
            ]
        return regions

    # -- serialization: settings from the config; the file entries saved with the pipeline ---------------
    def to_disk(self, path, *, exclude=tuple()) -> None:
        """Write the file entries (``lists.json``); the inline lists are settings, in the pipeline config."""
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "lists.json", {"allow": self.file_allow, "deny": self.file_deny})

    def from_disk(self, path, *, exclude=tuple()) -> "AllowDenyLists":
        """Read the file entries saved by :meth:`to_disk` (the settings come from the config)."""
        path = ensure_path(path)
        if (path / "lists.json").exists():
            lists = srsly.read_json(path / "lists.json")
            self.file_allow, self.file_deny = list(lists["allow"]), list(lists["deny"])
            self._compile()
        return self

    def to_bytes(self, *, exclude=tuple()) -> bytes:
        """The file entries as bytes (see :meth:`to_disk`)."""
        return srsly.msgpack_dumps({"allow": self.file_allow, "deny": self.file_deny})

    def from_bytes(self, data: bytes, *, exclude=tuple()) -> "AllowDenyLists":
        """Read the file entries of :meth:`to_bytes`."""
        lists = srsly.msgpack_loads(data)
        self.file_allow, self.file_deny = list(lists["allow"]), list(lists["deny"])
        self._compile()
        return self


def add_lists(
    nlp: Language,
    allow_path: Optional[Union[str, Path]] = None,
    deny_path: Optional[Union[str, Path]] = None,
    after: str = "textanon_entity_recognizer",
) -> AllowDenyLists:
    """Load list files into the pipeline's ``textanon_allow_deny`` (added after ``after`` if the pipeline has
    none, e.g. one built before it existed); returns the component."""
    if "textanon_allow_deny" not in nlp.pipe_names:
        nlp.add_pipe("textanon_allow_deny", after=after)
    return nlp.get_pipe("textanon_allow_deny").load_files(allow_path, deny_path)
