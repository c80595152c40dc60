"""The targeted risk checked on the generalized output: the BM25 attacker of ``textanon_search_risk`` queries the
anonymized text, generalizations included, and every generalized entity whose replacement words it still needs to
rank the target's documents within the top ``k_rank`` is suppressed instead.

The attacker and its greedy unlinking are those of the search risk (:func:`textanon.risk.search.targeted.unlink`, with
the component's ``k_rank`` and stronger-attacker prior); the candidates it may take away are the replacements
written for generalized entities (all the entities that share a replacement text go together)."""

import re
from typing import Dict, List, Set, Tuple

from spacy.tokens import Doc

from textanon.render.masking import output_regions
from textanon.risk.search.base import memo_count
from textanon.risk.search.targeted import unlink
from textanon.risk.search.terms import query_word_spans

Char = Tuple[int, int]


def written_key(replacement: str) -> str:
    """A replacement as the optimizer may have written it, its article fitted to the text
    (:func:`textanon.decide.generalization.base.fit_articles`: "a North American" for "North American", "The award" for
    "an award"): lower case, without a leading article."""
    return re.sub(r"^(?:an?|the)\s+", "", " ".join(replacement.lower().split()))


def to_suppress(
    doc: Doc, search, generalized: Dict[str, Tuple[int, str]], costs: Dict[str, float]
) -> Tuple[Set[str], bool]:
    """(generalized entity ids the attacker still needs, whether the target still ranks within ``k_rank`` once they
    are all suppressed); nothing to do without target documents (see the module docstring)."""
    if not generalized or not doc._.target:
        return set(), False
    index = search.index.open()
    targets = index.documents_of(doc._.target)
    if not targets:
        return set(), False
    text = doc._.anonymized_text or ""
    occurrences = query_word_spans(text)
    words = [w for _, _, w in occurrences]
    by_text: Dict[str, List[str]] = {}
    for eid, (_, rep) in generalized.items():
        by_text.setdefault(written_key(rep), []).append(eid)
    regions: Dict[str, List[Char]] = {}
    for start, end, rep in output_regions(doc._.masks or []):
        key = written_key(rep or "")
        if key in by_text:
            regions.setdefault(key, []).append((start, end))
    entity_words = {
        rep: [i for i, (s, e, _) in enumerate(occurrences) if any(a < e and s < b for a, b in chars)]
        for rep, chars in regions.items()
    }
    entity_words = {rep: ws for rep, ws in entity_words.items() if ws}
    if not entity_words:
        return set(), False
    cost = {rep: max(sum(costs.get(e, 1.0) for e in by_text[rep]), 1e-6) for rep in entity_words}
    prior = search.attacker_prior(index, memo_count(index))
    result = unlink(index, words, entity_words, set(), cost, targets, search.k_rank, prior=prior)
    return {eid for step in result.steps for eid in by_text[step.entity]}, result.exhausted
