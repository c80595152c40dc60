"""spacy-llm task ``textanon.Anonymize.v1``: prompt an LLM for identifying spans and mask them.

For each Doc the task splits the text into overlapping chunks, renders one prompt per chunk with the
chosen design (``prompts.py``), and — in ``parse_responses`` — parses each reply into strings
(``parsing.py``), maps every string to ALL its occurrences in the whole document (``matching.py``)
and writes:

* ``doc.spans[spans_key]`` (default ``"llm_pii"``): merged, token-aligned spans labelled ``label``
  with ``span._.source`` = ``"llm"`` (strings of the model, widened to the recognizer's entities they
  overlap), ``"rule:<name>"`` / ``"target"`` (the floor: direct identifiers found by the textanon rules and
  the protected person's name, masked whatever the model says) or ``"fallback_*"`` (spans added by
  the failure policy);
* ``doc._.anonymized_text`` / ``doc._.masks``: every span replaced by ``replacement``;
* ``doc.user_data["textanon_llm"]``: counts (returned, matched, hallucinated, ignored strings,
  chunks, parse failures, truncated and unmatched replies, fallback) — never raw text;
* ``doc._.anonymization_warnings``: one line per failure/fallback, never raw text.

Fail closed: a chunk whose reply is unparseable, cut at the token limit (unclosed list, or a model
reporting ``finish_reason`` ``length``/``time``/``loop``), or matches nothing in the text while the
chunk holds detectable PII (an instruction injected in the document such as "output []", invented
strings, an empty list) gets the fallback spans of ``fallback_ranges`` and a warning.

The spans are meant as *must-mask* entities for the CP-SAT optimizer of the core pipeline, which
reads ``doc.spans["llm_pii"]``.
"""

import re
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc

from textanon.detect import rules as _rules
from textanon.detect.identifiers import find_identifiers
from textanon.detect.rules import RULES, compile_rules, find_rule_matches
from textanon.detect.target import name_occurrences
from textanon.extensions import DEFAULT_SPANS_KEY, LLM_SPANS_KEY, add_warning, register_extensions
from textanon.llm.matching import NormalizedText, match_strings, ranges_to_spans
from textanon.llm.parsing import parse_reply, reply_truncated
from textanon.llm.prompts import DEFAULT_DESIGN, PromptRenderer, load_template, to_plain_text
from textanon.render.masking import apply, merge

FALLBACK_POLICIES = ("entities", "mask_all", "none")
#: rule labels masked whatever the model says (direct identifiers: emails, phones, URLs, IDs, ...)
DEFAULT_FLOOR_LABELS = ("CODE",)
Range = Tuple[int, int, str]
#: changes whenever the way replies become spans changes (cached docs of another version are not served)
TASK_LOGIC_VERSION = 2
STATS_KEY = "textanon_llm"
_SENT_END_RE = re.compile(r"[.!?][\"'”’)\]]*\s+|\n\s*")
_SPACE_RE = re.compile(r"\s+")

try:
    from spacy_llm.registry import registry as _llm_registry
except ImportError:  # pragma: no cover - spacy-llm is an optional dependency
    _llm_registry = None


