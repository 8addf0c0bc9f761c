"""Runtime fixtures: a real local HTTP server on 127.0.0.1."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator

import pytest


class _Handler(http.server.BaseHTTPRequestHandler):
    stop: threading.Event

    def do_GET(self) -> None:  # noqa: N802 (stdlib name)
        routes: dict[str, tuple[int, bytes]] = {
            "/ok": (200, json.dumps({"data": {"items": [{"ok": False}, {"ok": True}], "count": 7}}).encode()),
            "/missing": (404, b'{"error": "not found"}'),
            "/boom": (500, b"internal error 99"),
            "/garbage": (200, b"<html>definitely not json</html>"),
            "/text": (200, b"latency 38 ms\n"),
        }
        if self.path == "/slow":
            self.stop.wait(10)  # longer than any observer timeout used with it
            code, body = 200, b"{}"
        else:
            code, body = routes.get(self.path, (404, b""))
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the client gave up (timeout test)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def http_url() -> Iterator[str]:
    """Base URL of a threaded server: /ok /missing /boom /garbage /text /slow."""
    stop = threading.Event()
    handler = type("Handler", (_Handler,), {"stop": stop})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture
def closed_port() -> int:
    """A port on 127.0.0.1 with nothing listening."""
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port: int = s.getsockname()[1]
    s.close()
    return port
