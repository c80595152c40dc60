"""``textanon_llm_anonymizer``: spacy-llm's ``llm`` component pre-assembled for anonymization.

    nlp = spacy.blank("en")
    nlp.add_pipe("textanon_llm_anonymizer")                      # offline: SmolLM2-135M, best design
    nlp.add_pipe("textanon_llm_anonymizer", config={"design": "tab_categories_zero_shot",
        "model": {"@llm_models": "textanon.OpenAICompatible.v1", "model": "qwen2.5-7b-instruct",
                  "base_url": "http://127.0.0.1:8000"}})

The component builds spacy-llm's ``LLMWrapper`` (what the ``llm`` factory builds) with the
``textanon.Anonymize.v1`` task, the configured model and spacy-llm's ``BatchCache``, and adds the
privacy-first failure policy around it: if the model raises (error, timeout, missing key), the
doc gets a warning in ``doc._.anonymization_warnings`` and the fallback spans (see
``AnonymizeTask.fallback_ranges``) instead of crashing or passing the text through unmasked; replies
that are unparseable, truncated or match nothing are handled the same way by the task, and the rule
detections and the target's name are masked whatever the model says (``AnonymizeTask.floor_ranges``).
Failed docs are not cached, so a re-run retries them.

spacy-llm logs every prompt and reply (the document's text) at DEBUG level on the ``spacy_llm`` logger;
the component drops those records (:class:`TextFreeLogFilter`), so no document text reaches a log even
when an application turns DEBUG logging on.
"""

import atexit
import hashlib
import logging
import re
import warnings
import weakref
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, Optional

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.util import minibatch

from textanon.extensions import register_extensions
from textanon.llm import local_model, openai_compatible  # noqa: F401 - register the models
from textanon.llm.task import AnonymizeTask, new_stats

DEFAULT_MODEL = {"@llm_models": "textanon.SmolLM2Chat.v1", "max_new_tokens": 256}
#: settings of the component passed on to the task (:class:`AnonymizeTask`, where their defaults are defined)
TASK_SETTINGS = (
    "replacement",
    "fallback",
    "fallback_spans_key",
    "spans_key",
    "label",
    "chunk_size",
    "chunk_overlap",
    "mask_target",
    "floor_labels",
    "chat_markers",
)
#: the task's arguments the component's config holds: the prompt design and :data:`TASK_SETTINGS`
TASK_ARGS = ("design", "template_path", *TASK_SETTINGS)
#: settings of the component passed on to :class:`LLMAnonymizer` (where their defaults are defined)
CACHE_SETTINGS = ("cache_dir", "cache_batch_size", "save_io", "validate_types")


class TextFreeLogFilter(logging.Filter):
    """Drops spacy-llm's DEBUG records: they hold prompts, replies and document text."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep INFO and above only."""
        return record.levelno > logging.DEBUG


def silence_text_logging(logger_name: str = "spacy_llm") -> None:
    """Attach :class:`TextFreeLogFilter` to spacy-llm's logger (once)."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, TextFreeLogFilter) for f in logger.filters):
        logger.addFilter(TextFreeLogFilter())


class LLMAnonymizer(Pipe):
    """spacy-llm ``LLMWrapper`` + textanon's fail-closed error handling and cache flushing."""

    def __init__(
        self,
        nlp: Language,
        name: str,
        task: AnonymizeTask,
        model: Callable,
        *,
        cache_dir: Optional[str] = None,
        cache_batch_size: int = 16,
        save_io: bool = False,
        validate_types: bool = True,
    ):
        from spacy_llm.pipeline.llm import LLMWrapper
        from spacy_llm.ty import validate_type_consistency

        register_extensions()
        silence_text_logging()
        self.name, self.task, self.model = name, task, model
        if validate_types:
            validate_type_consistency(task, model)
        # One cache folder per (design, template text, task settings, model settings): spacy-llm refuses a
        # folder made with another template, and knows nothing of the model, so answers of a 135M model
        # must not be served to a config that names GPT-4o (or another max_new_tokens); cached docs carry
        # their fallback and floor spans, so a weaker failure policy or older rules must not be served either.
        path = Path(cache_dir) / cache_folder_name(task, model) if cache_dir else None
        self.cache = DocCache(path=path, batch_size=cache_batch_size, max_batches_in_mem=4)
        with warnings.catch_warnings():
            # the task chunks documents by characters itself: spacy-llm's context-length warning is noise
            warnings.filterwarnings("ignore", message="Task supports sharding")
            self.llm = LLMWrapper(name=name, vocab=nlp.vocab, task=task, model=model, cache=self.cache, save_io=save_io)
        if path is not None:
            ref = weakref.ref(self)
            atexit.register(lambda: ref() is not None and ref().flush_cache())

    # -- processing -------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        return self._process([doc])[0]

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 16) -> Iterator[Doc]:
        """Process ``stream`` in batches, one model call per doc; the cache is flushed at the end."""
        for batch in minibatch(stream, batch_size):
            yield from self._process(list(batch))
        self.flush_cache()

    def _process(self, docs: List[Doc]) -> List[Doc]:
        # One doc per model call: a failure (error, timeout, missing key) then falls back for that doc
        # only, is not retried a second time here (the models retry themselves), and is not cached.
        # The textanon models send one request per prompt anyway, so nothing is lost by not batching.
        return [self._process_one(d) if any(ch.isalnum() for ch in d.text) else self._empty(d) for d in docs]

    def _process_one(self, doc: Doc) -> Doc:
        try:
            return _as_lists(self.llm._process_docs([doc])[0])
        except Exception as err:  # noqa: BLE001 - fail closed: mask more, never crash or pass through
            return self.task.apply_failure(doc, type(err).__name__)

    def _empty(self, doc: Doc) -> Doc:
        """A doc without letters or digits: nothing to ask the model (target masking still applies)."""
        return self.task._finish(doc, [], new_stats(self.task.design, 0))

    def flush_cache(self) -> None:
        """Write docs still queued in spacy-llm's cache to disk (it only writes full batches)."""
        cache = self.cache
        if getattr(cache, "_path", None) is not None and getattr(cache, "_cache_queue", None):
            cache._persist()

    # -- serialization (nothing learned: the config rebuilds everything) ----------------------
    def to_bytes(self, *, exclude=tuple()) -> bytes:
        """Nothing to save: the config rebuilds the component."""
        return b""

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()) -> "LLMAnonymizer":
        """Nothing to load: returns the component unchanged."""
        return self

    def to_disk(self, path, *, exclude=tuple()) -> None:
        """An empty folder: the config rebuilds the component."""
        Path(path).mkdir(parents=True, exist_ok=True)

    def from_disk(self, path, *, exclude=tuple()) -> "LLMAnonymizer":
        """Nothing to load: returns the component unchanged."""
        return self


