"""``textanon_entity_recognizer``: personal information in the 8 TAB categories.

Combines up to four detectors into ``doc.spans[spans_key]`` (non-overlapping, longest match wins):
(a) the entities of a generic NER already in the pipeline (``doc.ents``, OntoNotes labels) mapped
to TAB labels, (b) a gazetteer of person attributes (DEM/MISC) matched case-insensitively,
(c) regular-expression rules for CODE, DATETIME and QUANTITY, with the identifiers in every format and the names
outside prose of :mod:`textanon.detect.identifiers` (checksums, phones, domains; e-mail headers, salutations,
signatures), and (d) optionally the spans of a
trained TAB-label model (``doc.spans[model_spans_key]``, see ``textanon_ents_to_spans``), restricted
to ``model_labels``. ``span._.source`` records the detector.

Filters on the generic NER (measured on the 27 echr-dev cases, where they removed ~250 spans the
annotator never marked): entities that are only a procedural/institutional word ("the Court", "the
Chamber", "THE FACTS", :data:`NER_STOP_TEXTS`), numbers that are references into legal texts or
paragraph numbering ("§ 1", "Rule 59", "Article 6", "Articles 10, 11 and 14", a number opening a line:
``NUMBER_REFERENCE_WORDS``), counts spelled out in words when ``spelled_counts = false`` (default true,
privacy first; "three toilets": TAB's QUANTITY is a meaningful quantity, an amount, a percentage, a measure),
and PERSON entities with a digit or
a lower-case word that is no name particle, or that are a role ("Lawyer", "Legal Adviser") or a legal text ("Law
no. 1234"). A generic PERSON entity that its context shows to be a place, a firm or a thing is relabelled
("the City Court in Aarhus", "Halden (Ostby and Vale)", "Messrs X, solicitors", "the Reply was served":
:func:`_places_and_things_read_as_persons`), only where every occurrence of the same words is so placed. PERSON
rules (titled names, ranks, designated letters, initials standing alone for a person: "When K. gave evidence",
"T.R. v. Norway") are placed
before the generic NER as the CODE rules are, and the names they find are looked for again in the whole
document (:func:`_name_mentions`), as is the first name of a full name where it stands alone
(:func:`_first_name_mentions`). Error analysis: ``python -m textanon lab ner-errors`` (docs/evaluation_tab.md).
"""

import re
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple, Union

import srsly
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import ensure_path

from textanon.decide.generalization.persons import everyday_word
from textanon.detect.eponyms import MAX_WORDS as EPONYM_MAX_WORDS
from textanon.detect.eponyms import eponym_terms, words_of
from textanon.detect.field_labels import is_field_label
from textanon.detect.identifiers import LETTER_NAME_RULES, find_identifiers
from textanon.detect.lower_case import find_lower_case_names
from textanon.detect.rules import (
    CODE_RULE_NAMES,
    LEGAL_TEXT_WORDS,
    NAME_TITLES,
    OFFICE_WORDS,
    RULES,
    compile_rules,
    find_rule_matches,
)
from textanon.detect.target import COURTESY_TITLES, NAME_LIKE_WORDS, PARTICLES, TITLES, fold, in_other_script
from textanon.doc_text import text_of
from textanon.extensions import DEFAULT_SPANS_KEY, add_warning, register_extensions
from textanon.labels import DATETIME, DEM, LOC, MISC, ONTONOTES_TO_TAB, ORG, PERSON, TAB_LABELS, check_label
from textanon.settings.serialization import SettingsRecord

