"""TPI — Text Preserved Information (Manzanares-Salor et al. 2025).

Definitions (natural logarithms, so IC is in nats):

* IC(t) = -log p(t | context): the information content of a term ``t`` of the
  original document O, predicted by a language model in context. With a masked
  LM the term's sub-word tokens are replaced by the mask token; a multi-token
  term's probability is the MINIMUM over its tokens, so IC(t) = max token IC.
* TIC(D) = sum of IC(t) over the terms of D (terms: see :mod:`.terms`).
* TPI(P, O) = TIC(P) / TIC(O). Masked or replaced terms of the anonymized
  document P carry no information (IC 0), so TIC(P) = TIC(O) - sum of the IC of
  the *protected* terms, everything computed on O once.
* Generalizations (``replacements``: methods whose replacement strings are true,
  less specific terms, e.g. textanon with ``replacement = "generalize"``): each
  replaced region gives back the IC of its replacement, scored by the same model
  on the anonymized text P (the terms of P inside the region, clipped to it; a
  context-free model scores the replacement alone) and counted as ONE term (the
  highest IC of its terms: "a city in Moldova" keeps what "Moldova" says), capped
  at the IC of the original terms it protects — a generalization never keeps
  more than the original said (:func:`generalization_credit`). Surrogates and
  labels are not generalizations and get no credit, and neither do the fixed role
  words that stand for a person (:data:`ROLE_WORDS`: "the person", "another
  person"): they are the same whoever was named, so they keep nothing of the
  original and count as masked.

Protection rule: a term is protected when ANY of its characters lies in a masked
span of the original (e.g. "an American actress" is protected if only "American"
was masked). Partial masking therefore counts as losing the whole term.

Masking every term at once would remove all context, so the terms are predicted
in passes (term alternation):

* N-TA (``alternation="n"``, default N = 6): pass k masks terms k, k+N, k+2N, ...
  (N passes; every term masked exactly once; for N >= 2 no two adjacent terms
  are masked together);
* S-TA (``alternation="s"``): pass k masks the k-th term of every sentence (as
  many passes as the longest sentence has terms).

A causal LM sees only the left context and scores each token of the unmasked
text once, so alternation does not apply; the settings record that.
"""

import hashlib
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
from tqdm import tqdm

from textanon.render.masking import apply, merge, output_regions
from textanon.risk.language_models import MaskedLM
from textanon.risk.language_models.resolve import resolve_model
from textanon_eval.errors import EvaluationError
from textanon_eval.term_segmentation import SEGMENTATION_VERSION, Term, get_nlp, protected_terms, segment_doc

CharSpan = Tuple[int, int]
ALTERNATIONS = ("n", "s")
#: the headline IC model of ``evaluate`` and ``benchmark``: independent of the anonymizer's language model
HEADLINE_MODEL = "wordfreq"


#: replacements that say nothing of what they replace: the role words the optimizer and the generalizer write for a
#: person whoever it is (``textanon_optimizer``'s ``target_role``, :mod:`textanon.decide.generalization.persons`);
#: compared lower-cased, without a possessive or the punctuation around them
ROLE_WORDS = frozenset({"the person", "a person", "another person", "the applicant", "the individual"})


def is_role_word(replacement: str) -> bool:
    """True when ``replacement`` is a fixed role word (:data:`ROLE_WORDS`), possessive or not ("another person's")."""
    text = " ".join(replacement.lower().split()).strip(" .,;:!?()[]\"'“”‘’")
    for suffix in ("'s", "’s", "'", "’"):
        if text.endswith(suffix):
            text = text[: -len(suffix)]
            break
    return text in ROLE_WORDS


@contextmanager
def naming_record(where: str, what: str) -> Iterator[None]:
    """Turn any failure inside the block into an :class:`EvaluationError` naming the record (``where``) and the
    step (``what``), instead of crashing anonymously mid-corpus; an EvaluationError passes unchanged."""
    try:
        yield
    except EvaluationError:
        raise
    except Exception as err:
        raise EvaluationError(f"{where}: {what} failed ({type(err).__name__}: {err})") from err


