"""Well-known organizations whose name says nothing of their type but whose type is not in doubt: broadcasters
("BBC", "NBC" -> "a broadcaster"), film studios ("MGM", "Warner Bros." -> "a film studio" -> "a company") and
newspapers or magazines ("The New York Times" -> "a newspaper"). Only names that mean nothing else in a text about
actors are listed: "Fox" (a surname), "Universal", "Columbia", "Paramount" (ordinary words and places), "Vanity
Fair" (a novel), "Variety" are not; an unlisted name is left to the optimizer's suppression."""

import re
from typing import Dict, List, Tuple

from textanon.decide.generalization.base import Generalization, article, levels

BROADCASTER = ("broadcaster",)
STUDIO = ("film studio", "company")
NEWSPAPER = ("newspaper", "publication")
MAGAZINE = ("magazine", "publication")

BROADCASTERS = (
    "bbc",
    "bbc1",
    "bbc2",
    "bbc one",
    "bbc two",
    "bbc three",
    "bbc four",
    "bbc television",
    "bbc radio",
    "bbc america",
    "nbc",
    "cbs",
    "pbs",
    "hbo",
    "itv",
    "itv1",
    "mtv",
    "cnn",
    "espn",
    "cbc",
    "channel 4",
)
STUDIOS = (
    "mgm",
    "metro-goldwyn-mayer",
    "rko",
    "rko pictures",
    "warner bros",
    "warner brothers",
    "miramax",
    "dreamworks",
    "pixar",
    "lionsgate",
    "united artists",
)
NEWSPAPERS = ("new york times", "los angeles times", "washington post", "chicago tribune")
MAGAZINES = ("hollywood reporter", "entertainment weekly")
#: name (folded: lower case, single spaces, no leading "the", no final dot) -> its types, most specific first
KNOWN: Dict[str, Tuple[str, ...]] = {
    **{name: BROADCASTER for name in BROADCASTERS},
    **{name: STUDIO for name in STUDIOS},
    **{name: NEWSPAPER for name in NEWSPAPERS},
    **{name: MAGAZINE for name in MAGAZINES},
}


def fold(text: str) -> str:
    """The key of a name in :data:`KNOWN` ("The New York Times" -> "new york times", "Warner Bros." -> "warner
    bros")."""
    return re.sub(r"^the\s+", "", " ".join(text.lower().split())).rstrip(".")


def generalize_known(text: str) -> List[Generalization]:
    """The types of a listed organization (module docstring), each with its article; [] for any other name."""
    types = KNOWN.get(fold(text))
    if not types:
        return []
    return levels([article(t) for t in types], "organizations", text)
