"""``textanon_optimizer``: the least informative masking that breaks every risky combination.

CP-SAT program (OR-Tools): one boolean per entity, minimize sum(IC(e) * masked(e)) subject to
``sum(masked(e) for e in c) >= 1`` for every risky combination ``c`` (the pairs, thousands in a court case, are stated
per entity: "all its partners masked unless it is", one constraint per entity, the same feasible maskings). With
``replacement = "generalize"`` each entity chooses among keep / generalize at level 1...L / suppress instead (one
boolean per option, exactly one per entity; candidates from ``textanon_generalizer``;
:mod:`textanon.decide.generalization.choice`): cost = the information
lost, and every risky combination broken by suppression or by a generalization whose recomputed risk clears it.
Direct identifiers are fixed to masked (suppressed; see :meth:`MaskingOptimizer._direct_identifiers`; when
generalizing, the protected person's name is replaced by the ``target_role`` setting, "the person", instead of
``***``: a role word true of them, no clue to who they are):

* the protected person (``doc._.target`` or the ``target`` setting): every occurrence of a variant of
  the name in the text (:func:`textanon.detect.target.find_target_mentions`), whatever the recognizer said;
  every entity overlapping an occurrence is masked (all its mentions), an occurrence no entity covers
  becomes a PERSON span of its own. Without a target (or when it does not occur), every full person
  name (a PERSON mention of two name words or more, or PERSON mentions that only a space separates:
  "Maria" + "Gonzalez-Ruiz"; or a courtesy title and a surname: "Dr Patel") is masked, with its surname
  wherever it occurs, and a warning says so;
* every CODE entity: any mention labelled CODE or found by a CODE rule;
* dates of birth (a DATETIME mention right after "born" or "date of birth");
* deny-list spans (``span._.source == "deny"``, added by ``textanon_allow_deny``);
* a PERSON entity of short forms only (a first name, a surname, initials) that may stand for the full name of an
  entity masked or generalized: the linker leaves a short form that fits two full names on its own ("Rocky" of
  "Rocky Balboa" and of another "Rocky ..."), and it must not name the one that was masked;
* every mention whose label is in the ``mask_labels`` setting: by default PERSON, so every person's name, the
  people's around the target too ("Sarah said the complaint by Kevin...": TAB counts a name a direct identifier;
  docs/profiles.md, decision 13); the ``strict`` profile: every label, so every detected span is masked, as NER
  redaction does; ``[]`` leaves every label but the protected names to the risk;
* the spans of ``doc.spans[key]`` for ``key`` in ``extra_spans_keys`` (the LLM anonymizer's), the
  union of the span and every entity it overlaps.

Fail closed: an entity with an unscored mention costs :data:`DEFAULT_IC` per mention; a risky
combination naming an entity id that has no mention has all its entities masked; on timeout or
infeasibility every entity that occurs in an unresolved combination is masked; an entity of a risky combination
with no generalization that breaks it is suppressed; each time ``doc._.anonymization_warnings`` says so (counts
only). ``span._.masked`` is True exactly for the
spans that the applied masks (propagation included) cover entirely.

Whole units (``whole_units = true``, the default): a suppressed mention written as a placeholder (``***``,
``[ORG]``: not a pseudonym, not a generalization) that covers part of a unit of the text (a multi-word span, a run
of proper nouns, a quoted title, the proper-noun part of a noun chunk: :mod:`textanon.decide.units`) is extended to the
whole unit ("four Drama *** Awards" is written "four ***"); a generalized entity with a mention in a unit that
also holds a suppressed mention is suppressed (privacy first); two placeholder masks with the same replacement and
only spaces between them become one; a name written "another person" takes in the given names and initials of its
name unit right before it ("Matilda another person" is written "another person":
:func:`textanon.decide.units.cover_names`). ``doc._.whole_units`` counts what was extended, suppressed and joined.
Generalizing, names written "another person" in a list ("with A, B and C") are written as how many they are ("with
three other people": :func:`textanon.render.masking.join_people`).
"""

import bisect
import logging
import re
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from ortools.sat.python import cp_model
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from textanon.costs import DEFAULT_IC, IC_SCALE, mask_cost  # noqa: F401  (DEFAULT_IC, IC_SCALE: re-exported)
from textanon.decide.generalization.base import fit_articles
from textanon.decide.generalization.choice import breaks, candidates_of, choose, forbidden
from textanon.decide.generalization.role import HiddenSpans, role_masks
from textanon.decide.generalization.targeted_check import to_suppress
from textanon.decide.solver import new_solver
from textanon.decide.units import Unit, cover_names, cover_units, doc_units, overlapping_units
from textanon.detect.given_names import given_name
from textanon.detect.rules import CODE_RULE_NAMES
from textanon.detect.target import (
    COURTESY_TITLES,
    fold,
    name_occurrences,
    name_occurrences_and_pronunciations,
    name_parts,
    name_words,
    other_given_before,
    other_name_after,
    short_form_fits,
)
from textanon.doc_text import text_of
from textanon.extensions import DEFAULT_SPANS_KEY, LLM_SPANS_KEY, add_warning, register_extensions
from textanon.labels import CODE, DATETIME, PERSON
from textanon.pipes.search_risk import SearchRisk
from textanon.render.masking import (
    OTHER_PERSON,
    REPLACEMENT_STYLES,
    Mask,
    absorb_named,
    apply,
    containment_test,
    covered,
    is_other_people,
    join_adjacent,
    join_people,
    merge,
    overlap_test,
    propagate,
    replacement,
)
from textanon.render.operators import Mention, OperatorError, Renderer
from textanon.render.operators.base import untyped
from textanon.render.operators.generalize import Generalize
from textanon.render.operators.pseudonym import Pseudonym
from textanon.render.pseudonyms import PSEUDONYM, RANDOM_KEY_WARNING, Pseudonymizer
from textanon.render.pseudonyms import read_key as read_pseudonym_key
from textanon.settings.serialization import SettingsRecord

