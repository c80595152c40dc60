"""Offline gazetteer entries from WordNet 3.0 (nltk reader over the Debian database files).

Each row of :data:`ROOTS` names a WordNet synset, the TAB label its hyponyms get, and the
Wikidata property whose values the subtree stands in for. Every synset below a root (hyponym
closure; instance hyponyms only where ``instances=True``) contributes its lemma names, with
underscores turned into spaces and — for countable classes — a plural form. A synset below
several roots belongs to the *nearest* one (fewest hyponym steps; ties: first row), so e.g.
academic degrees land in DEM/P512 although ``award.n.02`` (MISC/P166) is above them too.

Person classes never take instance hyponyms: those are named individuals ("Nelson",
"Jackson", "Turner"), which are PERSON names, not attributes.

On top of the tree walk:

* nationality adjectives: relational adjectives (``adj.pert``) whose pertainym is a named place
  (an instance synset in ``noun.location``: "French" -> France, "Parisian" -> Paris) or one of the
  DEM synsets collected above ("Buddhist" -> Buddhism); for countries also "<adj> national(s)"
  and "<adj> citizen(s)" ("Swedish national");
* an ambiguity filter for single words: WordNet orders senses by their SemCor tag counts, so a
  word whose senses *outside* every collected subtree are tagged much more often than its senses
  inside ("organ" the body part, "cook" the verb, "white" the colour) is dropped
  (``outside > 2 * inside + 2``); nationality adjectives are exempt ("Polish");
* the root synsets' own lemmas are category heads ("crime", "weapon", "worker") and are left
  out unless the row says ``keep_head`` ("scientist", "terrorism", "mental illness");
* single-word fields of study need a field suffix ("sociology", "orthodontics" no: "-ics" words
  are too often plain nouns: "statistics", "acoustics"); multiword fields are kept;
* terms that are also names of places (instance synsets in ``noun.location``: "Missouri" the
  people, "berlin" the carriage) are left out — places are LOC; plural forms that are WordNet
  lemmas of another sense ("wales" from "wale") are not generated;
* the stop list (:mod:`textanon.detect.gazetteer.stoplist`).

Each row carries a ``weight`` — the SemCor tag count of the lemma in its synset — which the
builder uses to pick one label when a term comes out of several subtrees ("gun": the weapon,
not the gunman).
"""

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

from textanon.detect.gazetteer.stoplist import normalize, stop_reason
from textanon.detect.gazetteer.wordnet_data import load_wordnet

DEM, MISC = "DEM", "MISC"


@dataclass(frozen=True)
class Root:
    """One row of the synset -> label -> Wikidata property table."""

    synset: str
    label: str
    prop: str  # Wikidata property (or "-" when none applies), e.g. "P106"
    note: str
    instances: bool = False  # also walk instance hyponyms (named members of the class)
    plural: bool = True  # add plural forms (countable nouns)
    keep_head: bool = False  # keep the root's own lemmas (else they are category heads: "crime")
    field_words: bool = False  # single words only with a field-of-study suffix ("-ology")


