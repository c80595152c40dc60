"""``textanon_entity_recognizer``: personal information in the 8 TAB categories.

Combines up to four detectors into ``doc.spans[spans_key]`` (non-overlapping, longest match wins):
(a) the entities of a generic NER already in the pipeline (``doc.ents``, OntoNotes labels) mapped
to TAB labels, (b) a gazetteer of person attributes (DEM/MISC) matched case-insensitively,
(c) regular-expression rules for CODE, DATETIME and QUANTITY, and (d) optionally the spans of a
trained TAB-label model (``doc.spans[model_spans_key]``, see ``textanon_ents_to_spans``), restricted
to ``model_labels``. ``span._.source`` records the detector.

Two filters on the generic NER (measured on the 27 echr-dev cases, where they removed ~250 spans the
annotator never marked): entities that are only a procedural/institutional word ("the Court", "the
Chamber", "THE FACTS", :data:`NER_STOP_TEXTS`), and numbers that are references into legal texts or
paragraph numbering ("§ 1", "Rule 59", "Article 6", a number opening a line: ``NUMBER_REFERENCE_WORDS``).
"""

from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple, Union

import srsly
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import ensure_path

from .extensions import DEFAULT_SPANS_KEY, register_extensions
from .labels import ONTONOTES_TO_TAB, PERSON, TAB_LABELS, check_label
from .rules import CODE_RULE_NAMES, RULES, compile_rules, find_rule_matches
from .serialization import SettingsRecord
from .target import COURTESY_TITLES

#: detector priority when two candidates have the same length (higher wins)
PRIORITY = {"rule": 4, "model": 3, "ner": 2, "gazetteer": 1}
#: honorifics absorbed into an adjacent PERSON span ("Mr Ruslan Kurkaev")
LEADING_DETERMINERS = {"the", "a", "an"}
#: NER entities made only of one of these (lower-cased, without "the") are procedural words, not PII
NER_STOP_TEXTS = frozenset(
    {
        "court",
        "chamber",
        "grand chamber",
        "commission",
        "registrar",
        "registry",
        "government",
        "facts",
        "the facts",
        "inter alia",
        "state",
        "board",
        "convention",
        "advisers",
        "union",
        "parliament",
        "rules of court",
    }
)
#: a number right after one of these is a reference into a legal text, not a meaningful quantity
NUMBER_REFERENCE_WORDS = frozenset(
    {
        "§",
        "§§",
        "rule",
        "rules",
        "article",
        "articles",
        "paragraph",
        "paragraphs",
        "para",
        "section",
        "sections",
        "schedule",
        "protocol",
        "no",
        "no.",
        "nos",
        "chapter",
        "annex",
        "point",
        "item",
        "page",
        "pp",
        "p.",
    }
)
NUMBER_LABELS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY"})


@Language.factory(
    "textanon_entity_recognizer",
    default_config={
        "spans_key": DEFAULT_SPANS_KEY,
        "label_map": dict(ONTONOTES_TO_TAB),
        "use_ner": True,
        "use_gazetteer": True,
        "use_rules": True,
        "extend_titles": True,
        "model_spans_key": None,
        "model_labels": None,
    },
    assigns=["doc.spans"],
)
def make_entity_recognizer(
    nlp: Language,
    name: str,
    spans_key: str,
    label_map: Dict[str, Optional[str]],
    use_ner: bool,
    use_gazetteer: bool,
    use_rules: bool,
    extend_titles: bool,
    model_spans_key: Optional[str],
    model_labels: Optional[List[str]],
) -> "EntityRecognizer":
    """Build the ``textanon_entity_recognizer`` component from its config settings."""
    return EntityRecognizer(
        nlp, name, spans_key, label_map, use_ner, use_gazetteer, use_rules, extend_titles, model_spans_key, model_labels
    )