logger = logging.getLogger(__name__)
GENERALIZE = "generalize"  # the replacement style that generalizes (textanon.decide.generalization)
TARGET_ID = "PERSON_target"  # entity id of target occurrences that no detected entity covers
#: the source of the search risk's phrase candidates (runs of content words, noun chunks)
PHRASE_SOURCE = "candidate:phrase"
#: what replaces the protected person's name when generalizing (``target_role``; a role word, as "the applicant" in
#: a judgment): true of the target whatever the text says, and no clue to who it is
TARGET_ROLE = "the person"
DENY_SOURCE = "deny"  # ``span._.source`` of a deny-list span (``textanon_allow_deny``): always masked
#: characters before a DATETIME read for a birth cue (:data:`BIRTH_CONTEXT`)
BIRTH_WINDOW = 40
#: a DATETIME right after one of these is a date of birth (a direct identifier)
BIRTH_CONTEXT = re.compile(
    r"(?:\bborn|(?-i:\bb)\.|\bdate\s+of\s+birth|\bbirth[\s_-]*date|\bd\.?o\.?b\.?|\bbirthday|\bbday(?:;[^:\n]*)?"
    # the same label in the languages of forms a user brings ("Fecha de nacimiento: 09/07/1985", "né le", "geb.")
    r"|\bfecha\s+de\s+nacimiento|\bdate\s+de\s+naissance|\bn[ée]e?\s+le|\bgeburtsdatum|\bgeboren(?:\s+am)?|\bgeb\."
    r"|\bdata\s+di\s+nascita|\bnat[oa]\s+il|\bdata\s+urodzenia|\bdata\s+na[șş]terii|\bdata\s+de\s+nascimento"
    r"|\bgeboortedatum|\bf[øö]d[dt](?:elsedato|atum)?)"
    # a form's or a record's field: "DOB: ", "birthDate": "1966-09-30", birth_date='1966-09-30'
    r"[\s:,\"'“”=]*(?:on|in|at|am|le|il|em|den)?[\s:,\"'“”=]*(?:the\s+)?$",
    re.IGNORECASE,
)
#: operators whose output is a placeholder, not a word (``whole_units`` extends and joins their masks)
PLACEHOLDER_OPERATORS = ("replace", "redact")

Char = Tuple[int, int]


