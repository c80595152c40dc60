"""Profiles: one word picks the privacy/speed trade-off of ``en_textanon``, the same way in Python and on the
command line (``textanon anonymize --profile NAME``). One package holds every component; a profile is a set of
``spacy.load`` config overrides (which components run, the search risk's index, the optimizer's replacement):

* ``fast`` (the default, the package's own config): the recognizer, the search risk over a word-frequency prior
  (no index, :mod:`textanon.risk.search.prior`), truthful generalization, CP-SAT; no language model, no parser
  (``--replacement suppression`` masks instead of generalizing: faster, less private, less useful);
* ``lm``: the language-model risk (SmolLM2 surprisal of entity combinations) in place of the prior — the
  profile for a GPU (on 2 CPU cores it is several times slower than Presidio);
* ``search``: the search risk over a public-knowledge index (``index build``), with the fast profile's tagger-less
  phrase candidates and truthful generalization; needs ``index``;
* ``strict``: every span the recognizer detects is masked, whatever its risk (the optimizer's ``mask_labels``: all
  eight TAB labels), as NER redaction does: for rules that list what must go (every date, every place); no risk
  scorer runs, so it is the fastest profile and keeps the least information.

    nlp = spacy.load("en_textanon")                                                  # fast
    nlp = spacy.load("en_textanon", config=textanon.profile("lm"))                   # lm
    nlp = spacy.load("en_textanon", config=textanon.profile("search", index="corpus/index_bk25"))
    nlp = spacy.load("en_textanon", config=textanon.profile("strict"))                # strict
    nlp = spacy.load("en_textanon", config=textanon.profile("fast", replacement="suppression"))  # --replacement

A ``replacement`` (``--replacement``) replaces the profile's; ``"generalize"`` runs the generalizer, any other style
leaves it out. The fast profile's prior has a population chosen for each: :data:`GENERALIZING_PRIOR_N_DOCS` when it
generalizes (its default since decision 12: more private and more useful than suppression, at Presidio's speed),
:data:`SUPPRESSING_PRIOR_N_DOCS` otherwise (the README's profile table, docs/profiles.md).

The measured numbers of each profile are the README's profile table (``spacy project run profiles``).
"""

from pathlib import Path
from typing import Dict, List, Optional, Union

import spacy
import spacy.util

from textanon.labels import PERSON, TAB_LABELS
from textanon.risk.search.backends import open_index

FAST, LM, SEARCH, STRICT = "fast", "lm", "search", "strict"
PROFILES = (FAST, LM, SEARCH, STRICT)
DEFAULT_PROFILE = FAST
#: en_core_web_sm's tagger and parser (noun chunks as the search risk's candidates and units of the decision): no
#: profile runs them since the search profile's second round on development data (docs/profiles.md, decision 8:
#: more private and faster without them); ``nlp.enable`` or a config override turns them on
PARSER = ["tok2vec", "tagger", "parser", "attribute_ruler"]
LM_RISK, SEARCH_RISK, GENERALIZER = "textanon_lm_risk", "textanon_search_risk", "textanon_generalizer"
#: the components each profile leaves disabled (every other component of the package runs)
DISABLED: Dict[str, List[str]] = {
    FAST: [*PARSER, LM_RISK],
    LM: [*PARSER, SEARCH_RISK, GENERALIZER],
    SEARCH: [*PARSER, LM_RISK],
    STRICT: [*PARSER, LM_RISK, SEARCH_RISK, GENERALIZER],
}
#: the replacement style that runs the generalizer (``textanon_optimizer``'s ``replacement``)
GENERALIZE = "generalize"
#: the optimizer's replacement style per profile
REPLACEMENT = {FAST: GENERALIZE, LM: "suppression", SEARCH: GENERALIZE, STRICT: "suppression"}
#: the labels whose every mention the optimizer masks, per profile (``mask_labels``; the others' labels: the risk
#: decides): every person's name in the risk-based profiles (decision 13, docs/profiles.md: rounds 7 and 4 on
#: development data), every label in the strict one
MASK_LABELS: Dict[str, List[str]] = {FAST: [PERSON], LM: [PERSON], SEARCH: [PERSON], STRICT: list(TAB_LABELS)}
#: the word-frequency prior's population (``textanon.FrequencyPrior.v1``'s ``n_docs``) when the fast profile
#: generalizes (its default, the package's config): chosen on development data for the generalizing profile
#: (docs/profiles.md, round 6, decision 11)
GENERALIZING_PRIOR_N_DOCS = 5_000
#: ... and when it does not (``--replacement suppression``, ``label``, ``pseudonym``): the factory's, chosen on
#: development data for the suppressing profile (docs/profiles.md, round 5, decision 5)
SUPPRESSING_PRIOR_N_DOCS = 20_000