#: punctuation that never begins or ends an entity (the NER takes a comma in now and then: "Marta Ferreira,"), nor
#: Markdown's emphasis marks ("**Oskar Wiśniewski**": the NER's "Oskar Wiśniewski*" took one star, its mask left
#: "******" and the protected name was no occurrence of itself, never written as the role word)
_EDGE_PUNCTUATION = frozenset({",", ";", ":", "*", "_"})
#: a possessive ending, the text's and not the name's: never the last token of a PERSON entity ("Grace Okoro's mother":
#: the NER's "Grace Okoro's" was masked whole, so the protected name was never written as the role word, "***
#: mother" for "The person's mother")
_POSSESSIVE_ENDINGS = frozenset({"'s", "’s", "'", "’"})
#: hyphens that join the pieces of one word ("Ji-yeon", "Ji‐yeon")
_HYPHENS = ("-", "\u2010", "\u2011")
#: a closing bracket -> its opening one (:data:`OPENING`, :data:`CLOSING`; an entity holds a bracket only with its other
#: half, :meth:`EntityRecognizer._make_span`)
BRACKET_PAIRS = {")": "(", "]": "[", "}": "{"}
_CLOSER_OF = {opening: closing for closing, opening in BRACKET_PAIRS.items()}
#: brackets that never end (opening) or begin (closing) a name
OPENING, CLOSING = frozenset(BRACKET_PAIRS.values()), frozenset(BRACKET_PAIRS)
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
        # a letter's greeting and closing words, which the generic NER sometimes labels ("Dear" as MISC: a masked
        # greeting wrote "*** person,")
        "dear",
        "hi",
        "hello",
        "hey",
        "yours",
        "yours sincerely",
        "yours faithfully",
        "yours truly",
        "sincerely",
        "faithfully",
        "regards",
        "kind regards",
        "best regards",
        "best wishes",
        "many thanks",
        "cheers",
    }
)
#: an HTML or XML tag; a text holding :data:`MARKUP_MIN_TAGS` of them in its first :data:`MARKUP_READ_CHARS`
#: characters gets :data:`MARKUP_WARNING` (textanon reads plain text: a tag next to a masked name is masked with it)
_MARKUP_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]{0,20}(?:\s[^<>\n]{0,200})?/?>")
MARKUP_MIN_TAGS = 3
MARKUP_READ_CHARS = 20_000
MARKUP_WARNING = (
    "textanon_entity_recognizer: the text holds HTML or XML markup; it is read as plain text, so tags next to a "
    "masked span may be masked or broken: read it as HTML (anonymize --markup html; .html files are) or convert it "
    "to text first"
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
        "art",
        "arts",
        "para",
        "paras",
    }
)
#: tokens that continue a list of references ("Articles 10, 11 and 14", "art. 32-1", "Rule 21 para. 3 (b)")
REFERENCE_CHAIN_WORDS = frozenset({",", "and", "or", "to", "-", "–", "(", ")", "&", "et", "seq", "in", "fine"})
#: PERSON rules placed before every other detector (as the CODE rules): a titled name is never absorbed into a
#: longer generic entity ("Mr R. Pekkanen, Mr J. Makarczyk and Mr D. Gotchev" read as one ORG)
#: (not a first name alone, "rule:first_name_mention": a longer span around it wins, "Rocky II", "Terminator 2")
PERSON_FIRST_RULES = (
    frozenset(
        {
            "titled_name",
            "ranked_name",
            "postnominal_name",
            "designated_letter",
            "designated_initials",
            "name_mention",
            "kin_name",  # "daughter Tanya": a person, whatever label the NER gave the name (LOC)
            "kin_name_field",
        }
    )
    | LETTER_NAME_RULES
)
#: PERSON rules whose names are looked for again in the rest of the document (:func:`_name_mentions`); names in
#: e-mail headers, salutations and signatures included (:mod:`textanon.detect.identifiers`), not an initial alone
PROPAGATED_RULES = frozenset({"titled_name", "ranked_name", "postnominal_name", "designated_letter", "table_name"}) | (
    LETTER_NAME_RULES - {"signature_initial"}
)
#: words of a titled name that are not the name ("Mr", "Lord Justice", "Detective Constable", "LJ")
NOT_NAME_WORDS = frozenset(t.lower() for t in TITLES | OFFICE_WORDS) | frozenset(
    "detective police deputy sergeant sgt constable inspector insp superintendent lieutenant captain corporal colonel "
    "lj ljj qc kc".split()
)
NUMBER_LABELS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY"})
#: a person's role or profession in a list of representatives ("Mr T. Okafor, Lawyer", "Legal Adviser"): a generic
#: PERSON entity made only of these words (the last a noun of :data:`ROLE_NOUNS`) is no name
ROLE_NOUNS = frozenset(
    "lawyer lawyers barrister barristers solicitor solicitors advocate advocates attorney attorneys counsel adviser "
    "advisers advisor advisors agent agents co-agent co-agents registrar notary interpreter interpreters expert "
    "experts consultant consultants".split()
)
ROLE_MODIFIERS = frozenset("legal senior junior chief deputy principal assistant special general".split())
#: :data:`textanon.detect.rules.LEGAL_TEXT_WORDS` that are English words: one of them alone is a legal text only before
#: a number ("Law no. 1234"), the others (the parties' languages: "Ustawa", "Kanun") always
ENGLISH_LEGAL_TEXT_WORDS = frozenset(
    "law laws act acts protocol protocols decree decrees resolution directive regulation ordinance constitution "
    "treaty convention article articles rule rules section paragraph recommendation".split()
)
#: words after which a letter with a full stop labels a thing, not a person ("Annex B.", "point C. below")
LABEL_NOUNS = NUMBER_REFERENCE_WORDS | frozenset(
    "appendix part category type class group series vitamin grade level option plan form model zone block wing "
    "room exhibit figure table letter list stage phase step".split()
)
#: abbreviations written as initials that are no person's ("U.K.", "E.U.", law reports "W.L.R.", "Q.B.")
INITIALS_NOT_PERSONS = frozenset(
    "U.K. U.S. U.S.A. E.U. U.N. E.C. E.E.C. G.B. D.C. N.Y. L.A. N.B. P.S. A.D. B.C. R.I.P. S.I. H.M. H.R.H. "
    "Q.C. K.C. M.P. J.P. E.C.R. W.L.R. Q.B. K.B. A.C. C.A. H.L. E.R. P.C. I.C.R. I.R.L.R. E.H.R.R. C.M.L.R. "
    "O.J. U.S.S.R. T.V. I.D. P.O.".split()
)
INITIALS_TOKEN = re.compile(r"(?:[A-Z]\.){1,3}")
#: capitalized words naming an institution or a facility: a capitalized word after one of them and "in"/"at" or ","
#: is a place ("the City Court in Aarhus", "(Northgate Prison, Carrow)")
INSTITUTION_WORDS = frozenset(
    "Court Courts Prison Hospital Clinic School College University Academy Institute Centre Center Council Office "
    "Department Ministry Police Station Barracks Church Cathedral Airport Tribunal Bank Company Factory Camp "
    "Headquarters Embassy Consulate".split()
)
#: lower-case words after "Messrs X" that make it a firm ("Messrs Dunmore Pike, solicitors")
FIRM_WORDS = frozenset("solicitors lawyers advocates attorneys barristers notaries".split())
#: words after "the X" that make X a family name ("the Kelly family"), which stays a PERSON
FAMILY_WORDS = frozenset("family families household brothers sisters couple children parents case".split())


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
        "spelled_counts",
    )

    def __init__(
        self,
        nlp: Language,
        name: str = "textanon_entity_recognizer",
        spans_key: str = DEFAULT_SPANS_KEY,
        label_map: Optional[Dict[str, Optional[str]]] = ONTONOTES_TO_TAB,  # noqa: B006 - copied, never mutated
        use_ner: bool = True,
        use_gazetteer: bool = True,
        use_rules: bool = True,
        extend_titles: bool = True,
        model_spans_key: Optional[str] = None,
        model_labels: Optional[Iterable[str]] = None,
        spelled_counts: bool = True,
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
        self.spelled_counts = spelled_counts
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
                if not label or _procedural(ent, self.spelled_counts):
                    continue
                part = _name_part(ent) if label == PERSON else (ent.start, ent.end)
                part = without_dangling_brackets(doc, *part) if part is not None else None
                if label == PERSON and part is not None and _not_a_name(doc[part[0] : part[1]]):
                    continue
                if part is not None:
                    candidates.append((*part, label, "ner"))
        if self.model_spans_key:
            for span in doc.spans.get(self.model_spans_key, []):
                part = without_dangling_brackets(doc, span.start, span.end)
                if span.label_ in self.model_labels and part is not None:
                    candidates.append((*part, span.label_, "model"))
            candidates = _names_in_dates(candidates, doc.spans.get(self.model_spans_key, []))
        if self.use_gazetteer and self.gazetteer:
            for match_id, start, end in self.matcher(doc):
                label = self.nlp.vocab.strings[match_id]
                if label == DEM and _capitalized_office(doc[start:end]):
                    label = ORG
                candidates.append((start, end, label, "gazetteer"))
        if self.use_rules:
            # the regular-expression rules, then the identifiers in every format and the names outside prose
            text = text_of(doc)
            for start_char, end_char, label, rule in [
                *find_rule_matches(text, self.rules),
                *find_identifiers(text),
                *find_lower_case_names(text, everyday_word),
            ]:
                span = doc.char_span(start_char, end_char, alignment_mode="expand")
                if span is not None and len(span):
                    candidates.append((span.start, span.end, label, "rule:" + rule))
            candidates.extend(_designated_initials(doc))
            candidates.extend(_name_mentions(doc, candidates))
            candidates.extend(_first_name_mentions(doc, candidates))
        if "<" in text_of(doc) and len(_MARKUP_TAG.findall(text_of(doc), 0, MARKUP_READ_CHARS)) >= MARKUP_MIN_TAGS:
            add_warning(doc, MARKUP_WARNING)
        kept = _native_forms(doc, _translations_as_preceding(doc, _resolve_overlaps(doc, candidates)))
        kept = _names_joined_by_particles(doc, _places_and_things_read_as_persons(doc, kept))
        kept = _eponyms(doc, kept)
        spans = [self._make_span(doc, *c) for c in kept]
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=spans)
        return doc

    def _make_span(self, doc: Doc, start: int, end: int, label: str, source: str) -> Span:
        # a line break or a comma the NER took in ("Nadia Al-Khatib\n", "Marta Ferreira,"): the text's own, never part
        # of the entity (its surrogate would take it away, and the name would be no occurrence of the protected name)
        # and a bracket whose other half lies outside the entity ("(Year 8)": the NER's "Year 8)")
        while (
            end - start > 1
            and (
                doc[end - 1].is_space
                or doc[end - 1].text in _EDGE_PUNCTUATION
                or (label == PERSON and doc[end - 1].lower_ in _POSSESSIVE_ENDINGS)
                or (doc[end - 1].lower_ in LEADING_DETERMINERS and _after_line_break(doc, end - 1))  # "Rostant\nThe"
                or (doc[end - 1].text in CLOSING and BRACKET_PAIRS[doc[end - 1].text] not in doc[start : end - 1].text)
            )
        ):
            end -= 1
        # a word the NER cut at its hyphen ("Park Ji-" of "Park Ji-yeon", "Kim Min-"): the rest of the word is the
        # entity's too; left out, it would be glued to the replacement ("another personyeon") and survive
        # (an entity that stops before a hyphen is the NER's choice: "the Robert Zemeckis-directed film")
        while _glued_after_hyphen(doc, end):
            end += 1
        while end - start > 1 and (
            doc[start].lower_ in LEADING_DETERMINERS
            or doc[start].is_space
            or doc[start].text in _EDGE_PUNCTUATION
            or (doc[start].text in OPENING and _CLOSER_OF[doc[start].text] not in doc[start + 1 : end].text)
        ):
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


