"""Terms kept out of the gazetteer: too generic to identify anyone, or too ambiguous to match.

The gazetteer is matched case-insensitively on every token sequence of a text, so a single
generic word turns into thousands of false DEM/MISC spans. A term is refused when

* it is in :data:`GENERIC_TERMS` — category heads and everyday role nouns that say nothing about
  *who* a person is ("person", "worker", "member", "leader", "party", "illness", ...);
* it is in :data:`COURT_ROLES` — procedural roles that occur in every court judgment (ECHR:
  "applicant", "government", "agent", "judge", "lawyer", "solicitor", "secretary of state" — on the
  27 echr-dev cases they matched ~90 times where the annotator marked nothing, ~5 times where she
  did). They describe the proceedings,
  not the person, so masking them would only blank out the structure of every case;
* it is in :data:`AMBIGUOUS_TERMS` — words whose attribute sense is rare next to an everyday
  sense that WordNet's sense counts don't catch ("labour", "polish" is *not* here: nationality
  adjectives are worth their rare false positive);
* it is 1–2 characters long, contains no letter, is a pure number, or starts with a digit;
* it is 3 characters long and not in :data:`SHORT_ALLOWED` (three-letter lemmas are mostly
  abbreviations that collide with names and words: "Min", "Tom", "Ron", "con", "tar", "van");
* it is an English function/stop word (spaCy's ``STOP_WORDS``) or every one of its words is.

All comparisons are on the lower-cased, whitespace-normalised term. Plural forms are refused
together with their singular (the builder checks the base lemma).
"""

import re
from typing import Optional

try:  # spaCy is a hard dependency of textanon; keep the module importable without it anyway
    from spacy.lang.en.stop_words import STOP_WORDS as _SPACY_STOP_WORDS
except ImportError:  # pragma: no cover
    _SPACY_STOP_WORDS = frozenset()

#: Category heads and generic person / thing nouns.
GENERIC_TERMS = frozenset(
    """
person persons people human humans individual individuals man men woman women boy boys girl girls
child children kid kids adult adults baby babies somebody someone anybody anyone everybody
self one ones other others party parties member members group groups family families
worker workers employee employees staff official officials officer officers agent agents
leader leaders head heads chief chiefs boss bosses master masters mistress servant servants
professional professionals expert experts specialist specialists assistant assistants
representative representatives delegate delegates deputy deputies aide aides
owner owners holder holders user users client clients customer customers consumer consumers
patient patients victim victims witness witnesses subject subjects citizen citizens
national nationals native natives inhabitant inhabitants resident residents local locals
foreigner foreigners alien aliens stranger strangers friend friends neighbour neighbours neighbor
neighbors partner partners colleague colleagues companion companions guest guests host hosts
visitor visitors player players participant participants contestant contestants
winner winners loser losers candidate candidates
learner learners administrator administrators executive executives
authority authorities chair
guard guards escort escorts operator operators
author authors speaker speakers reader readers
lord lords lady ladies sir madam
mother father parent parents son daughter brother sister husband wife
time times case cases state states court courts world life way thing things
work job jobs post posts position positions role roles office offices title titles rank ranks
occupation occupations profession professions trade trades career careers
religion religions faith faiths belief beliefs church churches sect sects
language languages tongue tongues dialect dialects
nation nations nationality nationalities people race races ethnicity tribe tribes
ideology ideologies doctrine doctrines movement movements
disease diseases illness illnesses disorder disorders condition conditions sickness ailment
ailments complaint complaints problem problems injury injuries wound wounds symptom symptoms
syndrome pain pains attack attacks fit fits
crime crimes offence offences offense offenses felony felonies misdemeanour misdemeanor
wrongdoing violation violations
award awards prize prizes honour honours honor honors medal medals decoration decorations
title degree degrees diploma diplomas certificate certificates
sport sports game games event events match matches race exercise
instrument instruments vehicle vehicles weapon weapons arm arms
car cars craft plane planes ship ships boat boats vessel vessels machine machines
death deaths killing killings accident accidents
unit units force forces
""".split()
)

