"""spacy-llm model ``textanon.OpenAICompatible.v1``: any server speaking the OpenAI chat API.

Works with vLLM (``vllm serve``), the llama.cpp server, Ollama (``http://localhost:11434``),
LM Studio, or OpenAI itself. It POSTs ``{base_url}/v1/chat/completions`` with the standard library
(no extra dependency), greedy by default (``temperature = 0``). The API key is read from the
environment variable *named* in the config (``api_key_env``), never from a file or the config
itself. Errors raise :class:`LLMRequestError` whose message holds only the HTTP status or the error
type — never the request or response body (which may contain the document).
Replies are :class:`~textanon.llm.parsing.LLMReply` strings carrying the server's ``finish_reason``
(``length`` when ``max_tokens`` cut the answer: the task then treats the reply as incomplete).
"""

import ipaddress
import json
import logging
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, List, Optional

from textanon.llm.parsing import LLMReply
from textanon.llm.prompts import split_messages, to_plain_text

logger = logging.getLogger(__name__)

try:
    from spacy_llm.registry import registry as _llm_registry
except ImportError:  # pragma: no cover
    _llm_registry = None

_RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}


class LLMRequestError(RuntimeError):
    """A chat-completion request failed (message holds no document text)."""


class OpenAICompatible:
    """Chat-completion client for an OpenAI-compatible endpoint (vLLM, llama.cpp server, Ollama, OpenAI);
    ``usage`` accumulates the token counts reported by the server."""

    def __init__(
        self,
        model: str,
        base_url: str = "http://127.0.0.1:8000",
        api_key_env: Optional[str] = None,
        timeout: float = 60.0,
        max_tries: int = 3,
        interval: float = 1.0,
        max_tokens: int = 512,
        temperature: float = 0.0,
        extra_body: Optional[Dict[str, Any]] = None,
        chat: bool = True,
        context_length: Optional[int] = None,
    ):
        self.model, self.url = model, chat_completions_url(base_url)
        self.api_key_env = api_key_env
        self.timeout, self.max_tries, self.interval = timeout, max(1, max_tries), interval
        self.max_tokens, self.temperature = max_tokens, temperature
        self.extra_body = dict(extra_body or {})
        self.chat = chat
        self._context_length = context_length
        self.usage: Dict[str, float] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0}
        if api_key_env and not os.environ.get(api_key_env):
            logger.warning("environment variable %s (API key) is not set", api_key_env)
        host = urllib.parse.urlsplit(self.url).hostname or ""
        # loopback servers are reached directly, whatever http_proxy says
        handlers = [urllib.request.ProxyHandler({})] if _is_loopback(host) else []
        self._opener = urllib.request.build_opener(*handlers)

    @property
    def context_length(self) -> Optional[int]:
        """The context length (tokens) spacy-llm may shard prompts to (None: unknown; the task chunks itself)."""
        return self._context_length

    def __call__(self, prompts: Iterable[Iterable[str]]) -> Iterable[Iterable[str]]:
        for doc_prompts in prompts:
            yield [self.complete(prompt) for prompt in doc_prompts]

    def _headers(self) -> Dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key_env:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise LLMRequestError(f"API key environment variable {self.api_key_env} is not set")
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def complete(self, prompt: str) -> LLMReply:
        """One chat-completions request for ``prompt`` (retried on transient errors) -> the reply and its finish
        reason; errors name the status or the exception type, never the response body."""
        messages = split_messages(prompt) if self.chat else [{"role": "user", "content": to_plain_text(prompt)}]
        body = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            **self.extra_body,
        }
        data = json.dumps(body).encode("utf8")
        headers = self._headers()
        start = time.perf_counter()
        for attempt in range(1, self.max_tries + 1):
            try:
                request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
                with self._opener.open(request, timeout=self.timeout) as response:
                    payload = json.loads(response.read().decode("utf8"))
                break
            except urllib.error.HTTPError as err:
                error = LLMRequestError(f"HTTP {err.code} from chat-completions endpoint")
                retry = err.code in _RETRY_STATUS
            except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError) as err:
                reason = getattr(err, "reason", err)
                error = LLMRequestError(f"request failed: {type(reason).__name__}")
                retry = True
            except (ValueError, UnicodeDecodeError) as err:
                error = LLMRequestError(f"malformed response: {type(err).__name__}")
                retry = False
            if not retry or attempt == self.max_tries:
                raise error
            time.sleep(self.interval * 2 ** (attempt - 1))
        self.usage["seconds"] += time.perf_counter() - start
        self.usage["calls"] += 1
        usage = payload.get("usage") or {}
        self.usage["prompt_tokens"] += int(usage.get("prompt_tokens") or 0)
        self.usage["completion_tokens"] += int(usage.get("completion_tokens") or 0)
        try:
            choice = payload["choices"][0]
            content = choice["message"]["content"] if "message" in choice else choice["text"]
        except (KeyError, IndexError, TypeError) as err:
            raise LLMRequestError(f"malformed response: missing {type(err).__name__}") from None
        reason = choice.get("finish_reason") or choice.get("stop_reason")
        return LLMReply(content if isinstance(content, str) else "", reason if isinstance(reason, str) else None)


def chat_completions_url(base_url: str) -> str:
    """``http://host:port`` / ``.../v1`` / full URL -> the chat-completions URL."""
    url = base_url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


#: the spacy-llm model ``textanon.OpenAICompatible.v1`` (entry point): the class itself, so that its signature
#: (settings, types, defaults) is the config's
openai_compatible = OpenAICompatible
if _llm_registry is not None:
    _llm_registry.llm_models.register("textanon.OpenAICompatible.v1", func=openai_compatible)


__all__: List[str] = ["OpenAICompatible", "LLMRequestError", "chat_completions_url"]