def _glued_after_hyphen(doc: Doc, end: int) -> bool:
    """Whether the token before ``end`` ends with a hyphen that joins it to a word at ``end`` (no space between)."""
    return (
        0 < end < len(doc)
        and doc[end - 1].text.endswith(_HYPHENS)
        and not doc[end - 1].whitespace_
        and doc[end].text[:1].isalpha()
    )


def without_dangling_brackets(doc: Doc, start: int, end: int) -> Optional[Tuple[int, int]]:
    """The tokens ``start``–``end`` of a model's entity without the opening brackets it ends with and the closing
    brackets it begins with; None when nothing is left. The NER models end entities with a bracket ("Gun Battle at
    Monterey (" before "1957)", "Running Man ("): a mask that swallows it leaves "***the 1950s)" in the output
    (issue 32); a bracket is never part of a name. An entity that stops inside a bracket ("12 Years a Slave (2013"
    before ")", labelled a date) is left as it is: closing it would make a title a date to generalize."""
    while end > start and (doc[end - 1].text in OPENING or doc[end - 1].text in _SIGILS):
        end -= 1  # nor the "#" or "@" of the next hashtag or handle ("#julianovakstudio #" before "art")
    while end > start and doc[start].text in CLOSING:
        start += 1
    return (start, end) if end > start else None


