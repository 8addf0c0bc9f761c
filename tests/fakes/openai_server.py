"""A real HTTP server on 127.0.0.1 speaking OpenAI chat completions, scripted per test.

Each request to ``POST /v1/chat/completions`` takes the next behaviour from
``server.script`` (answer, HTTP error, slow answer, dropped connection, raw
body); when the script is empty it answers HTTP 500 "script exhausted", so a
test that asks more than it planned fails loudly. ``server.requests`` holds
every request body the server received (retries included).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Answer", "Drop", "FakeOpenAIServer", "Raw", "Status", "running_server"]


@dataclass
class Answer:
    """A well-formed chat.completion whose message content is ``text``."""

    text: str
    finish_reason: str = "stop"
    prompt_tokens: int = 100
    completion_tokens: int = 20
    model: str | None = None
    delay: float = 0.0
    usage: bool = True


@dataclass
class Status:
    """An HTTP error with an OpenAI-style error body (``retry_after`` sets Retry-After seconds)."""

    code: int
    message: str = "server error"
    retry_after: float | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Drop:
    """Headers promise a body, half of it is sent, then the connection closes."""

    text: str = '{"id": "chatcmpl-x", "object": "chat.completion", "choices": [{"index": 0, "mess'


@dataclass
class Raw:
    """Any body with any status (e.g. a 200 whose body is not JSON)."""

    body: str
    code: int = 200
    content_type: str = "application/json"


Behaviour = Answer | Status | Drop | Raw


def completion_json(a: Answer, requested_model: str) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "chatcmpl-fake0001",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": a.model or requested_model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": a.text},
            "finish_reason": a.finish_reason,
        }],
    }
    if a.usage:
        body["usage"] = {
            "prompt_tokens": a.prompt_tokens,
            "completion_tokens": a.completion_tokens,
            "total_tokens": a.prompt_tokens + a.completion_tokens,
        }
    return body


class FakeOpenAIServer:
    """Start with :func:`running_server`; push behaviours with :meth:`queue`."""

    def __init__(self) -> None:
        self.script: deque[Behaviour] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def queue(self, *behaviours: Behaviour | str) -> FakeOpenAIServer:
        for b in behaviours:
            self.script.append(Answer(b) if isinstance(b, str) else b)
        return self

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> Behaviour:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            return self.script.popleft() if self.script else Status(500, "fake server: script exhausted")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
                pass

            def _send(self, code: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802 - stdlib naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_unparsed": raw.decode(errors="replace")}
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "not found"}}', "application/json")
                    return
                b = server._next(body, {k.lower(): v for k, v in self.headers.items()})
                # the client may give up (timeout): that is the point of some tests
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self._act(b, str(body.get("model", "")))

            def _act(self, b: Behaviour, model: str) -> None:
                if isinstance(b, Answer):
                    if b.delay and server._closing.wait(b.delay):
                        return
                    data = json.dumps(completion_json(b, model)).encode()
                    self._send(200, data, "application/json")
                elif isinstance(b, Status):
                    err = {"error": {"message": b.message, "type": "server_error", "code": None}}
                    extra = dict(b.headers)
                    if b.retry_after is not None:
                        extra["Retry-After"] = f"{b.retry_after:g}"
                    extra.setdefault("Connection", "close")
                    self._send(b.code, json.dumps(err).encode(), "application/json", extra)
                    self.close_connection = True
                elif isinstance(b, Drop):
                    data = b.text.encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data) * 4))
                    self.end_headers()
                    self.wfile.write(data)
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    self._send(b.code, b.body.encode(), b.content_type)

        return Handler


@contextmanager
def running_server() -> Iterator[FakeOpenAIServer]:
    server = FakeOpenAIServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
