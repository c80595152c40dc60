"""``textanon_entity_linker``: groups mentions of one entity under ``span._.entity_id``.

Links (union-find over the spans of ``doc.spans[spans_key]``):
* equal normalized strings (case, punctuation, titles and leading determiners ignored); a person's name with a
  nickname inside is the name without it, and the nickname alone is that person ('Robert "Bob" Hartley' / "Robert
  Hartley" / "Bob");
* person-name variants: "Mr Galip Yalman" / "Yalman" / "G. Yalman" (surname match with compatible
  initials), and, when no surname fits, the first name alone or the initials written with periods ("Julia Novak" /
  "Julia" / "J." / "J.N."); a short form that fits several full names stays on its own;
* acronyms and their expansion: "European Court of Human Rights" / "ECHR";
* amounts of money given in two currencies side by side: "EUR 5,000 (7,000 US dollars)";
* a name and its form in another script in parentheses right after it, with the same label: "Chen Wei-Ling (陈伟玲)",
  "Kyiv (Київ)" (always: the two are one name).
Entity ids are ``<LABEL>_<n>`` numbered in order of first mention, so masking tags can reuse them.
"""

import re
import unicodedata
from typing import Dict, List

from spacy.tokens import Doc, Span

from textanon.detect.target import (
    COURTESY_TITLES,
    given_name_fits,
    in_other_script,
    initials_fit,
    name_parts,
    without_nicknames,
)
from textanon.doc_text import text_of
from textanon.extensions import DEFAULT_SPANS_KEY, register_extensions
from textanon.labels import PERSON, QUANTITY
from textanon.settings.serialization import SettingsRecord

DETERMINERS = {"the", "a", "an"}
ACRONYM_STOPWORDS = {"of", "the", "for", "and", "on", "in", "de", "du", "des", "la", "le", "&"}
CURRENCY_HINT = re.compile(r"[$€£¥]|\b(?:[A-Z]{3}|euros?|dollars?|pounds?|francs?|lir[ae]s?|roubles?|rubles?)\b", re.I)


def normalize(text: str) -> str:
    """Lower-cased, NFKC, punctuation-free form without titles or leading determiners."""
    text = unicodedata.normalize("NFKC", text).lower()
    words = re.findall(r"\w+", text)
    while len(words) > 1 and (words[0] in COURTESY_TITLES or words[0] in DETERMINERS):
        words = words[1:]
    return " ".join(words)


def acronym(text: str) -> str:
    """Initials of the capitalized content words: "European Court of Human Rights" -> "ECHR"."""
    words = [w for w in re.findall(r"[\w'-]+", text) if w.lower() not in ACRONYM_STOPWORDS]
    return "".join(w[0] for w in words if w[0].isupper()).upper()


class _UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, i: int, j: int) -> None:
        ri, rj = self.find(i), self.find(j)
        if ri != rj:
            self.parent[max(ri, rj)] = min(ri, rj)