class MaskingOptimizer(SettingsRecord):
    """Chooses which entities to mask and writes the anonymized text."""

    SETTINGS = (
        "spans_key",
        "extra_spans_keys",
        "target",
        "replacement",
        "suppression_string",
        "time_limit_s",
        "mask_codes",
        "mask_labels",
        "propagate_mentions",
        "pseudonym_seed",
        "pseudonym_scope",
        "pseudonym_key",
        "target_role",
        "operators",
        "whole_units",
    )

    def __init__(
        self,
        name: str = "textanon_optimizer",
        spans_key: str = DEFAULT_SPANS_KEY,
        extra_spans_keys: List[str] = [LLM_SPANS_KEY],  # noqa: B006 - copied, never mutated; a config literal
        target: Optional[str] = None,
        replacement: str = "suppression",
        suppression_string: str = "***",
        time_limit_s: float = 10.0,
        mask_codes: bool = True,
        mask_labels: List[str] = [PERSON],  # noqa: B006 - copied, never mutated; a config literal
        propagate_mentions: bool = True,
        pseudonym_seed: int = 0,
        pseudonym_scope: str = "document",
        pseudonym_key: Optional[str] = None,
        target_role: str = TARGET_ROLE,
        operators: Dict[str, Any] = {},  # noqa: B006 - copied, never mutated; a config block
        whole_units: bool = True,
        nlp: Optional[Language] = None,
    ) -> None:
        register_extensions()
        self.nlp = nlp  # its search risk checks the generalized output (replacement = "generalize")
        if replacement not in (*REPLACEMENT_STYLES, PSEUDONYM, GENERALIZE):
            styles = (*REPLACEMENT_STYLES, PSEUDONYM, GENERALIZE)
            raise ValueError(f"replacement must be one of {styles}, got {replacement!r}")
        self.pseudonym_seed, self.pseudonym_scope = pseudonym_seed, pseudonym_scope
        #: where the pseudonyms' secret is read (a key file's path or ``$VARIABLE``; never the key itself)
        self.pseudonym_key = pseudonym_key
        #: the surrogates of the ``pseudonym`` style (its ``table`` holds a corpus's, in corpus scope)
        self.pseudonyms = self._pseudonymizer() if replacement == PSEUDONYM else None
        self.name, self.spans_key, self.extra_spans_keys = name, spans_key, list(extra_spans_keys)
        self.target, self.replacement, self.suppression_string = target, replacement, suppression_string
        self.time_limit_s, self.mask_codes, self.propagate_mentions = time_limit_s, mask_codes, propagate_mentions
        #: labels whose every mention is masked whatever its risk: by default every person's name (decision 13), the
        #: ``strict`` profile's all of them
        self.mask_labels = list(mask_labels)
        self.target_role = target_role
        #: a placeholder covering part of a unit (a name, a title...) covers all of it (module docstring)
        self.whole_units = whole_units
        self._units: List[Unit] = []  # the current doc's units (textanon.decide.units), when whole_units
        self._tagged: Optional[List[Tuple[int, str, str]]] = None  # the current doc's (idx, text, tag) per token
        #: how masked mentions are written, per label (``operators`` setting; empty: the ``replacement`` style)
        self.renderer = Renderer(operators)
        self.operators = self.renderer.describe()
        pseudonym_ops = [op for op in self.renderer.all() if isinstance(op, Pseudonym)]
        if self.pseudonyms is None and pseudonym_ops:  # keyed by pseudonym_key, else by an operator's key_file
            files = [str(op.key_file) for op in pseudonym_ops if op.key_file]
            self.pseudonyms = self._pseudonymizer(self.pseudonym_key or (files[0] if files else None))
        self._protected: Set[str] = set()  # the current doc's always-masked entities (never kept)
        self._target_found = False  # whether the current doc's protected names are the target's
        self._spoken: Set[Tuple[int, int]] = set()  # the current doc's pronunciations of the target's name
        self._relatives: Dict[Char, Char] = {}  # an occurrence -> the other name around it, masked with it (_relatives)
        #: the current doc's generalized entities, id -> (level, replacement) (``replacement = "generalize"``)
        self.generalized: Dict[str, Tuple[int, str]] = {}

    def _pseudonymizer(self, source: Optional[str] = None) -> Pseudonymizer:
        """The pseudonymizer of this optimizer, keyed by the secret that ``source`` (default: ``pseudonym_key``)
        names, else ``$TEXTANON_MAPPING_KEY``, else a random one (:func:`textanon.render.pseudonyms.read_key`)."""
        try:
            key = read_pseudonym_key(source or self.pseudonym_key)
            return Pseudonymizer(self.pseudonym_seed, self.pseudonym_scope, key=key)
        except ValueError as err:  # a missing or short key: a clear message, no traceback (the CLI's usage error)
            raise OperatorError(str(err)) from None

    def __call__(self, doc: Doc) -> Doc:
        entities = _entities(doc.spans.get(self.spans_key, []))
        combos = [c for c in (doc._.risky_combinations or []) if c]  # read, never changed: not copied (10,000s a case)
        forced, occurrences = self._direct_identifiers(doc, entities)
        self._protected = forced
        self._units = doc_units(doc, self.spans_key, self.extra_spans_keys) if self.whole_units else []
        self._tagged = None  # the doc's tokens for the role word: read at its first rendering
        self.generalized: Dict[str, Tuple[int, str]] = {}
        masked = self._solve(doc, entities, combos, forced, self.replacement == GENERALIZE)
        masked |= _short_forms_of(entities, masked | set(self.generalized))
        self._render(doc, entities, masked, occurrences, self.generalized)
        if self.generalized:
            self._check_targeted(doc, entities, combos, forced, masked, occurrences)
        return doc

    # -- decisions ---------------------------------------------------------------------------
    def _direct_identifiers(self, doc: Doc, entities: Dict[str, List[Span]]) -> Tuple[Set[str], List[Char]]:
        """Entity ids always masked, and the character spans of protected names masked whatever the
        recognizer said (see the module docstring). May add target spans to ``doc.spans[spans_key]``."""
        forced, occurrences = self._forced(doc, entities)
        self._add_uncovered_names(doc, entities, occurrences)
        forced |= _overlapping(entities, occurrences)  # the PERSON spans just added
        for key in self.extra_spans_keys:
            for i, extra in enumerate(doc.spans.get(key, [])):
                entities[f"{key}_{i}"] = [extra]  # the union of the extra span and what it overlaps
                forced.add(f"{key}_{i}")
        return forced, occurrences

    def forced_entity_ids(self, doc: Doc) -> Set[str]:
        """Ids of the entities of ``doc.spans[spans_key]`` that this optimizer will mask whatever their risk
        (direct identifiers, protected names, spans of ``extra_spans_keys``); changes nothing on the doc (no
        warning, no span): the risk scorer leaves them unscored (``textanon_lm_risk``)."""
        return self._forced(doc, _entities(doc.spans.get(self.spans_key, [])), quiet=True)[0]

    def _forced(self, doc: Doc, entities: Dict[str, List[Span]], quiet: bool = False) -> Tuple[Set[str], List[Char]]:
        """(ids of the detected entities always masked, occurrences of the protected names)."""
        always = set(self.mask_labels)
        forced = {
            eid
            for eid, mentions in entities.items()
            if any(m.label_ in always or is_direct_identifier(m, self.mask_codes) for m in mentions)
        }
        occurrences = self._protected_names(doc, entities, quiet)
        forced |= _overlapping(entities, occurrences)
        for key in self.extra_spans_keys:
            forced |= _overlapping(entities, [(e.start_char, e.end_char) for e in doc.spans.get(key, [])])
        return forced, occurrences

    def _protected_names(self, doc: Doc, entities: Dict[str, List[Span]], quiet: bool = False) -> List[Char]:
        """Occurrences of the target's name; without a target (or if it does not occur), of every full
        person name and its surname (a warning says so unless ``quiet``)."""
        target = doc._.target or self.target
        text = text_of(doc)
        occurrences, spoken = name_occurrences_and_pronunciations(text, target) if target else ([], [])
        self._target_found = bool(occurrences)  # the role word is the target's: never written for other names
        self._spoken = set(spoken)  # its pronunciation at the opening: masked, never written as the role word
        self._relatives = _relatives(text, target, occurrences, entities, self._spoken) if occurrences else {}
        if target and not occurrences and not quiet:
            add_warning(doc, f"{self.name}: target not found in the text; every full person name is masked")
        if not occurrences:
            full_names = {}
            for start, end in _person_runs(text, entities):  # only person names are protected
                words = name_words(text[start:end])
                if len(words) >= 2 or _titled_surname(text[start:end], words):
                    full_names.setdefault(" ".join(words), words)
            for words in full_names.values():
                given = {fold(w) for w in words[:-1]}
                occurrences += [
                    (s, e) for s, e in name_occurrences(text, " ".join(words)) if fold(text[s:e]) not in given
                ]
            occurrences = [(s, e) for s, e, _ in merge(occurrences)]
            if not target and full_names and not quiet:
                add_warning(
                    doc,
                    f"{self.name}: no target given; every full person name ({len(full_names)}) "
                    "and its surname are masked",
                )
        return occurrences

    def _add_uncovered_names(self, doc: Doc, entities: Dict[str, List[Span]], occurrences: List[Char]) -> None:
        """Occurrences of protected names that no entity covers become PERSON spans (``TARGET_ID``)."""
        detected = overlap_test((m.start_char, m.end_char) for mentions in entities.values() for m in mentions)
        uncovered = [(s, e) for s, e in occurrences if not detected(s, e)]
        new_spans = [doc.char_span(s, e, label=PERSON, alignment_mode="expand") for s, e in uncovered]
        new_spans = [s for s in new_spans if s is not None and len(s)]
        if new_spans:
            for span in new_spans:
                span._.source, span._.entity_id = "target", TARGET_ID
            entities.setdefault(TARGET_ID, []).extend(new_spans)
            group = sorted(list(doc.spans.get(self.spans_key, [])) + new_spans, key=lambda s: (s.start, s.end))
            doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=group)
            add_warning(
                doc,
                f"{self.name}: {len(new_spans)} occurrences of a protected name were not detected "
                "as entities; they are masked",
            )

    def _solve(
        self,
        doc: Doc,
        entities: Dict[str, List[Span]],
        combos: List[List[str]],
        forced: Set[str],
        generalize: bool = False,
    ) -> Set[str]:
        forced = set(forced)
        unresolved = [c for c in combos if forced.isdisjoint(c)]
        broken = [c for c in unresolved if not all(map(entities.__contains__, c))]
        if broken:  # fail closed: a combination naming an unknown id is broken by masking all of it
            unknown = {e for c in broken for e in c if e not in entities}
            known = {e for c in broken for e in c if e in entities}
            forced |= known
            add_warning(
                doc,
                f"{self.name}: {len(broken)} risky combinations name {len(unknown)} entity ids with no "
                f"mention; all {len(known)} detected entities of those combinations are masked",
            )
            unresolved = [c for c in unresolved if forced.isdisjoint(c) and all(e in entities for e in c)]
        if not unresolved:
            return forced
        if generalize:
            return self._solve_generalize(doc, entities, unresolved, forced)

        ids = sorted({e for c in unresolved for e in c})
        model = cp_model.CpModel()
        x = {e: model.new_bool_var(e) for e in ids}
        neighbours: Dict[str, List[str]] = {}
        for c in unresolved:
            if len(c) == 2 and c[0] != c[1]:
                neighbours.setdefault(c[0], []).append(c[1])
            else:
                model.add_bool_or([x[e] for e in c])
        for e, others in neighbours.items():
            model.add_bool_and([x[o] for o in others]).only_enforce_if(~x[e])
        model.minimize(cp_model.LinearExpr.weighted_sum([x[e] for e in ids], [self._cost(entities[e]) for e in ids]))
        solver = new_solver(self.time_limit_s)
        status = solver.solve(model)
        if status == cp_model.OPTIMAL or status == cp_model.FEASIBLE:
            if status == cp_model.FEASIBLE:
                add_warning(
                    doc, f"{self.name}: solver stopped at the time limit with a feasible, possibly non-minimal masking"
                )
            return forced | {e for e in ids if solver.boolean_value(x[e])}
        add_warning(
            doc,
            f"{self.name}: solver status {solver.status_name(status)}; every entity in a risky combination is masked",
        )
        return forced | set(ids)

    def _solve_generalize(
        self, doc: Doc, entities: Dict[str, List[Span]], unresolved: List[List[str]], forced: Set[str]
    ) -> Set[str]:
        """Keep / generalize / suppress (module docstring); sets ``self.generalized``, returns the suppressed ids."""
        combo_breaks = breaks(doc, entities, unresolved)
        ids = {e for c in unresolved for e in c}
        breakable = {e for b in combo_breaks for e in b}
        if ids - breakable:
            add_warning(
                doc,
                f"{self.name}: {len(ids - breakable)} of {len(ids)} entities in risky combinations have no "
                "generalization that breaks one; they are kept or suppressed",
            )
        tied = (doc._.generalization_risk or {}).get("tied", ())
        suppressed, generalized, status = choose(
            entities, unresolved, combo_breaks, self._cost, self.time_limit_s, forbidden(doc), forced, tied
        )
        if suppressed is None:
            add_warning(doc, f"{self.name}: solver status {status}; every entity in a risky combination is suppressed")
            return forced | ids
        if status == "FEASIBLE":
            add_warning(
                doc, f"{self.name}: solver stopped at the time limit with a feasible, possibly non-minimal choice"
            )
        self.generalized = generalized
        return forced | suppressed

    def _check_targeted(self, doc, entities, combos, forced, masked: Set[str], occurrences: List[Char]) -> None:
        """With a search risk whose targeted risk is on: suppress the generalizations its BM25 attacker still needs
        (:mod:`textanon.decide.generalization.targeted_check`); when the target still ranks within ``k_rank`` without
        them, decide again by suppression only. Re-renders the doc when anything changed."""
        procs = [proc for _, proc in self.nlp.pipeline] if self.nlp is not None else []
        search = next((p for p in procs if isinstance(p, SearchRisk)), None)
        if search is None or not search.targeted_risk:
            return
        costs = {e: self._cost(entities[e]) / IC_SCALE for e in self.generalized}
        demote, exhausted = to_suppress(doc, search, self.generalized, costs)
        raised = 0
        while demote and not exhausted:  # first a more general level, where one keeps every combination broken
            up = self._raise_levels(doc, entities, combos, demote, masked)
            if not up:
                break
            raised += len(up)
            masked = masked | (demote - set(up))
            self.generalized = {e: up.get(e, g) for e, g in self.generalized.items() if e not in masked}
            self._render(doc, entities, masked, occurrences, self.generalized, final=False)
            costs = {e: self._cost(entities[e]) / IC_SCALE for e in self.generalized}
            demote, exhausted = to_suppress(doc, search, self.generalized, costs)
        if raised:
            add_warning(doc, f"{self.name}: {raised} generalizations made more general for the search attacker")
        if exhausted:
            chosen = dict(self.generalized)
            masked = self._solve(doc, entities, combos, forced, generalize=False)
            self.generalized = self._generalize_suppressed(doc, entities, combos, masked - set(forced), chosen)
            if self.generalized:
                masked = masked - set(self.generalized)
                self._render(doc, entities, masked, occurrences, self.generalized, final=False)
                costs = {e: self._cost(entities[e]) / IC_SCALE for e in self.generalized}
                demote, exhausted = to_suppress(doc, search, self.generalized, costs)
                if exhausted:
                    self.generalized, masked = {}, masked | set(self.generalized)
                else:
                    self.generalized = {e: g for e, g in self.generalized.items() if e not in demote}
                    masked = masked | demote
            if self.generalized:
                add_warning(
                    doc,
                    f"{self.name}: the search attacker still finds the target with the generalizations suppressed; "
                    f"decided again by suppression, then {len(self.generalized)} of the suppressed entities "
                    "generalized where the attacker does not need them",
                )
            else:
                add_warning(
                    doc,
                    f"{self.name}: the search attacker still finds the target with the generalizations suppressed; "
                    "decided again by suppression only",
                )
        elif demote:
            add_warning(doc, f"{self.name}: {len(demote)} generalized entities suppressed for the search attacker")
            self.generalized = {e: g for e, g in self.generalized.items() if e not in demote}
            masked = masked | demote
        elif not raised:
            return
        masked = self._untie(doc, masked)
        self._render(doc, entities, masked, occurrences, self.generalized)

    def _untie(self, doc: Doc, masked: Set[str]) -> Set[str]:
        """``masked`` with every generalized half of a tied pair whose other half is no longer generalized (the search
        attacker's check suppressed it): suppressed too, never "film critic" -> "film *** another person"
        (:func:`textanon.decide.generalization.choice.choose`'s ``tied``); ``self.generalized`` without them."""
        tied = [tuple(pair) for pair in (doc._.generalization_risk or {}).get("tied", ())]
        while True:
            loose = {
                a for pair in tied for a, b in (pair, pair[::-1]) if a in self.generalized and b not in self.generalized
            }
            if not loose:
                return masked
            self.generalized = {e: g for e, g in self.generalized.items() if e not in loose}
            masked = masked | loose

    def _generalize_suppressed(
        self,
        doc: Doc,
        entities: Dict[str, List[Span]],
        combos: List[List[str]],
        suppressed: Set[str],
        chosen: Dict[str, Tuple[int, str]],
    ) -> Dict[str, Tuple[int, str]]:
        """After a decision by suppression only (``suppressed``, direct identifiers left out), the entities of it that
        the first decision had generalized (``chosen``) that may take that generalization back: every risky
        combination of the entity stays broken (by another suppressed entity, or by that level:
        :func:`textanon.decide.generalization.choice.breaks`) and the index forbids the level neither alone nor beside
        the other entities' options. Greedy, most informative first; every kept entity stays kept."""
        live = [c for c in combos if all(e in entities for e in c)]
        combo_breaks = breaks(doc, entities, live)
        banned = _bans_of(doc)
        state: Dict[str, Optional[int]] = {e: (None if e in suppressed else 0) for e in entities}
        out: Dict[str, Tuple[int, str]] = {}
        for e in sorted(set(chosen) & suppressed, key=lambda e: -self._cost(entities[e])):
            level = chosen[e][0]
            ok = all(
                level in allowed.get(e, []) or any(f != e and state.get(f) is None for f in combo)
                for combo, allowed in zip(live, combo_breaks)
                if e in combo
            )
            ok = ok and not _banned(banned, e, level, state.get)
            if ok:
                state[e] = level
                out[e] = chosen[e]
        return out

    def _raise_levels(
        self, doc: Doc, entities: Dict[str, List[Span]], combos: List[List[str]], demote: Set[str], masked: Set[str]
    ) -> Dict[str, Tuple[int, str]]:
        """For the generalized entities of ``demote`` (the search attacker still needs their words), the next more
        general candidate each may take instead of being suppressed: one that breaks every risky combination of
        the entity that no other entity's choice breaks (:func:`textanon.decide.generalization.choice.breaks`), and that
        the index forbids neither alone nor beside the other entities' current choices
        (:func:`textanon.decide.generalization.choice.forbidden`). Entities without one are left out (suppressed)."""
        live = [c for c in combos if all(e in entities for e in c)]
        combo_breaks = breaks(doc, entities, live)
        banned = _bans_of(doc)
        state = {e: g[0] for e, g in self.generalized.items()}  # entity -> level; kept entities: 0, masked: absent
        out: Dict[str, Tuple[int, str]] = {}

        def option(e: str) -> Optional[int]:
            return None if e in masked else state.get(e, 0)

        def broken_by_others(e: str, combo: List[str], allowed: Dict[str, List[int]]) -> bool:
            return any(f != e and (f in masked or option(f) in allowed.get(f, [])) for f in combo)

        for e in sorted(demote):
            current = state.get(e)
            if current is None:
                continue
            for cand in candidates_of(entities[e]):
                level = cand["level"]
                if level <= current or cand.get("ic") is None:
                    continue
                ok = all(
                    level in allowed.get(e, [])
                    for combo, allowed in zip(live, combo_breaks)
                    if e in combo and not broken_by_others(e, combo, allowed)
                )
                ok = ok and not _banned(banned, e, level, option)
                if ok:
                    state[e] = level
                    out[e] = (level, cand["text"])
                    break
        return out

    @staticmethod
    def _cost(mentions: List[Span]) -> int:
        """Masking cost in milli-nats: :func:`textanon.costs.mask_cost`."""
        return mask_cost(mentions)

    # -- output --------------------------------------------------------------------------------
    def _render(
        self,
        doc: Doc,
        entities: Dict[str, List[Span]],
        masked: Set[str],
        occurrences: List[Char],
        generalized: Optional[Dict[str, Tuple[int, str]]] = None,
        final: bool = True,
    ) -> None:
        """Write the decision on the doc: ``doc._.masks``, ``doc._.anonymized_text``, ``doc._.whole_units``, the
        warnings and, when ``final``, every span's ``masked`` / ``treatment`` / ``operator`` (a rendering the targeted
        check reads and then replaces sets only the text and its masks: the last rendering writes the spans)."""
        masks: List[Mask] = []
        surfaces: Dict[str, str] = {}
        doc_text = text_of(doc)
        generalized = {e: g for e, g in (generalized or {}).items() if e not in masked}
        # privacy first: no generalization beside a suppressed part of the same unit (decided again at each
        # rendering: the targeted check renders the same choice again, generalizations included)
        in_units = self._suppressed_in_units(entities, masked, generalized)
        if in_units:
            generalized = {e: g for e, g in generalized.items() if e not in in_units}
            masked = set(masked) | in_units
        placeholders: Set[str] = set()  # the replacements that are placeholders (whole_units extends and joins)
        renderer, warnings = self.renderer, list(self.renderer.warnings())
        rendered_by: Dict[str, Optional[str]] = {}  # replacement -> the operator that wrote it

        def add(start: int, end: int, rep: Optional[str], operator: Optional[str] = None) -> None:
            if rep is None:  # the keep operator: the mention stays
                return
            masks.append((start, end, rep))  # the mask, and its surface for propagation
            surfaces.setdefault(re.sub(r"\s+", " ", doc_text[start:end].strip()), rep)
            rendered_by.setdefault(rep, operator)

        holds_name = _overlapping(entities, occurrences) | {TARGET_ID}  # the protected name: never shown at all
        # words the search risk proposed (a verb, a common noun: "lodged", "applicant") have no type a surrogate of
        # the same kind could keep: pseudonyms (the style, or a label's pseudonym operator) suppress them, never a
        # random term ("the pneumonia"); read only where pseudonyms are written (every rendering passes here)
        plain_words = (
            {e for e, ms in entities.items() if ms and all((m._.source or "") == PHRASE_SOURCE for m in ms)}
            if self.replacement == PSEUDONYM or any(isinstance(o, Pseudonym) for o in renderer.all())
            else set()
        )
        in_name = containment_test(occurrences)  # whether a mention lies inside an occurrence of the protected name

        def render(
            text: str, label: str, eid: str, start: int, end: int, canonical: str, protected: bool, kind: str = ""
        ):
            mention = Mention(
                text,
                label,
                eid,
                canonical,
                start,
                end,
                doc_text,
                None,
                self.pseudonyms,
                protected,
                eid in holds_name,
                eid in plain_words,
                self.suppression_string,
            )
            style = (PSEUDONYM if self.replacement == PSEUDONYM else "replace") if renderer else None
            entity = (canonical, kind or label)  # a pseudonym follows its entity's surrogate and type
            rep, operator = renderer.render(
                mention,
                lambda: self._replacement(label, eid, text, entity, eid in plain_words, (doc_text, start)),
                warnings,
                style,
            )
            if rep is not None and (
                operator in PLACEHOLDER_OPERATORS or (operator is None and self.replacement != PSEUDONYM)
            ):
                placeholders.add(rep)
            return rep, operator

        if renderer:  # a generalized entity whose label has another operator is written by that operator
            moved = {e for e in generalized if not isinstance(self._operator(entities, e), (Generalize, type(None)))}
            generalized = {e: g for e, g in generalized.items() if e not in moved}
            masked = set(masked) | moved
        for eid, (level, text) in sorted(generalized.items()):
            for span in entities.get(eid, []):
                add(span.start_char, span.end_char, text, Generalize.name if renderer else None)
        if self.pseudonyms is not None:
            persons = [s.text for mentions in entities.values() for s in mentions if s.label_ == PERSON]
            self.pseudonyms.start_document(doc_text, persons)
        person_operator = renderer.operator_for(PERSON)
        # the protected person's role word; without a target (or when it does not occur) the protected names are
        # several people's: none is "the person"
        role = self.target_role if self.replacement == GENERALIZE and self._target_found else ""
        if person_operator is not None and person_operator.name not in (Generalize.name, "keep"):
            role = ""  # an operator chosen for PERSON writes the protected person's name too
        name = max((doc_text[s:e] for s, e in occurrences), key=len, default="")  # the target's canonical form

        def add_target(start: int, end: int) -> None:  # an occurrence of the protected name, rendered as a mask
            add(start, end, *render(doc_text[start:end], PERSON, TARGET_ID, start, end, name, True))

        if role:  # first: at equal extent the role wins the merge over a masked entity's *** (a name variant)
            # written to fit the words around the name ("the American actress", "the person's"); premodifiers that
            # another mask covers are never copied (generalization/role.py)
            if self._tagged is None:  # the same tokens at every rendering of the doc: read once
                self._tagged = [(t.idx, t.text, t.tag_) for t in doc] if doc.has_annotation("TAG") else []
            tagged = self._tagged
            hidden = [m for e in set(masked) | set(generalized) for m in entities.get(e, [])]
            hidden = [m for m in hidden if not in_name(m.start_char, m.end_char)]
            others = HiddenSpans([(m.start_char, m.end_char) for m in hidden])  # built once, asked per occurrence
            forms = {m.text for m in hidden}

            def role_at(first: int, last: int) -> List[Mask]:
                return role_masks(doc_text, first, last, role, tagged, others, forms)

            # the name's pronunciation at the opening ("( joh-LEE; born") is no reference to the person: masked as
            # the name is without a role word, never "The person ( the person; born"
            for start, end in occurrences:
                if (start, end) in self._spoken:
                    add_target(start, end)
                    continue
                if (start, end) in self._relatives:  # "D/o K. ***", never "D/o K. the person"
                    add_target(*self._relatives[(start, end)])
                    continue
                for mask in role_at(start, end):
                    add(*mask, Generalize.name if renderer else None)
        for eid in sorted(masked):
            mentions = entities.get(eid, [])
            # the entity's form: its longest mention that is no code (a handle "@lena.vogel" linked to "Lena Vogel"
            # is not her name's form); a code mention keeps a code's surrogate, its own shape
            codes = {id(m) for m in mentions if is_code(m.label_, m._.source)}
            longest = max(mentions, key=lambda m: (id(m) not in codes, len(m.text)), default=None)
            canonical, kind = (longest.text, longest.label_) if longest is not None else ("", "")
            for span in mentions:
                start, end = span.start_char, span.end_char
                if role and in_name(start, end):
                    for first, last, rep in role_at(start, end):  # the article before a title (empty mask) once
                        if last > first:
                            add(first, last, rep, Generalize.name if renderer else None)
                    continue
                protected = eid in self._protected
                own = id(span) in codes and len(codes) < len(mentions)
                form, form_kind = (span.text, span.label_) if own else (canonical, kind)
                label = span.label_
                if label != PERSON and in_name(start, end) and not own:
                    label = form_kind = PERSON  # the protected name, whatever the NER read ("it's [Rhiannon]ORG"):
                    # a person's surrogate, never a town's
                add(start, end, *render(span.text, label, eid, start, end, form, protected, form_kind))
        for start, end in [] if role else occurrences:
            add_target(*self._relatives.get((start, end), (start, end)))  # with the other name around it
        if self.pseudonyms is not None and self.pseudonyms.random_key and self.pseudonyms.drawn:
            warnings.append(RANDOM_KEY_WARNING)
        masks = propagate(doc_text, masks, surfaces) if self.propagate_mentions else merge(masks)
        if self.whole_units:
            masks, extended = cover_units(masks, self._units, placeholders)
            masks, joined = join_adjacent(doc_text, masks, placeholders)
            # "Matilda another person" -> "another person"
            masks, named = cover_names(doc_text, masks, self._units, set(OTHER_PERSON), given_name)
            extended += named
            doc._.whole_units = {"extended": extended, "suppressed": len(in_units), "joined": joined}
        written = self.pseudonyms.written if self.pseudonyms is not None else set()  # "a Moldavian" -> "an Irish"
        general = {text for _, text in generalized.values()}
        if general:  # "the eccentric person another person" -> "the eccentric person"
            masks, _ = absorb_named(doc_text, masks, general)
            if OTHER_PERSON[0] in general:  # "with another person, another person and another person"
                masks, _ = join_people(doc_text, masks)  # -> "with three other people"
                general |= {rep for _, _, rep in masks if is_other_people(rep)}
            general |= {text + "'s" for text in general}  # "director Ann Lee's" -> "person's"
        if generalized or role or written:  # "an American" -> "a North American", not "an North American"
            fitted = general | ({role} if role else set()) | written
            masks = fit_articles(doc_text, masks, fitted)
        doc._.masks = [list(m) for m in masks]
        doc._.anonymized_text = apply(doc_text, masks)
        for warning in warnings:
            add_warning(doc, warning)
        if not final:
            return
        treatment = {e: f"generalize:{level}" for e, (level, _) in generalized.items()}
        treatment.update({e: "suppress" for e in masked})
        starts = [m[0] for m in masks]
        for key in [self.spans_key] + self.extra_spans_keys:
            for i, span in enumerate(doc.spans.get(key, [])):
                span._.masked = covered(masks, span.start_char, span.end_char)
                if self.replacement == GENERALIZE:
                    eid = span._.entity_id or f"span_{i}"
                    span._.treatment = treatment.get(eid, "suppress" if span._.masked else "keep")
                if renderer and span._.masked:
                    mask = masks[max(0, bisect.bisect_right(starts, span.start_char) - 1)]
                    span._.operator = rendered_by.get(mask[2])

    def _suppressed_in_units(
        self, entities: Dict[str, List[Span]], masked: Set[str], generalized: Dict[str, Tuple[int, str]]
    ) -> Set[str]:
        """The generalized entities with a mention in a unit (``whole_units``) that also holds a mention of a
        suppressed entity written as a placeholder: they are suppressed too (the unit is masked whole)."""
        if not self._units or not generalized:
            return set()
        suppressed = [
            (m.start_char, m.end_char)
            for e in masked
            for m in entities.get(e, [])
            if self._writes_placeholder(m.label_)
        ]
        in_units = overlap_test(overlapping_units(self._units, suppressed))
        return {e for e in generalized if any(in_units(m.start_char, m.end_char) for m in entities.get(e, []))}

    def _writes_placeholder(self, label: str) -> bool:
        """Whether a suppressed mention labelled ``label`` is written as a placeholder (``***``, ``[ORG]``, an empty
        redaction), not as a word (a pseudonym; an operator's hash, cipher or partial mask)."""
        operator = self.renderer.operator_for(label) if self.renderer else None
        if operator is not None:
            return operator.name in PLACEHOLDER_OPERATORS
        return self.replacement != PSEUDONYM

    def _operator(self, entities: Dict[str, List[Span]], eid: str):
        """The operator configured for the label of entity ``eid`` (None: the replacement style)."""
        mentions = entities.get(eid) or []
        return self.renderer.operator_for(mentions[0].label_) if mentions else None

    def _replacement(
        self,
        label: str,
        entity_id: str,
        text: str,
        entity: Tuple[Optional[str], Optional[str]] = (None, None),
        plain_words: bool = False,
        where: Tuple[str, int] = ("", 0),
    ) -> str:
        """What replaces a masked mention: a surrogate of ``text`` (``pseudonym``) that follows ``entity`` (its
        entity's canonical form and label), else the style's string. ``plain_words``: a phrase of ordinary words the
        search risk proposed: under pseudonyms the suppression string, unless capitalized (a name-like phrase) other
        than at a sentence's start (``where``: the document's text and the mention's start)."""
        if self.replacement == PSEUDONYM and untyped(text, plain_words, *where):
            return self.suppression_string
        if self.replacement == PSEUDONYM and self.pseudonyms is not None:
            canonical, kind = entity
            return self.pseudonyms(label, text, fallback=f"[{entity_id}]", entity=canonical, entity_label=kind)
        style = "suppression" if self.replacement == GENERALIZE else self.replacement  # a suppressed entity: ***
        return replacement(style, label, entity_id, self.suppression_string)