#: the sign that opens a hashtag or a handle, a token of its own
_SIGILS = frozenset({"#", "@"})


def _capitalized_office(span: Span) -> bool:
    """A person-attribute term written as a title, not after "a"/"an" ("the Secretary of State", "Lord Chancellor's
    Department"): a post held by one person names an institution (ORG), while "a secretary", "a Veterinary Surgeon"
    describe a person (DEM)."""
    words = [t for t in span if t.is_alpha and not t.is_stop]
    indefinite = span.start > 0 and span.doc[span.start - 1].lower_ in ("a", "an")
    return not indefinite and bool(words) and all(t.is_title for t in words)


def _name_part(ent: Span) -> Optional[Tuple[int, int]]:
    """The tokens of a NER PERSON entity that can be a name: up to the first word with a digit or the first lower-case
    word that is no name particle ("van", "de": :data:`textanon.detect.target.PARTICLES`) when at least two name words
    come before it ("Ion Rusu said" -> "Ion Rusu", "Lars Solberg +47" -> "Lars Solberg": a phone number after a form's
    name), else none ("Articles 10, 11"; a quoted foreign title, "Ustawa o ...")."""
    for token in ent:
        if any(ch.isdigit() for ch in token.text) or (
            token.is_alpha and token.text[0].islower() and token.lower_ not in PARTICLES
        ):
            words = [t for t in ent.doc[ent.start : token.i] if t.is_alpha]
            return (ent.start, token.i) if len(words) >= 2 else None
    return ent.start, ent.end


def _name_mentions(doc: Doc, candidates) -> List[tuple]:
    """The names found by the PERSON rules (:data:`PROPAGATED_RULES`) wherever else they occur in ``doc``, case
    sensitive: the whole name without title and initials ("Mrs Anne-Marie Andersson" -> "Anne-Marie Andersson"),
    its last word alone when that is not an ordinary word ("Mr Crow" -> "Crow"; not "Mr Will Power" -> "Power"),
    a designated letter ("“K”" -> "K's"). Source ``rule:name_mention``."""
    forms = set()
    for start, end, label, source in candidates:
        if label != PERSON or source[5:] not in PROPAGATED_RULES or not source.startswith("rule:"):
            continue
        words = [
            t.text
            for t in doc[start:end]
            if not t.is_punct
            and not t.is_space
            and t.lower_.rstrip(".") not in NOT_NAME_WORDS
            and not (len(t) == 1 and end - start > 1 and t.i + 1 < len(doc) and doc[t.i + 1].text == ".")
        ]
        words = [w for w in words if w[:1].isupper()]
        if not words:
            continue
        first = next(t.i for t in doc[start:end] if t.text == words[0])
        forms.add(tuple(t.text for t in doc[first:end]))
        last = words[-1]
        if (
            len(words) == 1
            and end - start == 1
            or (len(last) >= 3 and fold(last) not in NAME_LIKE_WORDS and fold(last) not in STOP_WORDS)
        ):
            forms.add((last,))
    by_first: Dict[str, List[tuple]] = {}
    for form in forms:
        by_first.setdefault(form[0], []).append(form)
    found = []
    for token in doc:
        for form in by_first.get(token.text, ()):
            end = token.i + len(form)
            if end <= len(doc) and tuple(t.text for t in doc[token.i : end]) == form:
                found.append((token.i, end, PERSON, "rule:name_mention"))
    return found


def _first_name_mentions(doc: Doc, candidates) -> List[tuple]:
    """The first name of a full person name (a PERSON candidate of any detector with two capitalized name words or
    more) wherever it stands alone in ``doc`` (no capitalized word after it), case sensitive: "Julia Novak ... Julia
    said" -> "Julia"; the entity linker makes it a mention of that name, masked with it. Not an ordinary word ("Will
    Power": not "Will"; :data:`textanon.detect.target.NAME_LIKE_WORDS`, spaCy's stop words), a title or an initial.
    Source ``rule:first_name_mention``."""
    covered, firsts = set(), set()
    for start, end, label, _source in candidates:
        if label != PERSON:
            continue
        covered.update(range(start, end))
        if any(ch.isdigit() for t in doc[start:end] for ch in t.text):
            continue
        words = [t for t in doc[start:end] if t.is_alpha and t.lower_ not in NOT_NAME_WORDS]
        if len(words) < 2 or not all(t.is_title or t.is_upper for t in words):
            continue
        first = words[0].text
        if len(first) >= 2 and fold(first) not in NAME_LIKE_WORDS and fold(first) not in STOP_WORDS:
            firsts.add(first)

    def alone(t):  # not the first word of another capitalized phrase ("Julia Roberts", "of Legal Affairs")
        after = doc[t.i + 1] if t.i + 1 < len(doc) else None
        return after is None or not (after.is_alpha and (after.is_title or after.is_upper))

    return [
        (t.i, t.i + 1, PERSON, "rule:first_name_mention")
        for t in doc
        if t.text in firsts and t.i not in covered and alone(t)
    ]