class EntityLinker(SettingsRecord):
    """Assigns ``span._.entity_id`` to every span of ``doc.spans[spans_key]``."""

    SETTINGS = ("spans_key", "link_person_variants", "link_acronyms", "link_currencies")

    def __init__(
        self,
        name: str = "textanon_entity_linker",
        spans_key: str = DEFAULT_SPANS_KEY,
        link_person_variants: bool = True,
        link_acronyms: bool = True,
        link_currencies: bool = True,
    ) -> None:
        register_extensions()
        self.name, self.spans_key, self.link_person_variants = name, spans_key, link_person_variants
        self.link_acronyms, self.link_currencies = link_acronyms, link_currencies

    def __call__(self, doc: Doc) -> Doc:
        spans = list(doc.spans.get(self.spans_key, []))
        groups = self.groups(doc, spans)
        counters: Dict[str, int] = {}
        ids: Dict[int, str] = {}
        for i, span in enumerate(spans):
            root = groups[i]
            if root not in ids:
                label = spans[root].label_
                counters[label] = counters.get(label, 0) + 1
                ids[root] = f"{label}_{counters[label]}"
            span._.entity_id = ids[root]
        return doc

    def groups(self, doc: Doc, spans: List[Span]) -> List[int]:
        """The entity of each of ``spans`` as the index of one span of its group (this linker's settings); used by
        the allow list to tell whether an allowed form is a mention of an entity detected elsewhere."""
        uf = _UnionFind(len(spans))
        self._link_equal(spans, uf)
        if self.link_person_variants:
            self._link_person_variants(spans, uf)
        if self.link_acronyms:
            self._link_acronyms(spans, uf)
        if self.link_currencies:
            self._link_currencies(doc, spans, uf)
        self._link_native_forms(doc, spans, uf)
        return [uf.find(i) for i in range(len(spans))]

    @staticmethod
    def _link_equal(spans: List[Span], uf: _UnionFind) -> None:
        first: Dict[str, int] = {}
        nicknames: Dict[str, List[int]] = {}
        for i, span in enumerate(spans):
            key = normalize(span.text)
            if key:
                uf.union(first.setdefault(key, i), i)
            rest, quoted = without_nicknames(span.text) if span.label_ == PERSON else (span.text, [])
            if quoted:
                # 'Robert "Bob" Hartley' is Robert Hartley, and "Bob" alone is him
                key = normalize(rest)
                if key:
                    uf.union(first.setdefault(key, i), i)
                for nickname in quoted:
                    nicknames.setdefault(normalize(nickname), []).append(i)
        for i, span in enumerate(spans):
            owners = {uf.find(j) for j in nicknames.get(normalize(span.text), ())} if span.label_ == PERSON else ()
            if len(owners) == 1:  # one person's nickname (two people's stays on its own)
                uf.union(owners.pop(), i)

    @staticmethod
    def _link_person_variants(spans: List[Span], uf: _UnionFind) -> None:
        # a PERSON span without a word character (the recognizer's "🇹", half of a flag) has no name to link by
        persons = [(i, parts) for i, s in enumerate(spans) if s.label_ == PERSON and (parts := name_parts(s.text))]
        full = [(i, p) for i, p in persons if len(p) >= 2 and all(len(w) > 1 for w in p)]
        full_ids = {i for i, _ in full}
        for i, parts in persons:
            if i in full_ids:
                continue  # a full name links by equality only
            surname, initials = parts[-1], [w[0] for w in parts[:-1]]
            matches = {uf.find(j) for j, fp in full if fp[-1] == surname and initials_fit(initials, fp[:-1])}
            if not matches:  # "Julia" / "J." / "J.N." of "Julia Novak"
                dotted = "." in spans[i].text or spans[i]._.source == "rule:signature_initial"
                matches = {uf.find(j) for j, fp in full if given_name_fits(parts, fp, dotted)}
            if len(matches) == 1:
                uf.union(matches.pop(), i)

    @staticmethod
    def _link_acronyms(spans: List[Span], uf: _UnionFind) -> None:
        expansions: Dict[str, int] = {}
        for i, span in enumerate(spans):
            if len(span) > 1:
                acr = acronym(span.text)
                if len(acr) >= 2:
                    expansions.setdefault(acr, i)
        for i, span in enumerate(spans):
            text = span.text.strip().replace(".", "")
            if len(span) == 1 and text.isupper() and len(text) >= 2 and text in expansions:
                uf.union(expansions[text], i)

    @staticmethod
    def _link_currencies(doc: Doc, spans: List[Span], uf: _UnionFind) -> None:
        for i in range(len(spans) - 1):
            a, b = spans[i], spans[i + 1]
            if a.label_ == QUANTITY == b.label_ and CURRENCY_HINT.search(a.text) and CURRENCY_HINT.search(b.text):
                between = text_of(doc)[a.end_char : b.start_char]  # joined once per Doc
                if (
                    len(between) <= 25
                    and "(" in between
                    and re.fullmatch(r"[\s(]*(?:approximately|about|around|i\.e\.|or|some|circa)?[\s(]*", between)
                ):
                    uf.union(i, i + 1)

    @staticmethod
    def _link_native_forms(doc: Doc, spans: List[Span], uf: _UnionFind) -> None:
        for i in range(len(spans) - 1):
            a, b = spans[i], spans[i + 1]
            if (
                a.label_ == b.label_
                and b.start == a.end + 1
                and doc[a.end].text == "("
                and b.end < len(doc)
                and doc[b.end].text == ")"
                and in_other_script(b.text) != in_other_script(a.text)
            ):
                uf.union(i, i + 1)
