"""Loading anonymization corpora for the utility evaluators.

* WikiActors-style JSON: a list of records with ``name`` (the id), ``original_abstract``
  and one column per anonymization method (``*_abstract``; ``dev_abstract`` is another
  person's text and is ignored). Null / empty anonymizations mean "not available".
* Extra sources: ``{column: {name: anonymized_text}}`` (e.g. LLM anonymizations).
* Offset files: ``{name: [[start, end, replacement], ...]}`` (``anonymize --masks-out``).
"""
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .tpi import EvaluationError

ID_KEY = "name"
ORIGINAL_KEY = "original_abstract"
SKIP_COLUMNS = {ORIGINAL_KEY, "dev_abstract"}
SUFFIX = "_abstract"


def method_name(column: str) -> str:
    return column[: -len(SUFFIX)] if column.endswith(SUFFIX) else column


@dataclass
class Corpus:
    originals: Dict[str, str]  # id -> original text
    anonymized: Dict[str, Dict[str, str]] = field(default_factory=dict)  # method -> id -> text
    offsets: Dict[str, Dict[str, List[Tuple[int, int, str]]]] = field(default_factory=dict)  # method -> id -> masks
    missing: Dict[str, List[str]] = field(default_factory=dict)  # method -> ids without an anonymization

    @property
    def methods(self) -> List[str]:
        return list(self.anonymized) + [m for m in self.offsets if m not in self.anonymized]


def _read_json(path) -> object:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError as err:
        raise EvaluationError(f"{path}: not valid JSON ({err})") from err


def load_wikiactors(path, limit: Optional[int] = None, columns: Optional[Sequence[str]] = None) -> Corpus:
    """Originals and string anonymizations of a WikiActors-style file."""
    data = _read_json(path)
    if not isinstance(data, list):
        raise EvaluationError(f"{path}: expected a JSON list of records")
    originals: Dict[str, str] = {}
    anonymized: Dict[str, Dict[str, str]] = {}
    missing: Dict[str, List[str]] = {}
    for i, rec in enumerate(data):
        if not isinstance(rec, dict):
            raise EvaluationError(f"{path}: record #{i} is not an object")
        doc_id = rec.get(ID_KEY) or f"#{i}"
        orig = rec.get(ORIGINAL_KEY)
        if orig is None and not any(k.endswith(SUFFIX) and k not in SKIP_COLUMNS and rec.get(k) for k in rec):
            continue  # background-only record (no evaluated abstract)
        if not isinstance(orig, str) or not orig.strip():
            raise EvaluationError(f"record {doc_id!r} (#{i}) of {path}: empty or missing {ORIGINAL_KEY!r}")
        if doc_id in originals:
            raise EvaluationError(f"record {doc_id!r} (#{i}) of {path}: duplicate id")
        originals[doc_id] = orig
        for key, value in rec.items():
            if not key.endswith(SUFFIX) or key in SKIP_COLUMNS:
                continue
            method = method_name(key)
            if columns and key not in columns and method not in columns:
                continue
            if isinstance(value, str) and value.strip():
                anonymized.setdefault(method, {})[doc_id] = value
            else:
                missing.setdefault(method, []).append(doc_id)
        if limit and len(originals) >= limit:
            break
    if not originals:
        raise EvaluationError(f"{path}: no record with an {ORIGINAL_KEY!r}")
    return Corpus(originals, anonymized, missing=missing)


def add_extra(corpus: Corpus, path) -> List[str]:
    """Add ``{column: {id: anonymized_text}}`` sources; ids beyond ``--limit`` are dropped.

    Unknown ids (not in the corpus file at all) are an error naming the record.
    """
    data = _read_json(path)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise EvaluationError(f"{path}: expected {{column: {{name: anonymized_text}}}}")
    added = []
    for column, by_id in data.items():
        method = method_name(column)
        if method in corpus.anonymized:
            method = f"{method} ({Path(path).stem})"
        texts = {}
        for doc_id, text in by_id.items():
            if doc_id not in corpus.originals:
                if corpus_limit_hides(corpus, doc_id):
                    continue
                raise EvaluationError(f"record {doc_id!r} of column {column!r} in {path}: unknown id (not in the corpus)")
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


def load_offsets(corpus: Corpus, method: str, path) -> None:
    """Add a method given as an offset file ``{id: [[start, end, replacement?], ...]}``."""
    data = _read_json(path)
    if not isinstance(data, dict):
        raise EvaluationError(f"{path}: expected {{id: [[start, end, replacement], ...]}}")
    masks = {}
    for doc_id, items in data.items():
        if doc_id not in corpus.originals:
            if corpus_limit_hides(corpus, doc_id):
                continue
            raise EvaluationError(f"record {doc_id!r} in {path}: unknown id (not in the corpus)")
        n = len(corpus.originals[doc_id])
        spans = []
        for item in items:
            s, e = int(item[0]), int(item[1])
            if not 0 <= s <= e <= n:
                raise EvaluationError(f"record {doc_id!r} in {path}: span {s}-{e} outside the document (length {n})")
            spans.append((s, e, str(item[2]) if len(item) > 2 and item[2] is not None else ""))
        masks[doc_id] = spans
    corpus.offsets[method] = masks


def load_corpus(path, limit: Optional[int] = None, extra: Sequence = (), offsets: Sequence[str] = (), columns: Optional[Sequence[str]] = None) -> Corpus:
    """WikiActors file + extra sources (``--extra FILE``) + offset files (``--offsets METHOD=FILE``)."""
    corpus = load_wikiactors(path, limit, columns)
    if limit:
        corpus._all_ids = set(load_wikiactors(path, None, columns).originals)  # type: ignore[attr-defined]
    for p in extra:
        add_extra(corpus, p)
    for spec in offsets:
        if "=" not in spec:
            raise EvaluationError(f"--offsets expects METHOD=FILE, got {spec!r}")
        method, file = spec.split("=", 1)
        load_offsets(corpus, method, file)
    return corpus


def masks_of(corpus: Corpus, progress: bool = True, with_replacements: bool = False) -> Dict[str, Dict[str, list]]:
    """method -> id -> masked spans of the original (``(start, end)`` or ``(start, end, replacement)``).

    String anonymizations are aligned to the originals with
    :func:`textanon.evaluation.alignment.masked_spans`.
    """
    from tqdm import tqdm

    from .alignment import masked_spans
    from .tps import aligned_replacements

    out: Dict[str, Dict[str, list]] = {}
    jobs = [(m, d, t) for m, by_id in corpus.anonymized.items() for d, t in by_id.items()]
    for method, doc_id, text in tqdm(jobs, desc="align", unit="doc", disable=not progress or not jobs):
        original = corpus.originals[doc_id]
        try:
            spans = masked_spans(original, text)
        except Exception as err:
            raise EvaluationError(f"record {doc_id!r} of method {method!r}: alignment failed ({err})") from err
        value = aligned_replacements(original, text, spans) if with_replacements else [(int(s), int(e)) for s, e in spans]
        out.setdefault(method, {})[doc_id] = value
    for method, by_id in corpus.offsets.items():
        out[method] = {d: (m if with_replacements else [(s, e) for s, e, _ in m]) for d, m in by_id.items()}
    return out