def _after_line_break(doc: Doc, i: int) -> bool:
    """Whether token ``i`` opens a line (a line break in the whitespace or the space token before it)."""
    if i == 0:
        return False
    before = doc[i - 1]
    return "\n" in (before.text if before.is_space else before.whitespace_)


def _not_a_name(span: Span) -> bool:
    """A generic-NER PERSON entity that is no name: a role in a list of representatives ("Mr T. Okafor, Lawyer",
    "Legal Adviser": :data:`ROLE_NOUNS`), or a legal text ("Ustawa o ...", "Law no. 1234":
    :data:`textanon.detect.rules.LEGAL_TEXT_WORDS`)."""
    words = [t.lower_ for t in span if not t.is_punct]
    if words and words[-1] in ROLE_NOUNS and all(w in ROLE_NOUNS or w in ROLE_MODIFIERS for w in words):
        return True
    if len(words) != 1 or words[0] not in LEGAL_TEXT_WORDS:
        return False
    after = span.doc[span.end] if span.end < len(span.doc) else None
    before_number = after is not None and (after.like_num or after.lower_.rstrip(".") in ("no", "nr", "number"))
    return words[0] not in ENGLISH_LEGAL_TEXT_WORDS or before_number


def _designated_initials(doc: Doc) -> List[tuple]:
    """Initials standing alone for a person ("When K. gave evidence", "the witness (K.)", "[K.] was", "the
    initials T.R.", "T.R. v. Norway"): a token of one to three capital letters each with a full stop, with no
    capitalized word, number or other initial after it (then it is the initial of a name, "M. Smith", or ends a
    sentence), and before it no capitalized word other than a function word ("Annex B.", "Smith Q.C."), no number
    or bracket of a law report ("[1998] 1 W.L.R."), no word that labels things by letters ("point C.":
    :data:`LABEL_NOUNS`); not "I.", "V.", "X." (Roman numerals), nor a well-known abbreviation
    (:data:`INITIALS_NOT_PERSONS`). Source ``rule:designated_initials``."""
    found = []
    for t in doc:
        text = t.text
        if not INITIALS_TOKEN.fullmatch(text) or text in INITIALS_NOT_PERSONS or text in ("I.", "V.", "X."):
            continue
        prev = doc[t.i - 1] if t.i > 0 else None
        nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
        if prev is not None:
            if prev.like_num or (prev.text in ("]", "[") and t.i > 1 and doc[t.i - 2].like_num):
                continue
            if INITIALS_TOKEN.fullmatch(prev.text) or prev.lower_.rstrip(".") in LABEL_NOUNS:
                continue
            if prev.lower_.rstrip(".") in COURTESY_TITLES or prev.lower_.rstrip(".") in NOT_NAME_WORDS:
                continue
            if prev.is_alpha and prev.text[0].isupper() and prev.lower_ not in STOP_WORDS:
                continue
        if nxt is not None and (
            nxt.like_num or INITIALS_TOKEN.fullmatch(nxt.text) or (nxt.text[:1].isupper() and nxt.text[:1].isalpha())
        ):
            continue
        found.append((t.i, t.i + 1, PERSON, "rule:designated_initials"))
    return found


#: the most name particles between two parts of one name ("de los", "van der", "van den")
MAX_PARTICLES = 3


def _names_joined_by_particles(doc: Doc, kept):
    """Two PERSON candidates that only lower-case name particles separate (:data:`textanon.detect.target.PARTICLES`:
    "Ludwig" + "van der" + "Berg", "Maria" + "de" + "Souza") are one name: one PERSON span over both halves and the
    particles, with the first half's source. A recognizer that cuts a name at its particles gave two entities, masked
    as "*** van der ***"; "Ion and Maria" (no particle) stay two. ``kept``: sorted, non-overlapping candidates."""
    out: List[tuple] = []
    for c in kept:
        if out and c[2] == PERSON and out[-1][2] == PERSON and 0 < c[0] - out[-1][1] <= MAX_PARTICLES:
            between = doc[out[-1][1] : c[0]]
            joined = doc[out[-1][0] : c[1]].text
            if "\n" not in joined and all(t.is_lower and t.lower_ in PARTICLES for t in between):
                out[-1] = (out[-1][0], c[1], PERSON, out[-1][3])
                continue
        out.append(c)
    return out


