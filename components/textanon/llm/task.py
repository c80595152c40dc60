"""spacy-llm task ``textanon.Anonymize.v1``: prompt an LLM for identifying spans and mask them.

For each Doc the task splits the text into overlapping chunks, renders one prompt per chunk with the
chosen design (``prompts.py``), and — in ``parse_responses`` — parses each reply into strings
(``parsing.py``), maps every string to ALL its occurrences in the whole document (``matching.py``)
and writes:

* ``doc.spans[spans_key]`` (default ``"llm_pii"``): merged, token-aligned spans labelled ``label``
  with ``span._.source`` = ``"llm"`` (strings of the model), ``"target"`` (the known name of the
  person, when ``mask_target``) or ``"fallback_*"`` (spans added by the failure policy);
* ``doc._.anonymized_text`` / ``doc._.masks``: every span replaced by ``replacement``;
* ``doc.user_data["textanon_llm"]``: counts (returned, matched, hallucinated, ignored strings,
  chunks, parse failures, fallback) — never raw text;
* ``doc._.anonymization_warnings``: one line per failure/fallback, never raw text.

The spans are meant as *must-mask* entities for the CP-SAT optimizer of the core pipeline, which
reads ``doc.spans["llm_pii"]``.
"""
import re
from typing import Dict, Iterable, List, Optional, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from ..extensions import add_warning, register_extensions
from .matching import NormalizedText, find_all, mask_text, match_strings, ranges_to_spans
from .parsing import parse_reply
from .prompts import DEFAULT_DESIGN, PromptRenderer, load_template, to_plain_text

FALLBACK_POLICIES = ("entities", "mask_all", "none")
STATS_KEY = "textanon_llm"
_SENT_END_RE = re.compile(r"[.!?][\"'”’)\]]*\s+|\n\s*")
_SPACE_RE = re.compile(r"\s+")

try:
    from spacy_llm.registry import registry as _llm_registry
except ImportError:  # pragma: no cover - spacy-llm is an optional dependency
    _llm_registry = None