def _banned(banned: Dict[Tuple[str, int], list], e: str, level: int, option) -> bool:
    """Whether entity ``e`` at ``level`` completes one of the index's bans that hold it (``banned``:
    :func:`_bans_by_option`), the other entities at ``option(entity)`` (their level; 0 kept; None suppressed)."""
    return any(
        all((f == e and n == level) or (f != e and option(f) == n) for f, n in ban)
        for ban in banned.get((e, level), ())
    )


def _bans_of(doc: Doc) -> Dict[Tuple[str, int], list]:
    """:func:`_bans_by_option` of the index's bans of ``doc`` (:func:`forbidden`), kept for the bans last read."""
    global _LAST_BANS
    bans = forbidden(doc)
    last = _LAST_BANS  # read once: another thread may replace it (a new tuple, never changed in place)
    if last[0] is bans:
        return last[1]
    by_option = _bans_by_option(bans)
    _LAST_BANS = (bans, by_option)
    return by_option


#: the bans :func:`_bans_of` read last, and their index by option
_LAST_BANS: tuple = (None, {})


def _bans_by_option(banned) -> Dict[Tuple[str, int], list]:
    """The bans that hold each option (entity, level), in their order."""
    out: Dict[Tuple[str, int], list] = {}
    for ban in banned:
        for option in dict.fromkeys(ban):
            out.setdefault(option, []).append(ban)
    return out