class AnonymizeTask:
    """Sharding spacy-llm task: one prompt per chunk, replies merged into one set of spans per Doc.

    Registered as the spacy-llm task ``textanon.Anonymize.v1``; the ``textanon_llm_anonymizer`` component's
    defaults are read from this signature (``textanon.pipes.factories``), so each default is defined here only.

    design: a shipped design name (``textanon.llm_prompt_names()``); ``template`` (the text of a .jinja
    template) or ``template_path`` (a .jinja file) overrides it. ``chat_markers = False``: a plain prompt for
    models that do not take the chat messages the textanon models build. ``floor_labels``: labels of the
    textanon rules masked whatever the model says. See the module docstring for the other settings.
    """

    def __init__(
        self,
        design: str = DEFAULT_DESIGN,
        template: Optional[str] = None,
        spans_key: str = LLM_SPANS_KEY,
        label: str = "PII",
        replacement: str = "***",
        chunk_size: int = 3000,
        chunk_overlap: int = 300,
        fallback: str = "entities",
        fallback_spans_key: str = DEFAULT_SPANS_KEY,
        mask_target: bool = True,
        chat_markers: bool = True,
        component_name: str = "textanon_llm_anonymizer",
        floor_labels: List[str] = list(DEFAULT_FLOOR_LABELS),  # noqa: B006 - never mutated; a config literal
        template_path: Optional[str] = None,
    ):
        register_extensions()
        if template is None and template_path:
            template = Path(template_path).read_text(encoding="utf8")
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
        self.floor_labels = tuple(floor_labels)
        # the project's rules (textanon.detect.rules), read when the task is built: new CODE rules join the floor
        self._floor_rules = [r for r in _rules.compile_rules(_rules.RULES) if r[0] in self.floor_labels]

    # -- spacy-llm protocol --------------------------------------------------------------
    @property
    def prompt_template(self) -> str:
        """Template source (spacy-llm's cache refuses a cache directory made with another template)."""
        return self._renderer.source

    @property
    def settings_identity(self) -> str:
        """Every setting that shapes a processed doc besides the template, with the rules the floor and
        the heuristic use: part of the cache folder name, so that docs cached under a weaker failure
        policy, another floor or older rules are never served."""
        settings = (
            TASK_LOGIC_VERSION,
            self.spans_key,
            self.label,
            self.replacement,
            self.chunk_size,
            self.chunk_overlap,
            self.fallback,
            self.fallback_spans_key,
            self.mask_target,
            self.chat_markers,
            self.floor_labels,
            [tuple(r) for r in _rules.RULES],
        )
        return repr(settings)

    def render(self, text: str, target: Optional[str] = None) -> str:
        """The prompt for one chunk: role-marked, or plain text when ``chat_markers`` is off."""
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

    def parse_responses(self, shards: Iterable[Iterable[Doc]], responses: Iterable[Iterable[str]]) -> Iterable[Doc]:
        """Each doc with the replies to its chunks applied (:meth:`apply_replies`)."""
        for doc_shards, doc_responses in zip(shards, responses):
            doc = list(doc_shards)[0]
            self.apply_replies(doc, list(doc_responses))
            yield doc

    # -- chunking --------------------------------------------------------------------------
    def chunks(self, doc: Doc) -> List[Tuple[int, int]]:
        """Character ranges of the overlapping chunks of ``doc``, cut at sentence starts where possible."""
        return chunk_offsets(doc.text, self.chunk_size, self.chunk_overlap, _sentence_starts(doc))

    # -- annotation -------------------------------------------------------------------------
    def apply_replies(self, doc: Doc, replies: List[Optional[str]]) -> Doc:
        """Parse one reply per chunk, match the strings in the whole doc, set spans and masks.

        A chunk whose reply is unparseable, truncated, or matches nothing although the chunk holds
        detectable PII (a span of the ``entities`` fallback, a floor span) gets the fallback spans and a
        warning (counts only)."""
        chunks = self.chunks(doc)
        stats = new_stats(self.design, len(chunks))
        norm = NormalizedText(doc.text)
        items: List[Range] = []
        entity_ranges = _lazy(lambda: self._entity_ranges(doc))
        floor = _lazy(lambda: self.floor_ranges(doc))
        for i, (start, end) in enumerate(chunks):
            reply = replies[i] if i < len(replies) else None
            parsed = parse_reply(reply)
            truncated = not parsed.complete or reply_truncated(reply)
            matched = match_strings(norm, parsed.strings, STOP_WORDS)
            stats["returned"] += len(parsed.strings)
            stats["matched"] += len(matched.found)
            stats["hallucinated"] += len(matched.hallucinated)
            stats["ignored"] += len(matched.ignored)
            items.extend((s, e, "llm") for s, e in matched.ranges)
            problem = None
            if truncated:  # cut at the token/time limit or looping: never the model's whole answer
                stats["truncated_replies"] += 1
                why = (
                    f"finish reason '{reply.finish_reason}'"
                    if reply_truncated(reply)  # type: ignore[union-attr]
                    else "unclosed list"
                )
                problem = f"truncated LLM reply ({why}, {len(parsed.strings)} strings kept)"
            elif not parsed.ok:
                stats["parse_failures"] += 1
                problem = f"unparseable LLM reply ({parsed.how})"
            elif not matched.found:
                detected = _in_range(entity_ranges() + floor(), start, end)
                if detected:
                    stats["unmatched_replies"] += 1
                    problem = (
                        f"LLM reply matched nothing in the text ({len(parsed.strings)} strings returned, "
                        f"{len(matched.hallucinated)} found nowhere) although {len(detected)} spans "
                        "are detected"
                    )
            if problem is None:
                continue
            fallback = self.fallback_ranges(doc, start, end, entity_ranges())
            items.extend(fallback)
            stats["fallback_spans"] += len(fallback)
            stats["fallback_chunks"] += 1
            add_warning(
                doc,
                f"{self.component_name}: {problem} for chunk {i + 1}/{len(chunks)}; "
                f"fallback '{self.fallback}' applied to that chunk",
            )
        if stats["fallback_chunks"]:
            stats["fallback"] = self.fallback
        return self._finish(doc, items, stats, floor())

    def apply_failure(self, doc: Doc, reason: str) -> Doc:
        """Privacy-first handling of a failed model call: fallback spans for the whole document."""
        stats = new_stats(self.design, len(self.chunks(doc)))
        stats["model_failures"] = 1
        stats["fallback"] = self.fallback
        stats["fallback_chunks"] = stats["chunks"]
        items = self.fallback_ranges(doc, 0, len(doc.text))
        stats["fallback_spans"] = len(items)
        add_warning(
            doc,
            f"{self.component_name}: LLM call failed ({reason}); fallback '{self.fallback}' "
            "applied to the whole document",
        )
        return self._finish(doc, items, stats)

    def _finish(self, doc: Doc, items: List[Range], stats: Dict, floor: Optional[List[Range]] = None) -> Doc:
        """Add the floor and the entities overlapping LLM spans, set the spans, masks and counts."""
        floor = self.floor_ranges(doc) if floor is None else floor
        llm = [r for r in items if r[2] == "llm"]
        if llm:  # an LLM span partly overlapping an entity masks the union (as the optimizer does)
            items = items + [
                (s, e, "llm") for s, e, _src in self._entity_spans(doc) if any(ls < e and s < le for ls, le, _ in llm)
            ]
        spans = ranges_to_spans(doc, items + floor, self.label)
        doc.spans[self.spans_key] = spans
        stats["floor_spans"] = len(floor)
        stats["spans"] = len(spans)
        stats["masked_chars"] = sum(len(_SPACE_RE.sub("", s.text)) for s in spans)
        stats["text_chars"] = len(_SPACE_RE.sub("", doc.text))
        doc.user_data[STATS_KEY] = stats
        if self.replacement is not None:
            masks = merge((s.start_char, s.end_char, self.replacement) for s in spans)
            doc._.anonymized_text = apply(doc.text, masks)
            doc._.masks = [list(m) for m in masks]
        return doc

    # -- floor --------------------------------------------------------------------------------
    def floor_ranges(self, doc: Doc) -> List[Range]:
        """Ranges masked whatever the model says: every match of the textanon rules labelled with
        ``floor_labels`` (``CODE``: emails, phones, URLs, IBANs, ID and application numbers, ...), source
        ``"rule:<name>"``, and, with ``mask_target``, every occurrence of ``doc._.target`` found by
        :func:`textanon.detect.target.name_occurrences` (full name, surname, initials, ..., the pronunciation after the
        name at a biography's opening), source ``"target"``."""
        out: List[Range] = [
            (s, e, f"rule:{name}") for s, e, _label, name in _rules.find_rule_matches(doc.text, self._floor_rules)
        ]
        out += [
            (s, e, f"rule:{name}") for s, e, label, name in find_identifiers(doc.text) if label in self.floor_labels
        ]
        if self.mask_target and doc._.target:
            out.extend((s, e, "target") for s, e in name_occurrences(doc.text, doc._.target))
        return out

    # -- fallback ---------------------------------------------------------------------------
    def fallback_ranges(
        self, doc: Doc, start: int, end: int, entity_ranges: Optional[List[Range]] = None
    ) -> List[Range]:
        """Character ranges to mask in ``[start, end)`` when the LLM gives nothing usable.

        ``entities``: the spans of ``doc.spans[fallback_spans_key]`` (the entity recognizer's ``"pii"``)
        if that group exists, else ``doc.ents`` if a NER ran, else a mask-all-entities heuristic
        (every capitalized non-stop-word token, every token with a digit, and the textanon rules for
        codes, dates and quantities). ``mask_all``: the whole range. ``none``: nothing. The floor
        (:meth:`floor_ranges`) is added to every doc whatever the policy.
        """
        if self.fallback == "none":
            return []
        if self.fallback == "mask_all":
            text = doc.text[start:end]
            lead, trail = len(text) - len(text.lstrip()), len(text) - len(text.rstrip())
            return [(start + lead, end - trail, "fallback_mask_all")] if text.strip() else []
        return _in_range(self._entity_ranges(doc) if entity_ranges is None else entity_ranges, start, end)

    def _entity_spans(self, doc: Doc) -> List[Range]:
        """The recognizer's spans (``doc.spans[fallback_spans_key]``), else ``doc.ents`` if a NER ran."""
        if self.fallback_spans_key in doc.spans:
            return [(s.start_char, s.end_char, "fallback_pii") for s in doc.spans[self.fallback_spans_key]]
        if doc.has_annotation("ENT_IOB"):
            return [(s.start_char, s.end_char, "fallback_ner") for s in doc.ents]
        return []

    def _entity_ranges(self, doc: Doc) -> List[Range]:
        if self.fallback_spans_key in doc.spans or doc.has_annotation("ENT_IOB"):
            return self._entity_spans(doc)
        return heuristic_ranges(doc)