#: Procedural roles present in every judgment (ECHR and similar): generic, not identifying.
COURT_ROLES = frozenset(
    """
applicant applicants government governments agent agents judge judges court courts
registrar registrars registry commission commissioner commissioners chamber
respondent respondents claimant claimants plaintiff plaintiffs defendant defendants
accused appellant appellants complainant complainants petitioner petitioners
prosecution prosecutor prosecutors prosecutor's counsel advocate advocates
representative representatives intervener interveners third party
victim victims witness witnesses expert experts
detainee detainees prisoner prisoners inmate inmates suspect suspects convict convicts
offender offenders criminal criminals
lawyer lawyers solicitor solicitors barrister barristers attorney attorneys governor governors
""".split()
) | frozenset(
    {
        "third party",
        "public prosecutor",
        "state party",
        "high contracting party",
        "trial judge",
        "trial judges",
        "secretary of state",
        "medical officer",
        "medical officers",
        "police officer",
        "police officers",
    }
)

#: Attribute senses that are rare next to an everyday sense (found on court and news text).
AMBIGUOUS_TERMS = frozenset(
    """
labour labor liberal liberals conservative conservatives green greens independent independents
federal federalist republican democrat democratic
general generals major majors private privates marshal marshals
white whites black blacks
bond bonds express ordinary second
justice justices
mate mates hand hands cook cooks
fellow fellows fellowship scholarship grant grants
cross star stars order orders
date dates mark marks
record records runner runners
plane cup cups bar bars
temp temps
""".split()
)

#: Words added after matching the WordNet build on ECHR judgments and biographies: senses that
#: WordNet files under a person/condition class but that texts use generically.
GENERIC_TERMS = (
    GENERIC_TERMS
    | frozenset(
        """
para paras colour color colours colors acting consumption seeker seekers employer employers
adviser advisers advisor advisors elector electors harm suffering incompetence shot shots
committal perpetration poster posters conditioner conditioners occupier occupiers occupant
occupants dweller dwellers disability disabilities disturbance disturbances upset
hero heroes heroine volunteer volunteers observer observers genius subordinate subordinates
maker makers carrier carriers mover movers idol idols villain villains wag tackle sewer sewers
dive slug fury bloat decomposition auxiliary auxiliaries confederate confederates scholastic
hulk sulky batter whiz generalist mechanics lifter puncher sting scours torment agony frenzy
political party president presidents playing singing dancing painting
""".split()
    )
    | frozenset({"political party", "political parties", "union member", "union members"})
)

#: Three-character terms worth keeping (degrees, well-known conditions and classes).
SHORT_ALLOWED = frozenset(
    """
ceo cfo hiv mba phd msc llb llm lld dds dmd edd mfa bse cjd std suv uzi zen flu pox nun spy
cop vet gun bus sax
""".split()
)

#: Extra function words spaCy's list lacks (contractions, archaic forms).
_EXTRA_FUNCTION_WORDS = frozenset(
    """
thee thou thy ye shall shan't ain't o'clock etc
""".split()
)

FUNCTION_WORDS = frozenset(w.lower() for w in _SPACY_STOP_WORDS) | _EXTRA_FUNCTION_WORDS

_SPACES = re.compile(r"\s+")
_LETTER = re.compile(r"[^\W\d_]")


def normalize(term: str) -> str:
    """The comparison key of a term: lower-cased, single spaces, stripped."""
    return _SPACES.sub(" ", term).strip().lower()


def stop_reason(term: str) -> Optional[str]:
    """Why ``term`` is refused (``"generic"``, ``"court-role"``, ``"ambiguous"``, ``"short"``,
    ``"number"``, ``"function-word"``), or ``None`` if it may enter the gazetteer."""
    key = normalize(term)
    if len(key) <= 2 or (len(key) == 3 and key not in SHORT_ALLOWED):
        return "short"
    if not _LETTER.search(key) or key[0].isdigit():
        return "number"
    if key in COURT_ROLES:
        return "court-role"
    if key in GENERIC_TERMS:
        return "generic"
    if key in AMBIGUOUS_TERMS:
        return "ambiguous"
    words = key.split(" ")
    if all(w in FUNCTION_WORDS for w in words):
        return "function-word"
    return None


def is_stopped(term: str) -> bool:
    """True when :func:`stop_reason` refuses ``term``."""
    return stop_reason(term) is not None