# ---------------------------------------------------------------------------- passes


def build_passes(terms: Sequence[Term], alternation: str = "n", n: int = 6) -> List[List[int]]:
    """Partition of term indices into the passes of N-TA (``"n"``) or S-TA (``"s"``)."""
    if alternation == "n":
        if n < 1:
            raise ValueError(f"N-term alternation needs n >= 1, got {n}")
        passes = [list(range(k, len(terms), n)) for k in range(n)]
    elif alternation == "s":
        by_sent: Dict[int, List[int]] = {}
        for i, term in enumerate(terms):
            by_sent.setdefault(term.sent, []).append(i)
        width = max((len(v) for v in by_sent.values()), default=0)
        passes = [[idx[k] for idx in by_sent.values() if k < len(idx)] for k in range(width)]
    else:
        raise ValueError(f"alternation must be 'n' or 's', got {alternation!r}")
    return [p for p in passes if p]


# ---------------------------------------------------------------------------- models


def display_name(model) -> str:
    """The model's name without local folders (``causal:/x/y/model.gguf`` -> ``causal:model.gguf``)."""
    name = getattr(model, "name", type(model).__name__)
    kind, sep, rest = name.partition(":")
    if sep and os.sep in rest:
        return f"{kind}:{Path(rest).name}"
    return name


def is_masked(model) -> bool:
    """True for a masked language model (scored with term alternation passes), False for a causal one."""
    return isinstance(model, MaskedLM)


# ---------------------------------------------------------------------------- IC per document


@dataclass
class DocumentIC:
    """Terms of one original document and their information content (nats)."""

    terms: List[Term]
    ic: np.ndarray
    text_hash: str = ""

    @property
    def tic(self) -> float:
        """Total information content of the original document: the sum over its terms."""
        return float(self.ic.sum())

    def preserved(self, masked: Sequence[CharSpan]) -> float:
        """TIC of the anonymized document: TIC(O) minus the IC of the protected terms."""
        prot = np.asarray(protected_terms(self.terms, list(masked)), dtype=bool)
        return float(self.ic[~prot].sum()) if len(self.terms) else 0.0

    def to_json(self) -> dict:
        """The cache form: term offsets and sentence indices, IC rounded to 5 decimals (no document text)."""
        return {"terms": [[t.start, t.end, t.sent] for t in self.terms], "ic": [round(float(v), 5) for v in self.ic]}

    @classmethod
    def from_json(cls, data: dict, text: str, text_hash: str = "") -> "DocumentIC":
        """The inverse of :meth:`to_json`, with the term texts taken from ``text``."""
        terms = [Term(s, e, text[s:e], sent) for s, e, sent in data["terms"]]
        return cls(terms, np.asarray(data["ic"], dtype=np.float64), text_hash)


