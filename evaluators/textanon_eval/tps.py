"""TPS — Text Preserved Similarity: TPI that gives partial credit to replacements.

A term of the original that is not protected keeps its IC, exactly as in TPI. A
protected term (any character masked) keeps IC(t) × sim(t, t'), where t' is the
term's text after anonymization (its masked parts substituted by their
replacement strings) and sim the cosine similarity of all-MiniLM-L6-v2 sentence
embeddings, clipped to [0, 1]; a suppressed term (empty t') keeps nothing. So
TPI <= TPS <= 1, and a generalization ("Paris" -> "a city") keeps more than a
suppression.

TPS(P, O) = sum over terms of kept IC / TIC(O).

Replacement strings come from offset files (``[start, end, replacement]``) or,
for string anonymizations, from :func:`aligned_replacements` on top of the masked
spans of the alignment module.
"""

import re
from typing import Dict, List, Optional, Sequence, Tuple

from tqdm import tqdm

from textanon.render.masking import Mask, apply, merge_offsets
from textanon_eval.embeddings import default_encoder
from textanon_eval.term_segmentation import Term, protected_terms
from textanon_eval.tpi import CorpusResult, DocumentIC, EvaluationError, InformationContent, corpus_ics, naming_record

# ---------------------------------------------------------------------------- replacements by alignment


def _normalise(text: str) -> Tuple[str, List[int]]:
    """Lower-cased text without whitespace, and the original index of each kept character."""
    chars, index = [], []
    for i, c in enumerate(text):
        if not c.isspace():
            chars.append(c.lower())
            index.append(i)
    return "".join(chars), index


def aligned_replacements(original: str, anonymized: str, masked: Sequence[Tuple[int, int]]) -> List[Mask]:
    """Replacement text in ``anonymized`` for each masked span of ``original``.

    The kept stretches of the original between masked spans are anchors: each is
    searched (whitespace- and case-insensitively) in the anonymized text after the
    previous anchor; a masked span's replacement is the anonymized text between the
    anchors around it. Adjacent masked spans with only whitespace between them get
    the same (shared) replacement text. Anchors that cannot be found are skipped
    (the replacement then extends to the next anchor found).
    """
    merged = merge_offsets(masked)
    if not merged:
        return []
    norm_anon, anon_index = _normalise(anonymized)
    # anchors: kept stretches before, between and after the masked spans
    bounds = [0] + [x for s, e in merged for x in (s, e)] + [len(original)]
    kept = [(bounds[2 * i], bounds[2 * i + 1]) for i in range(len(merged) + 1)]
    cursor = 0  # position in norm_anon
    anchor_pos: List[Optional[Tuple[int, int]]] = []  # found (start, end) in anonymized chars
    for i, (ks, ke) in enumerate(kept):
        needle, _ = _normalise(original[ks:ke])
        if not needle:
            anchor_pos.append(None)
            continue
        if i == len(kept) - 1:  # the tail anchors at the end: search from the right
            at = norm_anon.rfind(needle, cursor)
        else:
            at = norm_anon.find(needle, cursor)
        if at < 0:
            anchor_pos.append(None)
            continue
        start = anon_index[at]
        end = anon_index[at + len(needle) - 1] + 1
        anchor_pos.append((start, end))
        cursor = at + len(needle)
    out: List[Mask] = []
    for i, (s, e) in enumerate(merged):
        left = next((p[1] for p in reversed(anchor_pos[: i + 1]) if p), 0)
        right = next((p[0] for p in anchor_pos[i + 1 :] if p), len(anonymized))
        rep = anonymized[left:right].strip() if right >= left else ""
        out.append((s, e, rep))
    return out


# ---------------------------------------------------------------------------- TPS


def anonymized_term(original: str, term: Term, masks: Sequence[Mask]) -> str:
    """The term's text with its masked parts replaced (each replacement once)."""
    start, end = term.start, term.end
    inside = [
        (max(s, start) - start, min(e, end) - start, rep or "") for s, e, rep in sorted(masks) if e > start and s < end
    ]
    return re.sub(r"\s+", " ", apply(original[start:end], inside)).strip()


def term_pairs(original: str, dic: DocumentIC, masks: Sequence[Mask]) -> List[Tuple[int, str, str]]:
    """(term index, original term text, anonymized term text) for every protected term."""
    prot = protected_terms(dic.terms, [(s, e) for s, e, _ in masks])
    return [(i, t.text, anonymized_term(original, t, masks)) for i, (t, p) in enumerate(zip(dic.terms, prot)) if p]


def tps_document(original: str, dic: DocumentIC, masks: Sequence[Mask], encoder=None, doc_id=None) -> float:
    """TPS of one anonymization given ``[start, end, replacement]`` masks of the original."""
    total = dic.tic
    if total <= 0:
        raise EvaluationError(f"record {doc_id!r}: the original document has no information content (no terms)")
    pairs = term_pairs(original, dic, masks)
    kept = dic.ic.copy()
    if pairs:
        sims = (encoder or default_encoder()).similarity([a for _, a, _ in pairs], [b for _, _, b in pairs])
        for (i, _, _), sim in zip(pairs, sims):
            kept[i] *= sim
    return float(kept.sum() / total)


def tps_corpus(
    ic: InformationContent,
    originals: Dict[str, str],
    masks: Dict[str, Dict[str, Sequence[Mask]]],
    encoder=None,
    progress: bool = True,
) -> CorpusResult:
    """TPS of several methods: method -> id -> ``[start, end, replacement]`` masks."""

    encoder = encoder or default_encoder()
    ics = corpus_ics(ic, originals, masks, progress)
    result = CorpusResult()
    for method, by_id in tqdm(masks.items(), desc="TPS", unit="method", disable=not progress):
        values, num, den = {}, 0.0, 0.0
        for d, m in by_id.items():
            with naming_record(f"record {d!r} of method {method!r}", "TPS"):
                v = tps_document(originals[d], ics[d], m, encoder, d)
            values[d] = v
            num += v * ics[d].tic
            den += ics[d].tic
        result.per_document[method] = values
        result.micro[method] = num / den if den > 0 else float("nan")
    return result
