"""A real HTTP server on 127.0.0.1 speaking the Anthropic Messages API (POST /v1/messages).

Scripted like the OpenAI fake: each request takes the next behaviour (a text
answer or an HTTP status); ``requests`` keeps every request body received.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeAnthropicServer", "Reply", "running_anthropic"]


@dataclass
class Reply:
    text: str = ""
    status: int = 200
    input_tokens: int = 120
    output_tokens: int = 30
    stop_reason: str = "end_turn"


class FakeAnthropicServer:
    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def queue(self, *replies: Reply | str) -> None:
        self.script.extend(Reply(r) if isinstance(r, str) else r for r in replies)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
                pass

            def do_POST(self) -> None:  # noqa: N802 - stdlib name
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                with server._lock:
                    server.requests.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    reply = server.script.popleft() if server.script else Reply(status=500)
                if self.path != "/v1/messages":
                    reply = Reply(status=404)
                if reply.status != 200:
                    kind = {401: "authentication_error", 404: "not_found_error", 529: "overloaded_error"}
                    payload = {"type": "error", "error": {"type": kind.get(reply.status, "api_error"),
                                                          "message": f"fake {reply.status}"}}
                else:
                    payload = {
                        "id": f"msg_fake{len(server.requests)}",
                        "type": "message",
                        "role": "assistant",
                        "model": body.get("model"),
                        "content": [{"type": "text", "text": reply.text}],
                        "stop_reason": reply.stop_reason,
                        "stop_sequence": None,
                        "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
                    }
                data = json.dumps(payload).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


@contextmanager
def running_anthropic() -> Iterator[FakeAnthropicServer]:
    s = FakeAnthropicServer()
    t = threading.Thread(target=s.httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield s
    finally:
        s.httpd.shutdown()
        s.httpd.server_close()