def text_hash(text: str) -> str:
    """SHA-256 of ``text`` (UTF-8), hex: the cache key of a document, never the text itself."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class InformationContent:
    """Computes (and caches) the IC of every term of original documents.

    model: a LanguageModel or a spec for :func:`resolve_model` (loaded lazily).
    alternation / n: N-TA (``"n"``) or S-TA (``"s"``) for masked LMs.
    cache_dir: optional folder of JSON files keyed by text hash + settings, so
        repeated evaluations (many anonymizations, later runs) cost one LM run.
    """

    def __init__(
        self, model=None, alternation: str = "n", n: int = 6, cache_dir: Optional[Union[str, Path]] = None, nlp=None
    ):
        if alternation not in ALTERNATIONS:
            raise ValueError(f"alternation must be 'n' or 's', got {alternation!r}")
        if alternation == "n" and n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        self._model_spec = model
        self._model = None if (model is None or isinstance(model, str)) else model
        self.alternation, self.n = alternation, n
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self._nlp = nlp
        self._memory: Dict[str, DocumentIC] = {}
        self.lm_calls = 0  # documents actually scored by the LM (cache misses)

    @property
    def model(self):
        """The language model, resolved from its spec on first use."""
        if self._model is None:
            self._model = resolve_model(self._model_spec)
        return self._model

    @property
    def nlp(self):
        """The spaCy pipeline that segments documents into terms, loaded on first use."""
        if self._nlp is None:
            self._nlp = get_nlp()
        return self._nlp

    @property
    def settings(self) -> dict:
        """What the IC values depend on (segmentation, model, window, alternation), recorded with the results; the
        cache key is made of it."""
        model = self.model
        base = {
            "segmentation": SEGMENTATION_VERSION,
            "spacy_model": self.nlp.meta.get("name", "") + "-" + self.nlp.meta.get("version", ""),
            "protected_rule": "a term is protected if any of its characters is in a masked span",
        }
        if hasattr(model, "settings") and not is_masked(model):  # context-free models describe themselves
            return base | {"window": None} | model.settings
        masked = is_masked(model)
        out = {
            "model": display_name(model),
            "model_type": "masked" if masked else "causal",
            "segmentation": SEGMENTATION_VERSION,
            "spacy_model": self.nlp.meta.get("name", "") + "-" + self.nlp.meta.get("version", ""),
            "term_ic": "max over sub-word tokens of -ln p (nats)",
            "protected_rule": "a term is protected if any of its characters is in a masked span",
            "window": getattr(model, "window", None),
        }
        if masked:
            out["alternation"] = f"{self.n}-TA" if self.alternation == "n" else "S-TA"
        else:
            out["alternation"] = "not applicable (causal LM: each token scored once given its left context; "
            out["alternation"] += f"requested {self.n}-TA)" if self.alternation == "n" else "requested S-TA)"
            out["context"] = getattr(model, "context", None)
        return out

    def _settings_key(self) -> str:
        s = self.settings
        extra = {k: s[k] for k in ("wordfreq_version", "oov_floor") if k in s}  # absent for LMs: their keys unchanged
        key = json.dumps(
            {k: s[k] for k in ("segmentation", "spacy_model", "window", "alternation") if k in s}
            | {"context": s.get("context"), "model": getattr(self.model, "name", s["model"])}
            | extra,
            sort_keys=True,
        )
        return hashlib.sha256(key.encode()).hexdigest()[:16]

    def document_ic(self, text: str, doc_id=None) -> DocumentIC:
        """IC of each term of ``text`` (an original document)."""
        return self.many([text], [doc_id], progress=False)[0]

    def many(
        self, texts: Sequence[str], ids: Optional[Sequence] = None, progress: bool = True, desc: str = "IC"
    ) -> List[DocumentIC]:
        """IC of many documents; cached ones are not recomputed."""
        ids = list(ids) if ids is not None else list(range(len(texts)))
        for text, doc_id in zip(texts, ids):
            if not isinstance(text, str) or not text.strip():
                raise EvaluationError(f"record {doc_id!r}: the original document is empty")
        settings_key = self._settings_key()
        results: List[Optional[DocumentIC]] = [None] * len(texts)
        todo = []
        for i, text in enumerate(texts):
            h = text_hash(text)
            key = f"{h[:32]}-{settings_key}"
            if key in self._memory:
                results[i] = self._memory[key]
                continue
            cached = self._read_disk(key, text, h)
            if cached is not None:
                self._memory[key] = results[i] = cached
            else:
                todo.append((i, key, h))
        if todo:
            docs = self.nlp.pipe([texts[i] for i, _, _ in todo], batch_size=16)
            for (i, key, h), doc in tqdm(zip(todo, docs), total=len(todo), desc=desc, unit="doc", disable=not progress):
                with naming_record(f"record {ids[i]!r}", "information content"):
                    dic = self._score(doc, h)
                self.lm_calls += 1
                self._memory[key] = results[i] = dic
                self._write_disk(key, dic)
        return results  # type: ignore[return-value]

    def _score(self, doc, h: str) -> DocumentIC:
        terms = segment_doc(doc)
        if not terms:
            return DocumentIC(terms, np.zeros(0), h)
        spans = [t.span for t in terms]
        passes = build_passes(terms, self.alternation, self.n) if is_masked(self.model) else None
        token_lps = self.model.span_token_logprobs(doc.text, spans, passes)
        ic = np.asarray([float(-np.min(lp)) if len(lp) else 0.0 for lp in token_lps], dtype=np.float64)
        return DocumentIC(terms, np.maximum(ic, 0.0), h)

    def _read_disk(self, key: str, text: str, h: str) -> Optional[DocumentIC]:
        if not self.cache_dir:
            return None
        path = self.cache_dir / f"{key}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if data.get("text_hash") != h:
            return None
        return DocumentIC.from_json(data, text, h)

    def _write_disk(self, key: str, dic: DocumentIC) -> None:
        if not self.cache_dir:
            return
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_dir / f".{key}.{os.getpid()}.tmp"
            tmp.write_text(
                json.dumps({"text_hash": dic.text_hash, "settings": self.settings} | dic.to_json()), encoding="utf-8"
            )
            tmp.replace(self.cache_dir / f"{key}.json")
        except OSError:  # read-only or full disk: the memory cache still works
            pass


# ---------------------------------------------------------------------------- TPI


def tpi_document(dic: DocumentIC, masked: Sequence[CharSpan], doc_id=None, credit: float = 0.0) -> float:
    """TPI of one anonymization of a document, given its masked character spans (``credit``: the IC its
    generalizations keep, :func:`generalization_credit`)."""
    total = dic.tic
    if total <= 0:
        raise EvaluationError(f"record {doc_id!r}: the original document has no information content (no terms)")
    return (dic.preserved(masked) + credit) / total


def generalization_credit(ic: "InformationContent", text: str, masks: Sequence[Sequence], dic: DocumentIC) -> float:
    """The IC the replacements of ``masks`` (``[start, end, replacement]``, offsets into the original ``text``) keep:
    per replaced region, the highest IC of the anonymized text's terms inside the replacement (clipped to it, scored
    by ``ic``'s model on the anonymized text), at most the IC of the original terms the region protects; a role word
    (:func:`is_role_word`) keeps nothing."""
    merged = [m for m in merge([(int(m[0]), int(m[1]), m[2] if len(m) > 2 else None) for m in masks])]
    anonymized = apply(text, [(s, e, r or "") for s, e, r in merged])
    regions = [(o, r) for o, r in zip(merged, output_regions(merged)) if r[2].strip() and not is_role_word(r[2])]
    if not regions:
        return 0.0
    if hasattr(ic.model, "word_logprob"):  # context-free (word frequencies): each replacement scored on its own
        kept = [_replacement_ic(ic, rep) for _, (_, _, rep) in regions]
        return _capped_credit(dic, [o for o, _ in regions], kept)
    terms = segment_doc(ic.nlp(anonymized))
    clipped: List[Term] = []
    owner: List[int] = []
    for k, (_, (rs, re_, _)) in enumerate(regions):
        for t in terms:
            s, e = max(t.start, rs), min(t.end, re_)
            if s < e and anonymized[s:e].strip():
                clipped.append(Term(s, e, anonymized[s:e], t.sent))
                owner.append(k)
    if not clipped:
        return 0.0
    passes = build_passes(clipped, ic.alternation, ic.n) if is_masked(ic.model) else None
    lps = ic.model.span_token_logprobs(anonymized, [t.span for t in clipped], passes)
    kept = [0.0] * len(regions)
    for k, lp in zip(owner, lps):
        kept[k] = max(kept[k], max(0.0, float(-np.min(lp))) if len(lp) else 0.0)
    return _capped_credit(dic, [o for o, _ in regions], kept)


def _capped_credit(dic: DocumentIC, regions: Sequence[Sequence], kept: Sequence[float]) -> float:
    """Sum over the replaced ``regions`` (offsets into the original) of their replacement's IC, each at most the IC
    of the original terms it protects."""
    credit = 0.0
    for (start, end, *_), value in zip(regions, kept):
        protected = [i for i, t in enumerate(dic.terms) if t.start < end and start < t.end]
        credit += min(value, float(dic.ic[protected].sum()) if protected else 0.0)
    return credit


def _replacement_ic(ic: "InformationContent", replacement: str) -> float:
    """IC of a replacement on its own with a context-free model: the highest IC of its terms (a replacement stands
    for one term, whose IC is that of its most informative token)."""
    terms = segment_doc(ic.nlp(replacement))
    if not terms:
        return 0.0
    lps = ic.model.span_token_logprobs(replacement, [t.span for t in terms])
    return float(max((max(0.0, float(-np.min(lp))) for lp in lps if len(lp)), default=0.0))


@dataclass
class CorpusResult:
    """Per-method results: mean over documents, micro average and per-document values."""

    per_document: Dict[str, Dict[str, float]] = field(default_factory=dict)  # method -> id -> value
    micro: Dict[str, float] = field(default_factory=dict)

    def mean(self) -> Dict[str, float]:
        """Method -> mean of its per-document values (NaN for a method with no document)."""
        return {m: float(np.mean(list(v.values()))) if v else float("nan") for m, v in self.per_document.items()}


def corpus_ics(
    ic: InformationContent, originals: Dict[str, str], masks: Dict[str, Dict[str, Sequence]], progress: bool = True
) -> Dict[str, DocumentIC]:
    """Information content of every original that ``masks`` (method -> id -> masks) refers to, in the order of
    ``originals``; an id without an original is an error naming the record and the method."""
    for method, by_id in masks.items():
        for doc_id in by_id:
            if doc_id not in originals:
                raise EvaluationError(f"record {doc_id!r} of method {method!r} has no original document")
    needed = sorted({d for by_id in masks.values() for d in by_id}, key=list(originals).index)
    return dict(zip(needed, ic.many([originals[d] for d in needed], needed, progress=progress)))


def tpi_corpus(
    ic: InformationContent,
    originals: Dict[str, str],
    masks: Dict[str, Dict[str, Sequence[CharSpan]]],
    progress: bool = True,
    generalizations: Optional[Dict[str, Dict[str, Sequence[Sequence]]]] = None,
) -> CorpusResult:
    """TPI of several anonymization methods.

    originals: id -> original text; masks: method -> id -> masked character spans of
    the original. Every id of ``masks`` must be in ``originals``. ``generalizations``:
    method -> id -> ``[start, end, replacement]`` of the methods whose replacements are
    generalizations (credited, :func:`generalization_credit`).
    """
    ics = corpus_ics(ic, originals, masks, progress)
    result = CorpusResult()
    generalizations = generalizations or {}
    for method, by_id in masks.items():
        reps = generalizations.get(method, {})
        credit = {d: generalization_credit(ic, originals[d], reps[d], ics[d]) if reps.get(d) else 0.0 for d in by_id}
        values = {d: tpi_document(ics[d], spans, d, credit[d]) for d, spans in by_id.items()}
        result.per_document[method] = values
        num = sum(ics[d].preserved(by_id[d]) + credit[d] for d in by_id)
        den = sum(ics[d].tic for d in by_id)
        result.micro[method] = num / den if den > 0 else float("nan")
    return result


def iter_masked(masks: Iterable[Sequence]) -> List[CharSpan]:
    """Character spans from ``[start, end]`` or ``[start, end, replacement]`` items."""
    return [(int(m[0]), int(m[1])) for m in masks]
