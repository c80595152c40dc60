"""Generalization instead of suppression (issue 17): true, less specific replacements of risky entities.

One generalizer per kind of entity (:mod:`.dates`, :mod:`.numbers`, :mod:`.nouns` over :mod:`.wordnet`,
:mod:`.nationalities` and :mod:`.places` over :mod:`.gazetteer`, :mod:`.organizations`, :mod:`.persons`, :mod:`.works`),
dispatched by label (:mod:`.propose`); their information content from the risk model in use
(:mod:`.information`); which of them break a risky combination (:mod:`.risk`); the pipeline component that
proposes and scores them (:mod:`.component`, ``textanon_generalizer``) and the optimizer's choice among keep /
generalize / suppress (:mod:`.choice`, ``textanon_optimizer`` with ``replacement = "generalize"``).
"""

from textanon.decide.generalization.base import Generalization
from textanon.decide.generalization.propose import propose

__all__ = ["Generalization", "propose"]