class ProfileError(ValueError):
    """An unknown profile, or a profile without what it needs (the search profile's index)."""


def profile(
    name: str = DEFAULT_PROFILE, index: Optional[Union[str, Path]] = None, replacement: Optional[str] = None
) -> Dict[str, object]:
    """The ``spacy.load(..., config=...)`` overrides of profile ``name`` (``index``: the search profile's index
    folder, checked here; ``replacement``: the optimizer's replacement style in place of the profile's, as
    ``--replacement`` gives it: ``"generalize"`` also runs the generalizer, e.g. the fast profile generalizing over
    its word-frequency prior; any other style leaves the generalizer out, the search profile's too). Raises
    :class:`ProfileError`."""
    if name not in PROFILES:
        raise ProfileError(f"unknown profile {name!r}: one of {', '.join(PROFILES)}")
    if name == SEARCH and index is None:
        raise ProfileError("the search profile needs an index: --index DIR (built by `textanon index build`)")
    if name != SEARCH and index is not None:
        raise ProfileError(f"an index is the search profile's: --profile search, not {name}")
    style = replacement or REPLACEMENT[name]
    # the generalizer runs exactly when the optimizer generalizes: its candidates feed nothing else (the search
    # profile with --replacement suppression, label or pseudonym does not compute them for nothing)
    disabled = [c for c in DISABLED[name] if c != GENERALIZER] + ([] if style == GENERALIZE else [GENERALIZER])
    overrides: Dict[str, object] = {
        "nlp.disabled": disabled,
        "components.textanon_optimizer.replacement": style,
        "components.textanon_optimizer.mask_labels": list(MASK_LABELS[name]),
    }
    if name == FAST:  # the population chosen for the replacement style (decisions 5 and 11)
        overrides[f"components.{SEARCH_RISK}.index.n_docs"] = (
            GENERALIZING_PRIOR_N_DOCS if style == GENERALIZE else SUPPRESSING_PRIOR_N_DOCS
        )
    if name == SEARCH:
        open_index(index)  # a missing or incompatible index: IndexUnavailable before any document is read
        overrides[f"components.{SEARCH_RISK}.index_path"] = str(index)  # replaces the prior (search_risk docstring)
    return overrides


def load(
    name: str = DEFAULT_PROFILE,
    model: str = "en_textanon",
    index: Optional[Union[str, Path]] = None,
    config: Optional[Dict[str, object]] = None,
    replacement: Optional[str] = None,
):
    """``spacy.load(model, config=profile(name, index, replacement) + config)``: the pipeline as the profile runs
    it."""
    return spacy.load(model, config={**profile(name, index, replacement), **(config or {})})


def supports_profiles(model: str) -> bool:
    """Whether the pipeline ``model`` (a package name or folder) holds every component the profiles switch (its
    config is read, nothing is loaded); False when it cannot be read."""
    try:
        path = Path(model) if Path(model).is_dir() else spacy.util.get_package_path(model)
    except Exception:  # noqa: BLE001 — not a package: the load itself reports it
        return False
    configs = [path / "config.cfg"] if (path / "config.cfg").exists() else sorted(path.glob("*/config.cfg"))
    if not configs:
        return False
    try:
        names = set(spacy.util.load_config(configs[-1], interpolate=False)["nlp"]["pipeline"])
    except Exception:  # noqa: BLE001
        return False
    return {LM_RISK, SEARCH_RISK, GENERALIZER, *PARSER} <= names