class AnonymizeTask:
    """Sharding spacy-llm task: one prompt per chunk, replies merged into one set of spans per Doc."""

    def __init__(
        self,
        design: str = DEFAULT_DESIGN,
        template: Optional[str] = None,
        spans_key: str = "llm_pii",
        label: str = "PII",
        replacement: str = "***",
        chunk_size: int = 3000,
        chunk_overlap: int = 300,
        fallback: str = "entities",
        fallback_spans_key: str = "pii",
        mask_target: bool = True,
        chat_markers: bool = True,
        component_name: str = "textanon_llm_anonymizer",
    ):
        register_extensions()
        if fallback not in FALLBACK_POLICIES:
            raise ValueError(f"fallback must be one of {FALLBACK_POLICIES}, not {fallback!r}")
        if chunk_size > 0 and not 0 <= chunk_overlap < chunk_size:
            raise ValueError("chunk_overlap must be >= 0 and smaller than chunk_size")
        self.design = design
        self._renderer = PromptRenderer(template if template is not None else load_template(design))
        self.spans_key, self.label, self.replacement = spans_key, label, replacement
        self.chunk_size, self.chunk_overlap = chunk_size, chunk_overlap
        self.fallback, self.fallback_spans_key = fallback, fallback_spans_key
        self.mask_target, self.chat_markers = mask_target, chat_markers
        self.component_name = component_name

    # -- spacy-llm protocol --------------------------------------------------------------
    @property
    def prompt_template(self) -> str:
        """Template source (spacy-llm's cache refuses a cache directory made with another template)."""
        return self._renderer.source

    def render(self, text: str, target: Optional[str] = None) -> str:
        prompt = self._renderer.render(text, target)
        return prompt if self.chat_markers else to_plain_text(prompt)

    def generate_prompts(
        self, docs: Iterable[Doc], context_length: Optional[int] = None
    ) -> Iterable[Tuple[Iterable[str], Iterable[Doc]]]:
        """One prompt per chunk of each doc. The "shards" are the doc itself, once per chunk: the
        chunk offsets are recomputed (deterministically) in ``parse_responses``."""
        for doc in docs:
            prompts = [self.render(doc.text[s:e], doc._.target) for s, e in self.chunks(doc)]
            yield prompts, [doc] * len(prompts)

    def parse_responses(
        self, shards: Iterable[Iterable[Doc]], responses: Iterable[Iterable[str]]
    ) -> Iterable[Doc]:
        for doc_shards, doc_responses in zip(shards, responses):
            doc = list(doc_shards)[0]
            self.apply_replies(doc, list(doc_responses))
            yield doc

    # -- chunking --------------------------------------------------------------------------
    def chunks(self, doc: Doc) -> List[Tuple[int, int]]:
        return chunk_offsets(doc.text, self.chunk_size, self.chunk_overlap, _sentence_starts(doc))

    # -- annotation -------------------------------------------------------------------------
    def apply_replies(self, doc: Doc, replies: List[Optional[str]]) -> Doc:
        """Parse one reply per chunk, match the strings in the whole doc, set spans and masks."""
        chunks = self.chunks(doc)
        stats = _new_stats(self.design, len(chunks))
        norm = NormalizedText(doc.text)
        items: List[Tuple[int, int, str]] = []
        for i, (start, end) in enumerate(chunks):
            reply = replies[i] if i < len(replies) else None
            parsed = parse_reply(reply)
            if not parsed.ok:
                stats["parse_failures"] += 1
                fallback = self.fallback_ranges(doc, start, end)
                items.extend(fallback)
                stats["fallback_spans"] += len(fallback)
                add_warning(doc, f"{self.component_name}: unparseable LLM reply for chunk {i + 1}/{len(chunks)} "
                                 f"({parsed.how}); fallback '{self.fallback}' applied to that chunk")
                continue
            matched = match_strings(norm, parsed.strings, STOP_WORDS)
            stats["returned"] += len(parsed.strings)
            stats["matched"] += len(matched.found)
            stats["hallucinated"] += len(matched.hallucinated)
            stats["ignored"] += len(matched.ignored)
            items.extend((s, e, "llm") for s, e in matched.ranges)
        if stats["parse_failures"]:
            stats["fallback"] = self.fallback
        return self._finish(doc, items, stats)

    def apply_failure(self, doc: Doc, reason: str) -> Doc:
        """Privacy-first handling of a failed model call: fallback spans for the whole document."""
        stats = _new_stats(self.design, len(self.chunks(doc)))
        stats["model_failures"] = 1
        stats["fallback"] = self.fallback
        items = self.fallback_ranges(doc, 0, len(doc.text))
        stats["fallback_spans"] = len(items)
        add_warning(doc, f"{self.component_name}: LLM call failed ({reason}); fallback '{self.fallback}' "
                         "applied to the whole document")
        return self._finish(doc, items, stats)

    def _finish(self, doc: Doc, items: List[Tuple[int, int, str]], stats: Dict) -> Doc:
        if self.mask_target and doc._.target:
            items.extend((s, e, "target") for s, e in target_ranges(doc.text, doc._.target))
        spans = ranges_to_spans(doc, items, self.label)
        doc.spans[self.spans_key] = spans
        stats["spans"] = len(spans)
        stats["masked_chars"] = sum(len(_SPACE_RE.sub("", s.text)) for s in spans)
        stats["text_chars"] = len(_SPACE_RE.sub("", doc.text))
        doc.user_data[STATS_KEY] = stats
        if self.replacement is not None:
            text, masks = mask_text(doc.text, [(s.start_char, s.end_char) for s in spans], self.replacement)
            doc._.anonymized_text = text
            doc._.masks = masks
        return doc

    # -- fallback ---------------------------------------------------------------------------
    def fallback_ranges(self, doc: Doc, start: int, end: int) -> List[Tuple[int, int, str]]:
        """Character ranges to mask in ``[start, end)`` when the LLM gives nothing usable.

        ``entities``: the spans of ``doc.spans[fallback_spans_key]`` (the entity recognizer's ``"pii"``)
        if that group exists, else ``doc.ents`` if a NER ran, else a mask-all-entities heuristic
        (every capitalized non-stop-word token, every token with a digit, and the textanon rules for
        codes, dates and quantities). ``mask_all``: the whole range. ``none``: nothing.
        """
        if self.fallback == "none":
            return []
        if self.fallback == "mask_all":
            text = doc.text[start:end]
            lead, trail = len(text) - len(text.lstrip()), len(text) - len(text.rstrip())
            return [(start + lead, end - trail, "fallback_mask_all")] if text.strip() else []
        if self.fallback_spans_key in doc.spans:
            spans, source = list(doc.spans[self.fallback_spans_key]), "fallback_pii"
        elif doc.has_annotation("ENT_IOB"):
            spans, source = list(doc.ents), "fallback_ner"
        else:
            return [r for r in heuristic_ranges(doc) if r[0] < end and r[1] > start]
        return [(s.start_char, s.end_char, source) for s in spans if s.start_char < end and s.end_char > start]