def _lazy(compute: Callable[[], List[Range]]) -> Callable[[], List[Range]]:
    """``compute()`` evaluated on the first call only."""
    cache: List[List[Range]] = []

    def get() -> List[Range]:
        if not cache:
            cache.append(compute())
        return cache[0]

    return get


def _in_range(ranges: Iterable[Range], start: int, end: int) -> List[Range]:
    return [r for r in ranges if r[0] < end and r[1] > start]


def new_stats(design: str, chunks: int) -> Dict:
    return {
        "design": design,
        "chunks": chunks,
        "returned": 0,
        "matched": 0,
        "hallucinated": 0,
        "ignored": 0,
        "parse_failures": 0,
        "truncated_replies": 0,
        "unmatched_replies": 0,
        "model_failures": 0,
        "fallback": None,
        "fallback_chunks": 0,
        "fallback_spans": 0,
        "floor_spans": 0,
    }


def heuristic_ranges(doc: Doc) -> List[Tuple[int, int, str]]:
    """Mask-all-entities heuristic for pipelines without NER: capitalized words, numbers, rule matches."""
    out = [(s, e, "fallback_rules") for s, e, _label, _name in find_rule_matches(doc.text, compile_rules(RULES))]
    out += [(s, e, "fallback_rules") for s, e, _label, _name in find_identifiers(doc.text)]
    for token in doc:
        text = token.text
        if any(ch.isdigit() for ch in text) or (text[:1].isupper() and token.lower_ not in STOP_WORDS):
            out.append((token.idx, token.idx + len(text), "fallback_heuristic"))
    return out


def _sentence_starts(doc: Doc) -> Optional[List[int]]:
    if doc.has_annotation("SENT_START"):
        return [s.start_char for s in doc.sents]
    return None


def chunk_offsets(
    text: str, size: int, overlap: int, sentence_starts: Optional[List[int]] = None
) -> List[Tuple[int, int]]:
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


#: the spacy-llm task ``textanon.Anonymize.v1`` (entry point): the class itself, so that its signature (settings,
#: types, defaults) is the config's
make_anonymize_task = AnonymizeTask
if _llm_registry is not None:
    _llm_registry.llm_tasks.register("textanon.Anonymize.v1", func=make_anonymize_task)