def is_direct_identifier(span: Span, mask_codes: bool = True) -> bool:
    """A mention whose entity is always masked: a CODE mention (``mask_codes``), a date of birth, a deny-list span."""
    if mask_codes and is_code(span.label_, span._.source) or span._.source == DENY_SOURCE:
        return True
    if span.label_ != DATETIME:
        return False
    # the tokens that hold the BIRTH_WINDOW characters before the mention (``doc.text`` would join the whole
    # document for each mention): however many tokens that is, the same characters as the document's text
    doc, first = span.doc, span.start
    while first > 0 and doc[first].idx > span.start_char - BIRTH_WINDOW:
        first -= 1
    context = doc[first : span.start].text_with_ws
    return is_birth_date(context, len(context), span.label_)


def is_code(label: str, source: Optional[str]) -> bool:
    """A CODE mention: labelled CODE, or found by a CODE rule whatever its label."""
    source = source or ""
    return label == CODE or (source.startswith("rule:") and source[5:] in CODE_RULE_NAMES)


def is_birth_date(text: str, start: int, label: str) -> bool:
    """A DATETIME mention starting at ``start`` right after "born", "date of birth"... (:data:`BIRTH_CONTEXT`)."""
    return label == DATETIME and BIRTH_CONTEXT.search(text[max(0, start - BIRTH_WINDOW) : start]) is not None