class EntityRecognizer(SettingsRecord):
    """Rule + gazetteer + NER recognizer writing TAB-typed spans to ``doc.spans[spans_key]``."""

    SETTINGS = (
        "spans_key",
        "label_map",
        "use_ner",
        "use_gazetteer",
        "use_rules",
        "extend_titles",
        "model_spans_key",
        "model_labels",
    )

    def __init__(
        self,
        nlp: Language,
        name: str = "textanon_entity_recognizer",
        spans_key: str = DEFAULT_SPANS_KEY,
        label_map: Optional[Dict[str, Optional[str]]] = None,
        use_ner: bool = True,
        use_gazetteer: bool = True,
        use_rules: bool = True,
        extend_titles: bool = True,
        model_spans_key: Optional[str] = None,
        model_labels: Optional[Iterable[str]] = None,
    ) -> None:
        register_extensions()
        self.nlp, self.name, self.spans_key = nlp, name, spans_key
        self.label_map = dict(ONTONOTES_TO_TAB if label_map is None else label_map)
        for tab_label in self.label_map.values():
            if tab_label is not None:
                check_label(tab_label)
        self.use_ner, self.use_gazetteer, self.use_rules, self.extend_titles = (
            use_ner,
            use_gazetteer,
            use_rules,
            extend_titles,
        )
        self.model_spans_key = model_spans_key
        self.model_labels = list(TAB_LABELS if model_labels is None else [check_label(x) for x in model_labels])
        self.rules = compile_rules(RULES)
        self.gazetteer: List[Dict[str, str]] = []
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")

    @property
    def labels(self) -> Tuple[str, ...]:
        """The TAB labels this component can assign."""
        return TAB_LABELS

    # -- gazetteer -----------------------------------------------------------------
    def initialize(
        self,
        get_examples: Optional[Callable] = None,
        *,
        nlp: Optional[Language] = None,
        gazetteer: Optional[Iterable[Dict[str, str]]] = None,
        gazetteer_path: Optional[str] = None,
    ) -> None:
        """Load gazetteer entries (``{term, label, ...}``) from a list or a JSONL file."""
        if gazetteer_path:
            gazetteer = srsly.read_jsonl(gazetteer_path)
        if gazetteer is not None:
            self.set_gazetteer(gazetteer)

    def set_gazetteer(self, entries: Iterable[Dict[str, str]]) -> None:
        """Replace the gazetteer; each entry needs ``term`` and a TAB ``label``."""
        kept = []
        for i, entry in enumerate(entries):
            if "term" not in entry or "label" not in entry:
                raise ValueError(f"gazetteer entry {i} lacks 'term' or 'label'")
            check_label(entry["label"])
            kept.append({"term": entry["term"], "label": entry["label"]})
        self.gazetteer = kept
        self._build_matcher()

    def _build_matcher(self) -> None:
        self.matcher = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        by_label: Dict[str, List[str]] = {}
        for entry in self.gazetteer:
            by_label.setdefault(entry["label"], []).append(entry["term"])
        for label, terms in by_label.items():
            self.matcher.add(label, list(self.nlp.tokenizer.pipe(terms)))

    # -- detection -----------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        candidates = []  # (start_token, end_token, label, source)
        if self.use_ner:
            for ent in doc.ents:
                label = self.label_map.get(ent.label_)
                if label and not _procedural(ent):
                    candidates.append((ent.start, ent.end, label, "ner"))
        if self.model_spans_key:
            for span in doc.spans.get(self.model_spans_key, []):
                if span.label_ in self.model_labels:
                    candidates.append((span.start, span.end, span.label_, "model"))
        if self.use_gazetteer and self.gazetteer:
            for match_id, start, end in self.matcher(doc):
                candidates.append((start, end, self.nlp.vocab.strings[match_id], "gazetteer"))
        if self.use_rules:
            for start_char, end_char, label, rule in find_rule_matches(doc.text, self.rules):
                span = doc.char_span(start_char, end_char, alignment_mode="expand")
                if span is not None and len(span):
                    candidates.append((span.start, span.end, label, "rule:" + rule))
        spans = [self._make_span(doc, *c) for c in _resolve_overlaps(doc, candidates)]
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=spans)
        return doc

    def _make_span(self, doc: Doc, start: int, end: int, label: str, source: str) -> Span:
        while end - start > 1 and doc[start].lower_ in LEADING_DETERMINERS:
            start += 1
        if self.extend_titles and label == PERSON:
            while start > 0 and (doc[start - 1].lower_.rstrip(".") in COURTESY_TITLES) and doc[start - 1].is_title:
                start -= 1
        span = Span(doc, start, end, label=label)
        span._.source = source
        return span

    # -- serialization ---------------------------------------------------------------
    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        """Write the settings (``cfg.json``) and the gazetteer (``gazetteer.jsonl``)."""
        super().to_disk(path, exclude=exclude)
        srsly.write_jsonl(ensure_path(path) / "gazetteer.jsonl", self.gazetteer)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "EntityRecognizer":
        """Rebuild from ``cfg.json`` and reload ``gazetteer.jsonl`` when present; returns ``self``."""
        path = ensure_path(path)
        cfg = srsly.read_json(path / "cfg.json")
        self.__init__(self.nlp, self.name, **cfg)
        if (path / "gazetteer.jsonl").exists():
            self.set_gazetteer(srsly.read_jsonl(path / "gazetteer.jsonl"))
        return self

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        """The settings and the gazetteer, msgpack-encoded."""
        return srsly.msgpack_dumps({"cfg": self._cfg(), "gazetteer": self.gazetteer})

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = tuple()) -> "EntityRecognizer":
        """Restore the settings and the gazetteer written by :meth:`to_bytes`; returns ``self``."""
        msg = srsly.msgpack_loads(data)
        self.__init__(self.nlp, self.name, **msg["cfg"])
        self.set_gazetteer(msg["gazetteer"])
        return self