def _places_and_things_read_as_persons(doc: Doc, kept):
    """Generic-NER PERSON spans that the words around them show to be a place, a firm or a thing, relabelled:

    * after an institution and "in"/"at" ("the City Court in Aarhus": LOC; the institution an ORG/LOC span or a
      capitalized word of :data:`INSTITUTION_WORDS`), after "Institution," in parentheses ("(Northgate Prison,
      Carrow)": LOC), or inside parentheses right after an ORG/LOC span with nothing but spans and "and", ","
      in them ("Halden (Ostby and Vale)", "Act (Fondlagen om ...)": the preceding label);
    * a firm after "Messrs" followed by "solicitors" and the like (:data:`FIRM_WORDS`): ORG;
    * after "the", when the document writes each of its words in lower case too, or labels the same words ORG or
      LOC elsewhere ("the Reply was served", "the Quay"): that label, else ORG; not before "family", "case"...
      (:data:`FAMILY_WORDS`, "the Kelly family").

    A name is a name everywhere in a document: the words are relabelled only where *every* generic-NER PERSON span
    with the same text is so placed, and none of the words is part of a PERSON found by a rule ("Mr Crane")."""
    out = list(kept)
    lower_words = {t.text for t in doc if t.is_lower and t.is_alpha}
    other_labels: Dict[str, str] = {}
    rule_person_words = set()
    covered = {t for start, end, _label, _source in out for t in range(start, end)}
    by_end = {c[1]: c for c in out}  # spans do not overlap: one ends at each token at most
    for start, end, label, source in out:
        text = doc[start:end].text
        if label in (ORG, LOC):
            other_labels.setdefault(text, label)
        if label == PERSON and source.startswith("rule:"):
            rule_person_words.update(t.text for t in doc[start:end])
    by_text: Dict[str, List[Tuple[int, Optional[str]]]] = {}
    for i, (start, end, label, source) in enumerate(out):
        if label == PERSON and source == "ner":
            by_text.setdefault(doc[start:end].text, []).append(
                (i, _context_label(doc, out, i, lower_words, other_labels, covered, by_end))
            )
    for places in by_text.values():
        if any(new is None for _, new in places):
            continue
        start, end = out[places[0][0]][:2]
        if any(t.text in rule_person_words for t in doc[start:end] if t.is_alpha):
            continue
        for i, new in places:
            out[i] = (out[i][0], out[i][1], new, out[i][3])
    return out


def _eponyms(doc: Doc, kept):
    """Generic-NER PERSON spans that begin a term named after a person (:mod:`textanon.detect.eponyms`: "Asperger's
    syndrome", "Heimlich maneuver"), relabelled MISC over the whole term, the longest the text holds; the spans inside
    the term are taken in, and a span that crosses its end leaves the PERSON span as it is (privacy first)."""
    if not any(label == PERSON and source == "ner" for _s, _e, label, source in kept):
        return kept
    terms = eponym_terms()
    out = list(kept)
    for i, (start, end, label, source) in enumerate(kept):
        if label != PERSON or source != "ner" or kept[i] not in out:
            continue  # (not in out: taken into the term of a PERSON span before it, "Charcot-Marie-Tooth disease")
        # the term's words after the name: up to EPONYM_MAX_WORDS tokens (a possessive ending is a token of its own)
        for stop in range(min(len(doc), start + 2 * EPONYM_MAX_WORDS), end - 1, -1):
            if words_of(doc[start:stop].text) not in terms:
                continue
            if any(c[0] < stop < c[1] for c in out):
                break  # a span across the term's end
            # the spans inside the term are taken in; the PERSON span becomes the term
            out = [c for c in out if c == kept[i] or not (c[0] >= start and c[1] <= stop)]
            out[out.index(kept[i])] = (start, stop, MISC, source)
            break
    return out


def _context_label(doc: Doc, out, i: int, lower_words, other_labels, covered, by_end) -> Optional[str]:
    """The label that the words around the PERSON span ``out[i]`` give it (see
    :func:`_places_and_things_read_as_persons`), None when they do not show it to be anything but a name."""
    start, end = out[i][:2]
    prev = doc[start - 1] if start > 0 else None
    nxt = doc[end] if end < len(doc) else None
    if prev is None:
        return None
    if nxt is not None and nxt.lower_ in ("'s", "’s", "'", "’", "v", "v."):  # "Smith's", "Smith v. Jones"
        return None
    if prev.lower_.rstrip(".") == "messrs":
        after = [t for t in doc[end : end + 2] if t.text != ","]
        return ORG if after and after[0].lower_ in FIRM_WORDS else None
    if prev.lower_ in ("in", "at") and start >= 2:
        before = out[i - 1] if i > 0 and out[i - 1][1] == start - 1 else None
        if (before is not None and before[2] in (ORG, LOC)) or doc[start - 2].text in INSTITUTION_WORDS:
            return LOC
    if (
        prev.text == ","
        and start >= 2
        and doc[start - 2].text in INSTITUTION_WORDS
        and nxt is not None
        and nxt.text == ")"
    ):
        return LOC
    if prev.text == "(" and nxt is not None and nxt.is_lower and nxt.is_alpha and nxt.lower_ not in STOP_WORDS:
        before = by_end.get(start - 1)  # a foreign name opening a parenthesis: "Act (Fondlagen om pensioner)"
        if before is not None and before[2] in (ORG, LOC):
            return before[2]
    group = _parenthesis_group(doc, start)
    if group is not None:
        open_i, close_i = group
        before = by_end.get(open_i)
        if before is not None and before[2] in (ORG, LOC):
            rest = [doc[t] for t in range(open_i + 1, close_i) if t not in covered]
            if all(t.lower_ in ("and", "&", ",", "-", "/") for t in rest):
                return before[2]
    if prev.lower_ == "the" and not (nxt is not None and nxt.lower_ in FAMILY_WORDS):
        words = [t for t in doc[start:end] if t.is_alpha]
        text = doc[start:end].text
        if text in other_labels:
            return other_labels[text]
        if words and all(t.lower_ in lower_words for t in words):
            return ORG
    return None


