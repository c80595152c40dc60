"""Loading anonymization corpora for the utility evaluators.

* WikiActors-style JSON: a list of records with ``name`` (the id), ``original_abstract``
  and one column per anonymization method (``*_abstract``; ``dev_abstract`` is another
  person's text and is ignored). Null / empty anonymizations mean "not available".
* Extra sources: ``{column: {name: anonymized_text}}`` (e.g. LLM anonymizations).
* Offset files: ``{name: [[start, end, replacement], ...]}`` (``anonymize --masks-out``).
"""

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from tqdm import tqdm

from textanon.io.datasets.alignment import masked_spans
from textanon.io.datasets.base import read_json
from textanon.io.datasets.wikiactors import ORIGINAL, SUFFIX, WikiActor, method_name, read_wikiactors
from textanon_eval.tpi import EvaluationError
from textanon_eval.tps import aligned_replacements


@dataclass
class Corpus:
    originals: Dict[str, str]  # id -> original text
    anonymized: Dict[str, Dict[str, str]] = field(default_factory=dict)  # method -> id -> text
    offsets: Dict[str, Dict[str, List[Tuple[int, int, str]]]] = field(default_factory=dict)  # method -> id -> masks
    missing: Dict[str, List[str]] = field(default_factory=dict)  # method -> ids without an anonymization
    repaired: Optional[Dict[str, int]] = None  # method -> glued placeholder tags split (None: repair off)

    @property
    def methods(self) -> List[str]:
        """Every method: those with anonymized texts, then those with offsets only."""
        return list(self.anonymized) + [m for m in self.offsets if m not in self.anonymized]


def wikiactors_corpus(
    records: Sequence[WikiActor], path, limit: Optional[int] = None, columns: Optional[Sequence[str]] = None
) -> Corpus:
    """Originals and string anonymizations of WikiActors records (read from ``path``), the first ``limit``
    evaluated ones; ``columns`` restricts the anonymization columns (names with or without ``_abstract``)."""
    originals: Dict[str, str] = {}
    anonymized: Dict[str, Dict[str, str]] = {}
    missing: Dict[str, List[str]] = {}
    for rec in records:
        i = rec.index
        doc_id = rec.name or f"#{i}"
        orig = rec.original
        if orig is None and not any(rec.anonymizations.values()):
            continue  # background-only record (no evaluated abstract)
        if not orig or not orig.strip():
            raise EvaluationError(f"record {doc_id!r} (#{i}) of {path}: empty or missing {ORIGINAL!r}")
        if doc_id in originals:
            raise EvaluationError(f"record {doc_id!r} (#{i}) of {path}: duplicate id")
        originals[doc_id] = orig
        for key, value in rec.anonymizations.items():
            method = method_name(key)
            if columns and key not in columns and method not in columns:
                continue
            if value and value.strip():
                anonymized.setdefault(method, {})[doc_id] = value
            else:
                missing.setdefault(method, []).append(doc_id)
        if limit and len(originals) >= limit:
            break
    if not originals:
        raise EvaluationError(f"{path}: no record with an {ORIGINAL!r}")
    for method, by_id in anonymized.items():  # records without the column at all
        absent = [d for d in originals if d not in by_id and d not in missing.get(method, [])]
        missing.setdefault(method, []).extend(absent)
    if columns:
        known = set(anonymized) | set(missing)
        unknown = [c for c in columns if method_name(c) not in known]
        if unknown:
            raise EvaluationError(
                f"{path}: column {unknown[0]!r} not found in any record "
                f"(columns: {', '.join(sorted(k + SUFFIX for k in known))})"
            )
    for method in list(missing):
        if not missing[method]:
            del missing[method]
    return Corpus(originals, anonymized, missing=missing)


def add_extra(corpus: Corpus, path) -> List[str]:
    """Add ``{column: {id: anonymized_text}}`` sources; ids beyond ``--limit`` are dropped.

    Unknown ids (not in the corpus file at all) are an error naming the record.
    """
    data = read_json(path, "")
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise EvaluationError(f"{path}: expected {{column: {{name: anonymized_text}}}}")
    added = []
    for column, by_id in data.items():
        method = method_name(column)
        if method in corpus.anonymized:
            method = f"{method} ({Path(path).stem})"
        texts = {}
        for doc_id, text in by_id.items():
            if not in_corpus(corpus, doc_id, f"record {doc_id!r} of column {column!r} in {path}"):
                continue
            if isinstance(text, str) and text.strip():
                texts[doc_id] = text
            else:
                corpus.missing.setdefault(method, []).append(doc_id)
        corpus.anonymized[method] = texts
        added.append(method)
    return added


def corpus_limit_hides(corpus: Corpus, doc_id: str) -> bool:
    """True when ``doc_id`` is a known record cut by ``--limit`` (set by the loader)."""
    return doc_id in getattr(corpus, "_all_ids", ())


def in_corpus(corpus: Corpus, doc_id: str, where: str) -> bool:
    """Whether ``doc_id`` is one of the corpus' records: False for a record cut by ``--limit``, an error
    (``where``: the record and the file) for an id the corpus file does not have at all."""
    if doc_id in corpus.originals:
        return True
    if corpus_limit_hides(corpus, doc_id):
        return False
    raise EvaluationError(f"{where}: unknown id (not in the corpus)")