def _entities(spans: Iterable[Span]) -> Dict[str, List[Span]]:
    """Mentions grouped by entity id (``span_<i>`` for a span without one)."""
    entities: Dict[str, List[Span]] = {}
    for i, span in enumerate(spans):
        entities.setdefault(span._.entity_id or f"span_{i}", []).append(span)
    return entities


def _short_forms_of(entities: Dict[str, List[Span]], hidden: Set[str]) -> Set[str]:
    """The PERSON entities, none of whose mentions is a full name, with a mention that may stand for the full name of
    an entity in ``hidden`` (:func:`textanon.detect.target.short_form_fits`): the linker leaves a short form that
    fits two full names on its own ("Rocky" of "Rocky Balboa" and of a second "Rocky ..."), and masking one of those
    full names must not leave "Rocky" to name it."""
    full: List[List[str]] = []
    short: Dict[str, List[Tuple[List[str], bool]]] = {}
    for eid, mentions in entities.items():
        persons = [(name_parts(m.text), m) for m in mentions if m.label_ == PERSON]
        if not persons:
            continue
        whole = [p for p, _ in persons if len(p) >= 2 and all(len(w) > 1 for w in p)]
        if eid in hidden:
            full.extend(whole)
        elif not whole:
            short[eid] = [(p, "." in m.text or m._.source == "rule:signature_initial") for p, m in persons if p]
    return {
        eid
        for eid, forms in short.items()
        if any(short_form_fits(parts, name, dotted) for parts, dotted in forms for name in full)
    }


