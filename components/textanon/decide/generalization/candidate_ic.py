"""Information content (nats) of generalization candidates, from the risk model in use:

* ``lm``: the risk scorer's language model, in context: for each level the text is rewritten with every
  entity's mentions replaced by its candidate of that level (its last one when it has fewer levels) and the
  replacements are scored in one call, as ``textanon_lm_risk`` scores the originals (-sum of the token
  log-probabilities); an entity's candidate IC is that of its most informative mention, as for the originals;
* ``index``: the search index: ``-ln((df + 0.5) / (N + 1))`` with ``df`` the number of indexed documents holding
  every content word of the candidate (:func:`textanon.risk.search.information.index_ic`), as ``textanon_search_risk``
  scores spans;
* ``wordfreq`` (the fallback when the pipeline has neither, or the model fails): the sum over the candidate's
  content words of ``-ln p(word)`` (word frequencies, :mod:`textanon.risk.language_models.word_ic`).

Every candidate's IC is capped at its entity's (a true generalization says no more than the original) and is
None when it could not be scored (the optimizer then never chooses it).
"""

import math
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from textanon.risk.language_models.word_ic import WordFrequencyModel
from textanon.risk.search.information import index_ic

#: words of a replacement that say nothing about the original (not counted in the index)
FUNCTION_WORDS = {"a", "an", "the", "in", "of", "at", "least", "between", "and", "another", "other", "people"}

Char = Tuple[int, int]


def content_words(text: str) -> List[str]:
    """The words of a replacement the index counts ("a city in Moldova" -> ["city", "Moldova"])."""
    return [w for w in re.findall(r"[\w$£€]+(?:[.,']\w+)*", text) if w.lower() not in FUNCTION_WORDS]


def lm_candidate_ic(
    model, text: str, mentions: Dict[str, List[Char]], candidates: Dict[str, List[str]]
) -> Dict[str, List[Optional[float]]]:
    """IC of every entity's candidates with a language model in context (module docstring): ``mentions`` entity ->
    character spans of its mentions, ``candidates`` entity -> candidate texts (level 1 first)."""
    out: Dict[str, List[Optional[float]]] = {e: [None] * len(c) for e, c in candidates.items()}
    depth = max((len(c) for c in candidates.values()), default=0)
    for level in range(depth):
        edits = sorted(
            (s, e, eid, cands[min(level, len(cands) - 1)])
            for eid, cands in candidates.items()
            if cands
            for s, e in mentions.get(eid, [])
        )
        edits = _no_overlap(edits)
        new_text, spans, owners, pos, shift = [], [], [], 0, 0
        for s, e, eid, rep in edits:
            new_text.append(text[pos:s])
            start = s + shift
            spans.append((start, start + len(rep)))
            owners.append(eid)
            new_text.append(rep)
            shift += len(rep) - (e - s)
            pos = e
        new_text.append(text[pos:])
        rewritten = "".join(new_text)
        try:
            scores = model.span_token_logprobs(rewritten, spans)
        except Exception:  # noqa: BLE001 — a failed scoring leaves the candidates unscored (never chosen)
            continue
        for eid, lps in zip(owners, scores):
            if level >= len(candidates[eid]) or not len(lps):
                continue
            ic = -float(sum(lps))
            if math.isfinite(ic):
                prev = out[eid][level]
                out[eid][level] = ic if prev is None else max(prev, ic)
    return out


def index_candidate_ic(count: Callable[[Sequence[str]], int], n_docs: int, candidate: str) -> Optional[float]:
    """IC of a candidate from the index's document count of its content words (None without content words)."""
    words = content_words(candidate)
    return index_ic(count(words), n_docs) if words else None


def wordfreq_candidate_ic(candidate: str, model=None) -> float:
    """IC of a candidate from word frequencies (the fallback): the sum over its content words of -ln p(word)."""
    if model is None:
        model = WordFrequencyModel()
    return float(sum(-model.word_logprob(w.lower()) for w in content_words(candidate)))


def capped(ic: Optional[float], original: Optional[float]) -> Optional[float]:
    """``ic`` in [0, ``original``] (None stays None; an unscored original leaves ``ic`` as it is, floored at 0)."""
    if ic is None or not math.isfinite(ic):
        return None
    ic = max(0.0, ic)
    return min(ic, original) if original is not None else ic


def _no_overlap(edits):
    out, end = [], -1
    for edit in edits:
        if edit[0] >= end:
            out.append(edit)
            end = edit[1]
    return out