#: The synset table, one row a root: synset, label, Wikidata property, note, options (``instances``: also walk
#: instance hyponyms; ``singular``: no plural forms; ``head``: keep the root's own lemmas; ``fields``: single words
#: only with a field-of-study suffix). Order matters only for ties (same distance from two roots).
_ROOT_TABLE: Tuple[Tuple[str, str, str, str, str], ...] = (
    # ---- DEM: occupations (P106) -------------------------------------------------------------
    ("worker.n.01", DEM, "P106", "occupation: workers, employees, craftsmen", ""),
    ("skilled_worker.n.01", DEM, "P106", "occupation: skilled trades", ""),
    ("professional.n.01", DEM, "P106", "occupation: learned professions (doctor, lawyer, teacher)", ""),
    ("scientist.n.01", DEM, "P106", "occupation: scientists", "head"),
    ("engineer.n.01", DEM, "P106", "occupation: engineers", "head"),
    ("creator.n.02", DEM, "P106", "occupation: artists, architects, farmers, inventors", ""),
    ("entertainer.n.01", DEM, "P106", "occupation: performers, actors, musicians", "head"),
    ("writer.n.01", DEM, "P106", "occupation: writers, journalists, poets", "head"),
    ("intellectual.n.01", DEM, "P106", "occupation: scholars, historians, philosophers", "head"),
    ("businessperson.n.01", DEM, "P106", "occupation: business people, merchants", "head"),
    ("financier.n.01", DEM, "P106", "occupation: bankers, financiers", "head"),
    ("expert.n.01", DEM, "P106", "occupation: experts, analysts, advisers", ""),
    ("lawman.n.01", DEM, "P106", "occupation: police officers, detectives, sheriffs", "head"),
    ("athlete.n.01", DEM, "P106", "occupation: athletes (also P641 sport)", "head"),
    ("player.n.01", DEM, "P106", "occupation: players of games and sports", ""),
    ("programmer.n.01", DEM, "P106", "occupation: programmers", "head"),
    ("spiritual_leader.n.01", DEM, "P106", "occupation: clergy", "head"),
    ("serviceman.n.01", DEM, "P106", "occupation: military personnel", "head"),
    # ---- DEM: positions held (P39) and military ranks (P410) -----------------------------------
    ("official.n.01", DEM, "P39", "position held: officials, judges, diplomats", ""),
    ("leader.n.01", DEM, "P39", "position held: heads, executives, politicians", ""),
    ("representative.n.01", DEM, "P39", "position held: representatives, heads of state", ""),
    ("military_officer.n.01", DEM, "P410", "military rank: commissioned and petty officers", ""),
    ("enlisted_person.n.01", DEM, "P410", "military rank: enlisted ranks", ""),
    # ---- DEM: religion (P140), ethnicity (P172), nationality (P27), language (P103) ----------
    ("religious_person.n.01", DEM, "P140", "religion: believers (Christian, Muslim, monk)", ""),
    ("disciple.n.01", DEM, "P140", "religion: adherents (Bahai, Shintoist)", ""),
    ("religion.n.01", DEM, "P140", "religion: beliefs (Buddhism, Catholicism)", "instances singular"),
    ("religion.n.02", DEM, "P140", "religion: institutions, churches, denominations", "instances singular"),
    ("inhabitant.n.01", DEM, "P27", "citizenship / residence: inhabitants, demonyms", ""),
    ("nation.n.02", DEM, "P27", "citizenship: peoples of a nation (the French)", "singular"),
    ("native.n.01", DEM, "P172", "ethnic group: indigenous peoples", ""),
    ("person_of_color.n.01", DEM, "P172", "ethnic group: non-European peoples", "head"),
    ("white.n.01", DEM, "P172", "ethnic group: white people", "head"),
    ("ethnic_group.n.01", DEM, "P172", "ethnic group: groups", "instances singular"),
    ("race.n.03", DEM, "P172", "ethnic group: races", "singular"),
    ("natural_language.n.01", DEM, "P103", "native language", "instances singular"),
    # ---- DEM: political ideology (P1142) and party (P102) ------------------------------------
    ("political_orientation.n.01", DEM, "P1142", "political ideology", "singular"),
    ("advocate.n.01", DEM, "P1142", "political ideology: advocates (Marxist, feminist)", ""),
    ("radical.n.03", DEM, "P1142", "political ideology: radicals (Bolshevik)", ""),
    ("political_party.n.01", DEM, "P102", "member of political party", "instances singular"),
    # ---- DEM: education (P512 academic degree, P812 academic major) --------------------------
    ("degree.n.03", DEM, "P512", "academic degree (PhD, Master of Arts)", ""),
    ("alumnus.n.01", DEM, "P69", "educated at: graduates, alumni", "head"),
    ("discipline.n.01", DEM, "P812", "academic major: fields of study", "singular fields"),
    # ---- MISC: health (P1050 medical condition), death (P509 / P1196), crime (P1399) ----------
    ("ill_health.n.01", MISC, "P1050", "medical condition: diseases, injuries, disabilities", "singular"),
    ("disorder.n.01", MISC, "P1050", "medical condition: disorders", "singular"),
    ("mental_illness.n.01", MISC, "P1050", "medical condition: mental illness", "singular head"),
    ("psychological_disorder.n.01", MISC, "P1050", "medical condition: neuroses, phobias", "singular head"),
    ("injury.n.01", MISC, "P1050", "medical condition: injuries (countable)", ""),
    ("symptom.n.01", MISC, "P1050", "medical condition: symptoms", ""),
    ("killing.n.02", MISC, "P509", "cause / manner of death (P1196): murder, suicide", ""),
    ("asphyxia.n.01", MISC, "P509", "cause of death: asphyxia", "singular head"),
    ("crime.n.01", MISC, "P1399", "convicted of: crimes", ""),
    ("terrorism.n.01", MISC, "P1399", "convicted of: terrorism", "singular head"),
    ("smuggling.n.01", MISC, "P1399", "convicted of: smuggling", "singular head"),
    # ---- MISC: awards (P166), sport (P641), instrument (P1303), vehicles and weapons ----------
    ("award.n.02", MISC, "P166", "award received", "instances"),
    ("sport.n.01", MISC, "P641", "sport", "singular"),
    ("musical_instrument.n.01", MISC, "P1303", "instrument played", ""),
    ("vehicle.n.01", MISC, "-", "vehicle classes (no human property)", ""),
    ("weapon.n.01", MISC, "-", "weapon classes (no human property)", ""),
)
_ROOT_OPTIONS = {"instances": "instances", "singular": "plural", "head": "keep_head", "fields": "field_words"}