def _parenthesis_group(doc: Doc, i: int, reach: int = 12) -> Optional[Tuple[int, int]]:
    """``(index of "(", index of ")")`` of the parentheses around token ``i`` (at most ``reach`` tokens either side,
    not nested), else None."""
    open_i = close_i = None
    for j in range(i - 1, max(-1, i - reach - 1), -1):
        if doc[j].text in (")", "\n") or "\n" in doc[j].text:
            return None
        if doc[j].text == "(":
            open_i = j
            break
    if open_i is None:
        return None
    for j in range(i, min(len(doc), i + reach + 1)):
        if doc[j].text == "(" or "\n" in doc[j].text:
            return None
        if doc[j].text == ")":
            close_i = j
            break
    return None if close_i is None else (open_i, close_i)


def _reference_word_before(doc: Doc, i: int) -> bool:
    """Token ``i`` closes a chain of numbers and list words (:data:`REFERENCE_CHAIN_WORDS`) that starts right after
    a reference word ("Articles 10, 11 and 14": 14; "art. 32-1": 1)."""
    j = i - 1
    while j >= 0:
        token = doc[j]
        if token.lower_ in NUMBER_REFERENCE_WORDS or token.lower_.rstrip(".") in NUMBER_REFERENCE_WORDS:
            return True
        if token.text == "." and j > 0 and doc[j - 1].lower_ in NUMBER_REFERENCE_WORDS:  # "para ." split
            return True
        if token.like_num or token.lower_ in REFERENCE_CHAIN_WORDS or (len(token) == 1 and token.is_alpha):
            j -= 1
            continue
        return False
    return False


def _procedural(ent: Span, spelled_counts: bool = True) -> bool:
    """A NER entity that is a procedural word or a reference number (see the module docstring), or, unless
    ``spelled_counts``, a count spelled out in words ("three toilets", "two applications"): TAB's QUANTITY is a
    *meaningful* quantity (amounts, percentages, measures)."""
    if not spelled_counts and ent.label_ == "CARDINAL" and not any(any(ch.isdigit() for ch in t.text) for t in ent):
        return True
    text = ent.text.lower().strip()
    if text.startswith("the "):
        text = text[4:]
    if text in NER_STOP_TEXTS or is_field_label(text):
        return True
    numbers_only = all(t.like_num or t.lower_ in REFERENCE_CHAIN_WORDS for t in ent)  # "9, 10, 11 and 14" as a DATE
    if (ent.label_ in NUMBER_LABELS or numbers_only) and ent.start > 0:
        prev = ent.doc[ent.start - 1]
        if prev.lower_ in NUMBER_REFERENCE_WORDS or _reference_word_before(ent.doc, ent.start):
            return True
        if (prev.is_space or "\n" in prev.text) and ent.end < len(ent.doc) and ent.doc[ent.end].text == ".":
            return True  # "\n11. The applicant ..." paragraph numbering
    return ent.label_ in NUMBER_LABELS and ent.start == 0 and ent.end < len(ent.doc) and ent.doc[ent.end].text == "."


def _is_code_rule(candidate) -> bool:
    source = candidate[3]
    return source.startswith("rule:") and source[5:] in CODE_RULE_NAMES


def _is_first_rule(candidate) -> bool:
    """A CODE rule match or a titled-name PERSON rule match: placed before the other detectors."""
    source = candidate[3]
    return _is_code_rule(candidate) or (source.startswith("rule:") and source[5:] in PERSON_FIRST_RULES)


def _translations_as_preceding(doc: Doc, kept):
    """A span in parentheses right after an ORG or LOC span is its translation or original name ("Warsaw District
    Court (Sąd Rejonowy)", "Labour Court (Arbetsdomstolen)"): it takes that label (the generic NER reads foreign
    court names as persons)."""
    out = list(kept)
    for i in range(1, len(out)):
        start, end, label, source = out[i]
        prev = out[i - 1]
        if (
            prev[2] in (ORG, LOC)
            and label != prev[2]
            and not _is_first_rule(out[i])
            and start >= 2
            and end < len(doc)
            and doc[start - 1].text == "("
            and doc[end].text == ")"
            and prev[1] == start - 1
        ):
            out[i] = (start, end, prev[2], source)
    return out


#: the source of a name's form in its own script, in parentheses after it (:func:`_native_forms`)
NATIVE_SOURCE = "rule:native_script"


