"""``textanon.OpenAICompatible.v1`` against a canned chat-completions server on 127.0.0.1."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import spacy

from textanon.llm.openai_compatible import LLMRequestError, OpenAICompatible, chat_completions_url

TEXT = "Ada Quint was born in Cork in 1961 and builds tidal turbines."


class Handler(BaseHTTPRequestHandler):
    requests = []
    status = 200
    reply = '```json\n["Ada Quint", "Cork", "1961"]\n```'
    finish_reason = "stop"

    def do_POST(self):  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Handler.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        if Handler.status != 200:
            self.send_response(Handler.status)
            self.end_headers()
            self.wfile.write(b'{"error": "secret document text echoed here"}')
            return
        payload = {
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": Handler.reply},
                    "finish_reason": Handler.finish_reason,
                }
            ],
            "usage": {"prompt_tokens": 42, "completion_tokens": 7},
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):  # keep test output quiet
        pass


@pytest.fixture()
def server():
    Handler.requests, Handler.status, Handler.finish_reason = [], 200, "stop"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def make_nlp(base_url, **model):
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "textanon_llm_anonymizer",
        config={
            "design": "tab_categories_zero_shot",
            "mask_target": False,
            "model": {
                "@llm_models": "textanon.OpenAICompatible.v1",
                "model": "canned-7b",
                "base_url": base_url,
                "timeout": 5,
                "interval": 0.01,
                **model,
            },
        },
    )
    return nlp


def test_chat_completions_url():
    assert chat_completions_url("http://h:1") == "http://h:1/v1/chat/completions"
    assert chat_completions_url("http://h:1/v1/") == "http://h:1/v1/chat/completions"
    assert chat_completions_url("http://h:1/v1/chat/completions") == "http://h:1/v1/chat/completions"


def test_endpoint_round_trip_with_env_key(server, monkeypatch):
    monkeypatch.setenv("TEXTANON_TEST_KEY", "sk-test-123")
    nlp = make_nlp(server, api_key_env="TEXTANON_TEST_KEY", max_tokens=64)
    doc = nlp(TEXT)
    assert doc._.anonymized_text == "*** was born in *** in *** and builds tidal turbines."
    assert all(s._.source == "llm" for s in doc.spans["llm_pii"])
    (request,) = Handler.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer sk-test-123"
    body = request["body"]
    assert body["model"] == "canned-7b" and body["temperature"] == 0.0 and body["max_tokens"] == 64
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert TEXT in body["messages"][1]["content"]
    usage = nlp.get_pipe("textanon_llm_anonymizer").model.usage
    assert usage["prompt_tokens"] == 42 and usage["completion_tokens"] == 7


def test_reply_cut_at_max_tokens_is_incomplete(server):
    """A complete-looking list with finish_reason "length": the server cut the answer (more may have followed)."""
    Handler.reply, Handler.finish_reason = '["Cork"]', "length"
    try:
        nlp = make_nlp(server, max_tokens=8)
        doc = nlp(TEXT)
        reply = nlp.get_pipe("textanon_llm_anonymizer").model.complete("<<<user>>>\nhi")
    finally:
        Handler.reply = '```json\n["Ada Quint", "Cork", "1961"]\n```'
    assert reply == '["Cork"]' and reply.finish_reason == "length"
    # blank pipeline: the fallback heuristic masks the name and the year the model did not get to
    assert doc._.anonymized_text == "*** *** was born in *** in *** and builds tidal turbines."
    (warning,) = doc._.anonymization_warnings
    assert "truncated LLM reply (finish reason 'length'" in warning and "Ada" not in warning


def test_missing_key_and_server_errors_fail_closed(server, monkeypatch):
    monkeypatch.delenv("TEXTANON_MISSING_KEY", raising=False)
    doc = make_nlp(server, api_key_env="TEXTANON_MISSING_KEY")(TEXT)
    assert Handler.requests == []  # never sent without the key
    assert "LLMRequestError" in doc._.anonymization_warnings[0]
    Handler.status = 500
    doc = make_nlp(server, max_tries=2)(TEXT)
    assert len(Handler.requests) == 2  # retried once
    # fallback (blank pipeline: mask-all-entities heuristic) masks the name, the place and the year
    assert doc._.anonymized_text == "*** *** was born in *** in *** and builds tidal turbines."
    assert "secret" not in " ".join(doc._.anonymization_warnings)


def test_error_messages_hold_no_body(server):
    Handler.status = 400
    model = OpenAICompatible(model="m", base_url=server, max_tries=1)
    with pytest.raises(LLMRequestError) as err:
        model.complete("<<<user>>>\nsecret prompt")
    assert str(err.value) == "HTTP 400 from chat-completions endpoint"


def test_timeout_is_a_request_error():
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # accepts the connection but never answers
    try:
        model = OpenAICompatible(
            model="m", base_url=f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=0.3, max_tries=1
        )
        with pytest.raises(LLMRequestError, match="request failed"):
            model.complete("hello")
    finally:
        listener.close()