def _root(synset: str, label: str, prop: str, note: str, options: str) -> Root:
    """A :class:`Root` from a table row; an unknown option raises ValueError."""
    unknown = set(options.split()) - set(_ROOT_OPTIONS)
    if unknown:
        raise ValueError(f"root {synset}: unknown options {sorted(unknown)}; known: {sorted(_ROOT_OPTIONS)}")
    flags = {_ROOT_OPTIONS[o]: o != "singular" for o in options.split()}
    return Root(synset, label, prop, note, **flags)


#: The synset table as :class:`Root` rows.
ROOTS: Tuple[Root, ...] = tuple(_root(*row) for row in _ROOT_TABLE)

#: Suffixes that mark a single word as a field of study (for ``field_words`` rows).
FIELD_SUFFIXES = ("ology", "logy", "graphy", "nomy", "iatry", "istry", "ometry", "sophy")

#: Named places whose pertainym adjectives are nationalities (else: residence / origin).
COUNTRY_SYNSETS = ("country.n.02", "state.n.04")

#: Words ending in "man" whose plural is "-mans".
_MAN_PLURAL_S = frozenset(
    "german roman norman ottoman shaman talisman caiman human walkman dolman "
    "ataman cayman desman hetman brahman".split()
)
#: Nouns that don't change in the plural (nationalities and a few others).
_INVARIANT = frozenset(
    "swiss chinese japanese portuguese vietnamese lebanese sudanese burmese "
    "maltese congolese senegalese taiwanese nepalese sinhalese togolese "
    "beninese gabonese guyanese javanese balinese siamese bhutanese "
    "sheep deer fish aircraft spacecraft hovercraft offspring series species "
    "police clergy militia personnel corps".split()
)
_PREPOSITIONS = frozenset("of in at to for from on with de du des".split())


def pluralize(term: str, irregular: Optional[Dict[str, str]] = None) -> Optional[str]:
    """A plural for ``term`` (head noun: last word, or the word before a preposition as in
    "secretary of state" -> "secretaries of state"); ``None`` when it has no distinct plural."""
    words = term.split(" ")
    head = len(words) - 1
    for i, w in enumerate(words[1:], start=1):
        if w.lower() in _PREPOSITIONS:
            head = i - 1
            break
    word = words[head]
    plural = _pluralize_word(word, irregular or {})
    if plural is None or plural == word:
        return None
    words[head] = plural
    return " ".join(words)


