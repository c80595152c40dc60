"""Given names: the name dictionary of ``gender_guesser`` (about 48,000 names of many countries), read once per
process on first use, any letter case. Detection asks it whether a lower-case word after "my friend" is a name
(:mod:`textanon.detect.identifiers`); the generalizer whether a capitalized phrase is written as a personal name
(:mod:`textanon.decide.generalization.persons`); the pseudonyms, which gender a name has, to draw a surrogate of the
same (:mod:`textanon.render.pseudonyms`)."""

from functools import lru_cache
from typing import Optional

from textanon.loading import collector_paused


@lru_cache(maxsize=1)
def _detector():
    import gender_guesser.detector as gender

    with collector_paused():  # ~48,000 names parsed into dicts: 0.5 -> 0.12 s (textanon.loading)
        return gender.Detector(case_sensitive=False)


def given_name(word: str) -> bool:
    """Whether ``word`` is a given name of the name dictionary (gender_guesser's, any case)."""
    return _detector().get_gender(word) != "unknown"


#: gender_guesser's answers read as a gender ("andy", androgynous, and "unknown" are none)
_GENDERS = {"male": "male", "mostly_male": "male", "female": "female", "mostly_female": "female"}


def gender_of(word: str) -> Optional[str]:
    """``"female"`` or ``"male"`` when the name dictionary gives ``word`` as a (mostly) female or male given name,
    else None."""
    return _GENDERS.get(_detector().get_gender(word))