def _person_runs(text: str, entities: Dict[str, List[Span]]) -> List[Char]:
    """The character spans of the PERSON mentions, those that only spaces separate joined: a recognizer may give a
    name as two mentions ("Maria" by the NER, "Gonzalez-Ruiz" by a rule), which together are the full name."""
    spans = sorted({(m.start_char, m.end_char) for ms in entities.values() for m in ms if m.label_ == PERSON})
    runs: List[List[int]] = []
    for start, end in spans:
        if runs and (start <= runs[-1][1] or text[runs[-1][1] : start] in (" ", "\u00a0")):
            runs[-1][1] = max(runs[-1][1], end)
        else:
            runs.append([start, end])
    return [(s, e) for s, e in runs]


def _titled_surname(mention: str, words: List[str]) -> bool:
    """A courtesy title and one name word ("Dr Ng", "Mrs Price"): as specific as a full name (its capitalized
    occurrences are masked: "Price", not "the price"). Not a letter standing for a person ("Mr X", already
    anonymized) nor a function word ("Mr Will")."""
    first = re.match(r"\s*([^\W\d_]+)", mention)
    return (
        len(words) == 1
        and first is not None
        and fold(first.group(1)) in COURTESY_TITLES
        and len(words[0]) >= 2
        and fold(words[0]) not in STOP_WORDS
    )