def _pluralize_word(word: str, irregular: Dict[str, str]) -> Optional[str]:
    low = word.lower()
    if not low or not low[-1].isalpha() or low in _INVARIANT or low.endswith(("ese", "ish")):
        return None
    if low in irregular:
        return _match_case(word, irregular[low])
    if low.endswith("man") and low not in _MAN_PLURAL_S and not low.endswith(tuple(_MAN_PLURAL_S)):
        return word[:-3] + ("men" if word[-3:].islower() else "MEN")
    if low.endswith(("ss", "sh", "x", "z", "s")) or (low.endswith("ch") and not low.endswith("arch")):
        return word + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _match_case(original: str, plural: str) -> str:
    if original.isupper():
        return plural.upper()
    if original[:1].isupper():
        return plural[:1].upper() + plural[1:]
    return plural


def irregular_plurals(wn) -> Dict[str, str]:
    """singular -> plural from WordNet's ``noun.exc`` (plural -> singular), one-word entries."""
    out: Dict[str, str] = {}
    for plural, singulars in wn._exception_map["n"].items():
        for singular in singulars:
            if " " in plural or "_" in plural or plural == singular:
                continue
            # prefer the "native" plural: of several candidates keep the shortest
            if singular not in out or len(plural) < len(out[singular]):
                out[singular] = plural
    return out


def _hyponyms(synset, instances: bool):
    return synset.hyponyms() + synset.instance_hyponyms() if instances else synset.hyponyms()


def assign_synsets(wn, roots: Iterable[Root] = ROOTS) -> Dict[object, Tuple[Root, int]]:
    """synset -> (root, distance) for every synset under a root, nearest root winning."""
    best: Dict[object, Tuple[Root, int]] = {}
    for root in roots:
        start = wn.synset(root.synset)
        seen = {start}
        queue = deque([(start, 0)])
        while queue:
            synset, dist = queue.popleft()
            if synset not in best or dist < best[synset][1]:
                best[synset] = (root, dist)
            for child in _hyponyms(synset, root.instances):
                if child not in seen:
                    seen.add(child)
                    queue.append((child, dist + 1))
    return best


def _sense_counts(wn, lemma_name: str, accepted: Set[object]) -> Tuple[int, int]:
    """(tag count of senses inside ``accepted``, tag count of the other senses), all POS."""
    inside = outside = 0
    for lemma in wn.lemmas(lemma_name):
        if lemma.name().lower() != lemma_name.lower():
            continue
        count = lemma.count()
        synset = lemma.synset()
        if synset in accepted:
            inside += count
        elif not synset.instance_hypernyms():  # named individuals don't compete
            outside += count
    return inside, outside


def is_ambiguous(inside: int, outside: int) -> bool:
    """The ambiguity rule: other senses tagged much more often than the attribute senses."""
    return outside > 2 * inside + 2


def _is_country(synset, country_synsets: Set[object]) -> bool:
    todo = list(synset.instance_hypernyms())
    seen = set()
    while todo:
        s = todo.pop()
        if s in country_synsets:
            return True
        if s not in seen:
            seen.add(s)
            todo.extend(s.hypernyms())
    return False