def _native_forms(doc: Doc, kept):
    """Words of another script in parentheses right after a person, place or organization are its name in that
    script ("Chen Wei-Ling (陈伟玲)", "Kyiv (Київ)"): a mention with the label of the name before it
    (:data:`NATIVE_SOURCE`; the entity linker joins it to that name's entity), so that the name does not survive in
    its own script when the name is masked. A detector's span of exactly those words is left as the detector gave
    it (the linker joins it when its label is the name's)."""
    out, starts = [], {c[0]: i for i, c in enumerate(kept)}
    for i, (start, end, label, source) in enumerate(kept):
        out.append((start, end, label, source))
        if label not in (PERSON, LOC, ORG) or end >= len(doc) or doc[end].text != "(":
            continue
        close = end + 1
        while close < len(doc) and close - end <= 6 and doc[close].is_alpha and in_other_script(doc[close].text):
            close += 1
        if close == end + 1 or close >= len(doc) or doc[close].text != ")":
            continue
        j = starts.get(end + 1)
        if j is not None and kept[j][1] == close:
            continue  # a detector's span: _translations_as_preceding and the linker read it
        if any(c[0] < close and end + 1 < c[1] for c in kept):
            continue
        out.append((end + 1, close, label, NATIVE_SOURCE))
    return sorted(out, key=lambda c: (c[0], c[1]))


def _names_in_dates(candidates, model_spans):
    """A name the NER read as the start of a date ("m. Gwen Jenkins 1922": en_core_web_sm's DATE "Jenkins 1922", the
    model's PERSON "Gwen Jenkins"): the model's PERSON span joins the candidates (whatever ``model_labels`` says) and
    the date starts after it, so that neither the given name stays beside a masked date nor the surname is generalized
    as a year ("m. Gwen the 20th century"). Only where the model's name begins before the NER's date and ends inside
    it."""
    persons = [(m.start, m.end) for m in model_spans if m.label_ == PERSON]
    if not persons:
        return candidates
    out = []
    for start, end, label, source in candidates:
        if label == DATETIME and source == "ner":
            for p_start, p_end in persons:
                if p_start < start < p_end < end:
                    out.append((p_start, p_end, PERSON, "model"))
                    start = p_end
        out.append((start, end, label, source))
    return out


def _letter_before_title(doc: Doc, run: List[int]) -> bool:
    """Whether the tokens ``run`` are one letter and its full stop right before a courtesy title ("Q. Mr Delaney",
    "A. Dr Ng": a transcript's question and answer)."""
    after = run[-1] + 1
    return (
        len(run) == 1
        and re.fullmatch(r"[A-Z]\.", doc[run[0]].text) is not None
        and after < len(doc)
        and re.fullmatch(NAME_TITLES + r"\.?", doc[after].text) is not None
    )


def _resolve_overlaps(doc: Doc, candidates):
    """Keep non-overlapping candidates: longest first, then detector priority, then leftmost.

    CODE rule matches (direct identifiers) are placed first: a longer candidate that overlaps one
    ("12 Baker Street" from the NER around the house number "12") keeps only its pieces outside the
    codes ("Baker Street"), so that the identifier is never absorbed into a span that may stay unmasked. CODE rule
    matches that share a token are merged into one (two phone numbers joined by "0958/+44": neither may lose it).
    """

    def key(c):
        start, end, _label, source = c
        return (-(end - start), -PRIORITY.get(source.split(":")[0], 0), start)

    candidates = [c for c in candidates if not _is_code_rule(c)] + _merged(
        [c for c in candidates if _is_code_rule(c)], key
    )
    taken = set()
    kept = []
    for c in sorted((c for c in candidates if _is_code_rule(c)), key=key):
        if not any(t in taken for t in range(c[0], c[1])):
            kept.append(c)
            taken.update(range(c[0], c[1]))
    # a titled name that runs into a code's token keeps its pieces outside it ("CN=Dr Nadia Haddad:mailto:nh@x.org",
    # one token from "Haddad" to the address: "Dr Nadia" had been left to the NER's place "Nadia", kept)
    codes = set(taken)
    for c in sorted((c for c in candidates if _is_first_rule(c) and not _is_code_rule(c)), key=key):
        for piece in _pieces_outside(doc, c, codes):
            if not any(t in taken for t in range(piece[0], piece[1])):
                kept.append(piece)
                taken.update(range(piece[0], piece[1]))
    code_tokens = set(taken)
    for c in sorted((c for c in candidates if not _is_first_rule(c)), key=key):
        for piece in _pieces_outside(doc, c, code_tokens):
            tokens = range(piece[0], piece[1])
            if not any(t in taken for t in tokens):
                kept.append(piece)
                taken.update(tokens)
    return sorted(kept)


def _merged(candidates, key):
    """Candidates that share a token merged into one, with the label and source of the first of them by ``key``."""
    merged = []
    for c in sorted(candidates, key=lambda c: c[0]):  # stable: the earlier of two equal candidates wins
        if merged and c[0] < merged[-1][1]:
            start, end, label, source = min(merged[-1], c, key=key)
            merged[-1] = (merged[-1][0], max(merged[-1][1], c[1]), label, source)
        else:
            merged.append(c)
    return merged


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
        attached = run and (run[0] - 1 in blocked or run[-1] + 1 in blocked)
        if label == PERSON and not attached:  # "Mr M. Eliasson, Lawyer": "Lawyer" is no name
            run = []
        if label == PERSON and run and _letter_before_title(doc, run):
            run = []  # a transcript's "Q. Mr Delaney": an initial comes after the title, never before it
        if run and doc[run[0] : run[-1] + 1].text.lower() in NER_STOP_TEXTS:
            run = []  # "[Dear] Ms Okafor": the greeting left of a longer entity around a name is no entity
        if run and any(doc[t].is_digit or doc[t].text[:1].isupper() for t in run):  # not "and", "the"
            pieces.append((run[0], run[-1] + 1, label, source))
        run = []
    return pieces