def _as_lists(doc: Doc) -> Doc:
    """A doc served from spacy-llm's cache comes back with tuples where lists were stored: warnings and
    masks are lists again, so that later components can append to them."""
    if doc._.anonymization_warnings is not None:
        doc._.anonymization_warnings = list(doc._.anonymization_warnings)
    if doc._.masks is not None:
        doc._.masks = [list(m) for m in doc._.masks]
    return doc


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(name).stem)


def model_identity(model: Any) -> str:
    """A string naming the model and its settings: ``cache_key`` of the textanon models; for other
    spacy-llm models their class (or function) and simple attribute (or closure) values, minus
    anything that looks like a credential. Only a hash of it is ever written (the cache folder name)."""
    key = getattr(model, "cache_key", None)
    if isinstance(key, str):
        return key
    cls = type(model)
    name = getattr(model, "__qualname__", None) or f"{cls.__module__}.{cls.__qualname__}"
    values = dict(vars(model)) if hasattr(model, "__dict__") and not callable(getattr(model, "__code__", None)) else {}
    for i, cell in enumerate(getattr(model, "__closure__", None) or ()):
        try:
            values[f"closure{i}"] = cell.cell_contents
        except ValueError:  # empty cell
            continue
    simple = {k: _simple(v) for k, v in sorted(values.items()) if not _SECRET_RE.search(k) and _simple(v) is not None}
    return f"{name}:{simple}"


_SECRET_RE = re.compile(r"key|token|secret|auth|header|password", re.I)


def _simple(value: Any, depth: int = 0) -> Any:
    if isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict) and depth < 2:
        out = {
            str(k): _simple(v, depth + 1)
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
            if not _SECRET_RE.search(str(k))
        }
        return {k: v for k, v in out.items() if v is not None}
    if isinstance(value, (list, tuple)) and depth < 2:
        return [_simple(v, depth + 1) for v in value]
    return None


def cache_folder_name(task: AnonymizeTask, model: Any) -> str:
    """``<design>-<hash of template, task settings (failure policy, floor, rules) and model identity>``."""
    key = "\x00".join((task.prompt_template, task.settings_identity, model_identity(model)))
    digest = hashlib.sha256(key.encode("utf8")).hexdigest()
    return f"{_safe(task.design)}-{digest[:12]}"


def _doc_key(doc: Doc) -> int:
    """Cache key of a doc: its text and target (spacy-llm's default, a sum of token hashes, ignores word
    order and the target, so "Tom hit Bob" would be served the answer cached for "Bob hit Tom")."""
    data = (doc.text + "\x00" + (doc._.target or "")).encode("utf8")
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> 1 or 1


def _make_doc_cache():
    from spacy_llm.cache import BatchCache

    class _DocCache(BatchCache):
        """spacy-llm's ``BatchCache`` keyed by :func:`_doc_key` (text + target)."""

        @staticmethod
        def _doc_id(doc: Doc) -> int:
            return _doc_key(doc)

    return _DocCache


def DocCache(**kwargs):  # noqa: N802 - a class built lazily (spacy-llm is optional)
    """spacy-llm's ``BatchCache`` keyed by text and target (:func:`_doc_key`), built with ``kwargs``."""
    return _make_doc_cache()(**kwargs)


__all__: List[Any] = ["LLMAnonymizer", "DEFAULT_MODEL"]