def iter_wordnet_entries(
    wn,
    roots: Iterable[Root] = ROOTS,
    progress: Optional[Callable[[Iterable], Iterable]] = None,
    stats: Optional[Dict[str, int]] = None,
) -> Iterator[dict]:
    """Yield ``{"term", "label", "source", "property_or_synset", "property", "weight"}`` rows
    (terms may repeat; the builder dedupes). ``stats`` (a dict) receives counts of refusals."""
    roots = tuple(roots)
    stats = stats if stats is not None else {}
    assigned = assign_synsets(wn, roots)
    accepted = set(assigned)
    irregular = irregular_plurals(wn)
    ambiguity_cache: Dict[str, bool] = {}

    def ambiguous(lemma_name: str) -> bool:
        if lemma_name not in ambiguity_cache:
            ambiguity_cache[lemma_name] = is_ambiguous(*_sense_counts(wn, lemma_name, accepted))
        return ambiguity_cache[lemma_name]

    def is_place(lemma_name: str) -> bool:
        return any(
            s.lexname() == "noun.location" and s.instance_hypernyms()
            for s in wn.synsets(lemma_name, "n")
            if lemma_name.lower() in (lemma.name().lower() for lemma in s.lemmas())
        )

    def lemma_elsewhere(term: str) -> bool:
        key = term.lower().replace(" ", "_")
        return any(s not in accepted for s in wn.synsets(key) if key in (lemma.name().lower() for lemma in s.lemmas()))

    def emit(term: str, label: str, prop: str, origin: str, plural: bool, check_ambiguity: bool, weight: int = 0):
        reason = stop_reason(term)
        if reason is None and check_ambiguity and " " not in term and ambiguous(term.replace(" ", "_")):
            reason = "wordnet-ambiguous"
        if reason is not None:
            stats[reason] = stats.get(reason, 0) + 1
            return
        row = {
            "term": term,
            "label": label,
            "source": "wordnet",
            "property_or_synset": origin,
            "property": prop,
            "weight": weight,
        }
        yield row
        if plural:
            pl = pluralize(term, irregular)
            if pl is not None and stop_reason(pl) is None and not lemma_elsewhere(pl):
                yield dict(row, term=pl)

    def refuse(reason: str) -> None:
        stats[reason] = stats.get(reason, 0) + 1

    root_synsets = {wn.synset(r.synset): r for r in roots}
    items = sorted(assigned.items(), key=lambda kv: (roots.index(kv[1][0]), kv[1][1], kv[0].name()))
    for synset, (root, _dist) in progress(items) if progress else items:
        if synset in root_synsets and not root_synsets[synset].keep_head:
            refuse("category-head")
            continue
        for lemma in synset.lemmas():
            term = lemma.name().replace("_", " ")
            if root.field_words and " " not in term and not term.lower().endswith(FIELD_SUFFIXES):
                refuse("not-a-field")
                continue
            if is_place(lemma.name()):
                refuse("place-name")
                continue
            yield from emit(term, root.label, root.prop, synset.name(), root.plural, True, lemma.count())

    # relational adjectives of nationality / religion / language
    country_synsets = {wn.synset(name) for name in COUNTRY_SYNSETS}
    dem_roots = {s: r for s, (r, _d) in assigned.items() if r.label == DEM}
    for synset in wn.all_synsets("a"):
        if synset.lexname() != "adj.pert":
            continue
        for lemma in synset.lemmas():
            name = lemma.name()
            if not name[:1].isupper():
                continue
            for target in (p.synset() for p in lemma.pertainyms()):
                term = name.replace("_", " ")
                if target in dem_roots:
                    root = dem_roots[target]
                    yield from emit(
                        term, DEM, root.prop, f"{synset.name()}->{target.name()}", False, True, lemma.count()
                    )
                elif target.lexname() == "noun.location" and target.instance_hypernyms():
                    country = _is_country(target, country_synsets)
                    prop = "P27" if country else "P19"
                    origin = f"{synset.name()}->{target.name()}"
                    yield from emit(term, DEM, prop, origin, False, False, lemma.count())
                    if country:
                        for noun in ("national", "citizen"):
                            yield from emit(f"{term} {noun}", DEM, prop, origin, True, False)
                break


def wordnet_entries(
    nltk_data: Optional[Union[str, Path]] = None,
    progress: Optional[Callable[[Iterable], Iterable]] = None,
    stats: Optional[Dict[str, int]] = None,
) -> List[dict]:
    """All WordNet rows (not yet deduplicated); ``nltk_data`` as in
    :func:`textanon.detect.gazetteer.wordnet_data.load_wordnet`."""
    wn = load_wordnet(nltk_data)
    return list(iter_wordnet_entries(wn, progress=progress, stats=stats))


def root_table() -> List[Dict[str, str]]:
    """The synset table as rows (for docs and ``--help``)."""
    return [{"synset": r.synset, "label": r.label, "property": r.prop, "note": r.note} for r in ROOTS]


__all__ = [
    "ROOTS",
    "Root",
    "DEM",
    "MISC",
    "pluralize",
    "assign_synsets",
    "iter_wordnet_entries",
    "wordnet_entries",
    "root_table",
    "normalize",
]
