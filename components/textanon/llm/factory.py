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
``AnonymizeTask.fallback_ranges``) instead of crashing or passing the text through unmasked.
Failed docs are not cached, so a re-run retries them.
"""
import atexit
import weakref
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.util import minibatch

from ..extensions import register_extensions
from . import local_model, openai_compatible  # noqa: F401 - register the models
from .prompts import DEFAULT_DESIGN
from .task import AnonymizeTask, _new_stats

DEFAULT_MODEL = {"@llm_models": "textanon.SmolLM2.v1", "max_new_tokens": 256}


@Language.factory(
    "textanon_llm_anonymizer",
    default_config={
        "design": DEFAULT_DESIGN,
        "template_path": None,
        "model": DEFAULT_MODEL,
        "replacement": "***",
        "fallback": "entities",
        "fallback_spans_key": "pii",
        "spans_key": "llm_pii",
        "label": "PII",
        "chunk_size": 2000,
        "chunk_overlap": 200,
        "mask_target": True,
        "chat_markers": True,
        "cache_dir": None,
        "cache_batch_size": 16,
        "save_io": False,
        "validate_types": True,
    },
    assigns=["doc.spans", "doc._.anonymized_text", "doc._.masks", "doc._.anonymization_warnings"],
)
def make_llm_anonymizer(
    nlp: Language,
    name: str,
    design: str,
    template_path: Optional[str],
    model: Callable,
    replacement: str,
    fallback: str,
    fallback_spans_key: str,
    spans_key: str,
    label: str,
    chunk_size: int,
    chunk_overlap: int,
    mask_target: bool,
    chat_markers: bool,
    cache_dir: Optional[str],
    cache_batch_size: int,
    save_io: bool,
    validate_types: bool,
) -> "LLMAnonymizer":
    template = Path(template_path).read_text(encoding="utf8") if template_path else None
    task = AnonymizeTask(design=design, template=template, spans_key=spans_key, label=label,
                         replacement=replacement, chunk_size=chunk_size, chunk_overlap=chunk_overlap,
                         fallback=fallback, fallback_spans_key=fallback_spans_key, mask_target=mask_target,
                         chat_markers=chat_markers, component_name=name)
    return LLMAnonymizer(nlp, name, task, model, cache_dir=cache_dir, cache_batch_size=cache_batch_size,
                         save_io=save_io, validate_types=validate_types)


class LLMAnonymizer(Pipe):
    """spacy-llm ``LLMWrapper`` + textanon's fail-closed error handling and cache flushing."""

    def __init__(self, nlp: Language, name: str, task: AnonymizeTask, model: Callable, *,
                 cache_dir: Optional[str] = None, cache_batch_size: int = 16, save_io: bool = False,
                 validate_types: bool = True):
        from spacy_llm.cache import BatchCache
        from spacy_llm.pipeline.llm import LLMWrapper
        from spacy_llm.ty import validate_type_consistency

        register_extensions()
        self.name, self.task, self.model = name, task, model
        if validate_types:
            validate_type_consistency(task, model)
        # one cache folder per design: spacy-llm refuses a folder made with another prompt template
        path = Path(cache_dir) / _safe(task.design) if cache_dir else None
        self.cache = BatchCache(path=path, batch_size=cache_batch_size, max_batches_in_mem=4)
        self.llm = LLMWrapper(name=name, vocab=nlp.vocab, task=task, model=model, cache=self.cache, save_io=save_io)
        if path is not None:
            ref = weakref.ref(self)
            atexit.register(lambda: ref() is not None and ref().flush_cache())

    # -- processing -------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        return self._process([doc])[0]

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 16) -> Iterator[Doc]:
        for batch in minibatch(stream, batch_size):
            yield from self._process(list(batch))
        self.flush_cache()

    def _process(self, docs: List[Doc]) -> List[Doc]:
        todo = [d for d in docs if any(ch.isalnum() for ch in d.text)]
        done: Dict[int, Doc] = {}
        if todo:
            try:
                done = {id(d): out for d, out in zip(todo, self.llm._process_docs(todo))}
            except Exception:  # noqa: BLE001 - retry one by one so one failure does not sink the batch
                for d in todo:
                    done[id(d)] = self._process_one(d)
        return [done[id(d)] if id(d) in done else self._empty(d) for d in docs]

    def _process_one(self, doc: Doc) -> Doc:
        try:
            return self.llm._process_docs([doc])[0]
        except Exception as err:  # noqa: BLE001 - fail closed: mask more, never crash or pass through
            return self.task.apply_failure(doc, type(err).__name__)

    def _empty(self, doc: Doc) -> Doc:
        """A doc without letters or digits: nothing to ask the model (target masking still applies)."""
        return self.task._finish(doc, [], _new_stats(self.task.design, 0))

    def flush_cache(self) -> None:
        """Write docs still queued in spacy-llm's cache to disk (it only writes full batches)."""
        cache = self.cache
        if getattr(cache, "_path", None) is not None and getattr(cache, "_cache_queue", None):
            cache._persist()

    # -- serialization (nothing learned: the config rebuilds everything) ----------------------
    def to_bytes(self, *, exclude=tuple()) -> bytes:
        return b""

    def from_bytes(self, bytes_data: bytes, *, exclude=tuple()) -> "LLMAnonymizer":
        return self

    def to_disk(self, path, *, exclude=tuple()) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)

    def from_disk(self, path, *, exclude=tuple()) -> "LLMAnonymizer":
        return self


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(name).stem)


__all__: List[Any] = ["make_llm_anonymizer", "LLMAnonymizer", "DEFAULT_MODEL"]