def _new_stats(design: str, chunks: int) -> Dict:
    return {"design": design, "chunks": chunks, "returned": 0, "matched": 0, "hallucinated": 0, "ignored": 0,
            "parse_failures": 0, "model_failures": 0, "fallback": None, "fallback_spans": 0}


def heuristic_ranges(doc: Doc) -> List[Tuple[int, int, str]]:
    """Mask-all-entities heuristic for pipelines without NER: capitalized words, numbers, rule matches."""
    from ..rules import RULES, compile_rules, find_rule_matches

    out = [(s, e, "fallback_rules") for s, e, _label, _name in find_rule_matches(doc.text, compile_rules(RULES))]
    for token in doc:
        text = token.text
        if any(ch.isdigit() for ch in text) or (text[:1].isupper() and token.lower_ not in STOP_WORDS):
            out.append((token.idx, token.idx + len(text), "fallback_heuristic"))
    return out


def target_ranges(text: str, target: str) -> List[Tuple[int, int]]:
    """Occurrences of the target's full name and of each capitalized part of it (3+ letters)."""
    norm = NormalizedText(text)
    ranges = list(find_all(norm, target))
    parts = [p for p in re.split(r"[\s,()]+", target) if len(p.strip(".")) >= 3 and p[:1].isupper()]
    for part in parts:
        if part.casefold() not in STOP_WORDS:
            ranges.extend(find_all(norm, part))
    return ranges


def _sentence_starts(doc: Doc) -> Optional[List[int]]:
    if doc.has_annotation("SENT_START"):
        return [s.start_char for s in doc.sents]
    return None


def chunk_offsets(text: str, size: int, overlap: int, sentence_starts: Optional[List[int]] = None) -> List[Tuple[int, int]]:
    """Character windows of at most ``size`` chars covering ``text``, cut at sentence ends where
    possible (else at whitespace), each starting ``overlap`` chars (rounded to a boundary) before
    the end of the previous one. ``size <= 0`` means one chunk."""
    n = len(text)
    if size <= 0 or n <= size:
        return [(0, n)]
    sents = sorted(set(sentence_starts or [m.end() for m in _SENT_END_RE.finditer(text)]))
    spaces = [m.end() for m in _SPACE_RE.finditer(text)]
    chunks, start = [], 0
    while True:
        if n - start <= size:
            chunks.append((start, n))
            return chunks
        limit, floor = start + size, start + size // 2
        end = _last_in(sents, floor, limit) or _last_in(spaces, floor, limit) or limit
        chunks.append((start, end))
        if overlap <= 0:
            start = end
            continue
        want = end - overlap
        nxt = _first_in(sents, want, end) or _first_in(spaces, want, end) or want
        start = max(nxt, start + 1)


def _last_in(positions: List[int], low: int, high: int) -> Optional[int]:
    best = None
    for p in positions:
        if p > high:
            break
        if p > low:
            best = p
    return best


def _first_in(positions: List[int], low: int, high: int) -> Optional[int]:
    for p in positions:
        if low <= p < high:
            return p
    return None


if _llm_registry is not None:

    @_llm_registry.llm_tasks("textanon.Anonymize.v1")
    def make_anonymize_task(
        design: str = DEFAULT_DESIGN,
        template_path: Optional[str] = None,
        spans_key: str = "llm_pii",
        label: str = "PII",
        replacement: str = "***",
        chunk_size: int = 3000,
        chunk_overlap: int = 300,
        fallback: str = "entities",
        fallback_spans_key: str = "pii",
        mask_target: bool = True,
        chat_markers: bool = True,
    ) -> AnonymizeTask:
        """spacy-llm task: ``design`` is a shipped design name (``textanon.llm_prompt_names()``);
        ``template_path`` (a .jinja file) overrides it. Use ``chat_markers = false`` with models that
        take a plain prompt instead of the chat messages the textanon models build."""
        template = open(template_path, encoding="utf8").read() if template_path else None
        return AnonymizeTask(design=design, template=template, spans_key=spans_key, label=label,
                             replacement=replacement, chunk_size=chunk_size, chunk_overlap=chunk_overlap,
                             fallback=fallback, fallback_spans_key=fallback_spans_key, mask_target=mask_target,
                             chat_markers=chat_markers)