def _procedural(ent: Span) -> bool:
    """A NER entity that is a procedural word or a reference number (see the module docstring)."""
    text = ent.text.lower().strip()
    if text.startswith("the "):
        text = text[4:]
    if text in NER_STOP_TEXTS:
        return True
    if ent.label_ in NUMBER_LABELS and ent.start > 0:
        prev = ent.doc[ent.start - 1]
        if prev.lower_ in NUMBER_REFERENCE_WORDS:
            return True
        if (prev.is_space or "\n" in prev.text) and ent.end < len(ent.doc) and ent.doc[ent.end].text == ".":
            return True  # "\n11. The applicant ..." paragraph numbering
    return ent.label_ in NUMBER_LABELS and ent.start == 0 and ent.end < len(ent.doc) and ent.doc[ent.end].text == "."


def _is_code_rule(candidate) -> bool:
    source = candidate[3]
    return source.startswith("rule:") and source[5:] in CODE_RULE_NAMES


def _resolve_overlaps(doc: Doc, candidates):
    """Keep non-overlapping candidates: longest first, then detector priority, then leftmost.

    CODE rule matches (direct identifiers) are placed first: a longer candidate that overlaps one
    ("12 Baker Street" from the NER around the house number "12") keeps only its pieces outside the
    codes ("Baker Street"), so that the identifier is never absorbed into a span that may stay unmasked.
    """

    def key(c):
        start, end, _label, source = c
        return (-(end - start), -PRIORITY.get(source.split(":")[0], 0), start)

    taken = set()
    kept = []
    codes = [c for c in candidates if _is_code_rule(c)]
    for c in sorted(codes, key=key):
        if not any(t in taken for t in range(c[0], c[1])):
            kept.append(c)
            taken.update(range(c[0], c[1]))
    code_tokens = set(taken)
    for c in sorted((c for c in candidates if not _is_code_rule(c)), key=key):
        for piece in _pieces_outside(doc, c, code_tokens):
            tokens = range(piece[0], piece[1])
            if not any(t in taken for t in tokens):
                kept.append(piece)
                taken.update(tokens)
    return sorted(kept)


def _pieces_outside(doc: Doc, candidate, blocked):
    """The candidate itself, or its runs of tokens outside ``blocked`` without edge punctuation/space."""
    start, end, label, source = candidate
    if not any(t in blocked for t in range(start, end)):
        return [candidate]
    pieces, run = [], []
    for t in list(range(start, end)) + [None]:
        if t is not None and t not in blocked:
            run.append(t)
            continue
        while run and (doc[run[0]].is_punct or doc[run[0]].is_space):
            run.pop(0)
        while run and (doc[run[-1]].is_punct or doc[run[-1]].is_space):
            run.pop()
        if run:
            pieces.append((run[0], run[-1] + 1, label, source))
        run = []
    return pieces