def load_offsets(corpus: Corpus, method: str, path) -> None:
    """Add a method given as an offset file ``{id: [[start, end, replacement?], ...]}``."""
    data = read_json(path, "")
    if not isinstance(data, dict):
        raise EvaluationError(f"{path}: expected {{id: [[start, end, replacement], ...]}}")
    masks = {}
    for doc_id, items in data.items():
        if not in_corpus(corpus, doc_id, f"record {doc_id!r} in {path}"):
            continue
        n = len(corpus.originals[doc_id])
        spans = []
        for item in items:
            s, e = int(item[0]), int(item[1])
            if not 0 <= s <= e <= n:
                raise EvaluationError(f"record {doc_id!r} in {path}: span {s}-{e} outside the document (length {n})")
            spans.append((s, e, str(item[2]) if len(item) > 2 and item[2] is not None else ""))
        masks[doc_id] = spans
    corpus.offsets[method] = masks


def load_corpus(
    path,
    limit: Optional[int] = None,
    extra: Sequence = (),
    offsets: Sequence[str] = (),
    columns: Optional[Sequence[str]] = None,
    split_tags: bool = True,
) -> Corpus:
    """WikiActors file + extra sources (``--extra FILE``) + offset files (``--offsets METHOD=FILE``).

    split_tags: repair placeholder tags glued to their neighbours (:func:`repair_glued_tags`).
    """
    records = read_wikiactors(path)
    corpus = wikiactors_corpus(records, path, limit, columns)
    if limit:
        corpus._all_ids = set(wikiactors_corpus(records, path, None, columns).originals)  # type: ignore[attr-defined]
    for p in extra:
        add_extra(corpus, p)
    for spec in offsets:
        if "=" not in spec:
            raise EvaluationError(f"--offsets expects METHOD=FILE, got {spec!r}")
        method, file = spec.split("=", 1)
        load_offsets(corpus, method, file)
    if split_tags:
        repair_glued_tags(corpus)
    return corpus


def masks_of(corpus: Corpus, progress: bool = True, with_replacements: bool = False) -> Dict[str, Dict[str, list]]:
    """method -> id -> masked spans of the original (``(start, end)`` or ``(start, end, replacement)``).

    String anonymizations are aligned to the originals with
    :func:`textanon.io.datasets.alignment.masked_spans`.
    """

    out: Dict[str, Dict[str, list]] = {}
    jobs = [(m, d, t) for m, by_id in corpus.anonymized.items() for d, t in by_id.items()]
    for method, doc_id, text in tqdm(jobs, desc="align", unit="doc", disable=not progress or not jobs):
        original = corpus.originals[doc_id]
        try:
            spans = masked_spans(original, text)
        except Exception as err:
            raise EvaluationError(f"record {doc_id!r} of method {method!r}: alignment failed ({err})") from err
        value = (
            aligned_replacements(original, text, spans) if with_replacements else [(int(s), int(e)) for s, e in spans]
        )
        out.setdefault(method, {})[doc_id] = value
    for method, by_id in corpus.offsets.items():
        out[method] = {d: (m if with_replacements else [(s, e) for s, e, _ in m]) for d, m in by_id.items()}
    return out


# ---------------------------------------------------------------------------- glued placeholder tags

TAG = re.compile(r"\b[A-Z][A-Z_]{2,}\b")


def placeholder_tags(texts: Sequence[str], originals: Sequence[str], min_count: int = 2) -> List[str]:
    """ALL-CAPS words used as stand-alone tokens in a column (>= ``min_count`` times) but never in the originals."""
    seen: Dict[str, int] = {}
    for text in texts:
        for tag in TAG.findall(text):
            seen[tag] = seen.get(tag, 0) + 1
    in_originals = {t for text in originals for t in TAG.findall(text)}
    return sorted((t for t, c in seen.items() if c >= min_count and t not in in_originals), key=lambda t: (-len(t), t))


def split_glued_tags(text: str, tags: Sequence[str]) -> Tuple[str, int]:
    """Put spaces around placeholder tags glued to neighbouring characters (``"SSENSITIVEin"`` -> ``"S SENSITIVE in"``).

    Some anonymizers replaced character offsets that were off by a few characters, so the tag
    swallowed a space or fused with the next word; the alignment would then mark the fused
    neighbour as masked too. Returns the repaired text and the number of tags split.
    """
    if not tags:
        return text, 0
    pattern = re.compile("|".join(map(re.escape, tags)))
    count = 0

    def repl(m):
        nonlocal count
        before = m.start() > 0 and text[m.start() - 1].isalnum()
        after = m.end() < len(text) and text[m.end()].isalnum()
        if before or after:
            count += 1
            return (" " if before else "") + m.group() + (" " if after else "")
        return m.group()

    return pattern.sub(repl, text), count


def repair_glued_tags(corpus: Corpus) -> Dict[str, int]:
    """Apply :func:`split_glued_tags` to every string anonymization; returns method -> tags split."""
    originals = list(corpus.originals.values())
    report = {}
    for method, by_id in corpus.anonymized.items():
        tags = placeholder_tags(list(by_id.values()), originals)
        total = 0
        for doc_id, text in by_id.items():
            by_id[doc_id], n = split_glued_tags(text, tags)
            total += n
        if total:
            report[method] = total
    corpus.repaired = report
    return report