def _relatives(
    text: str, target: str, occurrences: List[Char], entities: Dict[str, List[Span]], spoken: Set[Char]
) -> Dict[Char, Char]:
    """Occurrences of the target's name that another name stands beside -> the extent of both, masked together and
    never written as the person's role word (she, or a relative, or another person of her given name):

    * the surname after another person's initials ("D/o K. Raghunathan") or after another form of a given name
      ("Danielle Okoro" for Dani Okoro), :func:`other_given_before`;
    * the surname right after another person's name the recognizer found ("the applicant's brother, Mihai
      Ionescu" for Radu Ionescu had become "another person the person");
    * a given name alone, or a full name, before a rare capitalized word (a middle name: "CHIDI EMEKA" for Chidi
      Okafor; a further surname: "Thomas Cruise Mapother IV" for Tom Cruise), :func:`other_name_after`; after a
      full name, only where no PERSON mention overlapping the name reaches over the word (then the role word is
      written over both: "Penélope Cruz Sánchez", the NER's "Cruz Sánchez", reads "the person")."""
    person_end = {  # another person's name: a PERSON mention that holds no occurrence
        m.end_char: m.start_char
        for mentions in entities.values()
        for m in mentions
        if m.label_ == PERSON and not any(s < m.end_char and m.start_char < e for s, e in occurrences)
    }
    surname = name_words(target)[-1:]
    found: Dict[Char, Char] = {}
    for s, e in occurrences:
        if (s, e) in spoken:
            continue
        first = other_given_before(text, s, e, target)
        if first is None and surname and fold(text[s:e]) == fold(surname[0]):
            before = s  # where the spaces right before the surname begin
            while before > 0 and text[before - 1] in " \t":
                before -= 1
            if before < s and before in person_end:
                first = person_end[before]
        last = other_name_after(text, s, e, target)
        if (
            last is not None
            and len(text[s:e].split()) >= 2
            and any(
                m.label_ == PERSON and m.start_char < e and last <= m.end_char for ms in entities.values() for m in ms
            )
        ):
            last = None  # a PERSON mention of the recognizer's joins the name and the word: the role word covers both
        if first is not None or last is not None:
            found[(s, e)] = (s if first is None else first, e if last is None else last)
    return found


def _overlapping(entities: Dict[str, List[Span]], chars: List[Char]) -> Set[str]:
    """Ids of the entities with a mention overlapping one of the character spans."""
    if not chars:
        return set()
    overlaps = overlap_test(chars)
    return {eid for eid, mentions in entities.items() if any(overlaps(m.start_char, m.end_char) for m in mentions)}
