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


@pytest.fixture
def dripping_url() -> Iterator[str]:
    """A server that answers one byte at a time, every 0.2 s, for up to a minute.

    ``/headers`` drips the status line and headers; ``/body`` sends the headers at once
    and then drips a long body. A per-operation socket timeout never fires on it.
    """
    import socket
    import time

    stop = threading.Event()
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.2)

    def drip(conn: socket.socket) -> None:
        with conn:
            request = conn.recv(65536).decode(errors="replace")
            head = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nContent-Type: text/plain\r\n\r\n"
            if " /body " in request:
                conn.sendall(head)
                head = b""
            data = head + b"1" * 100000
            end = time.monotonic() + 60
            for i in range(len(data)):
                if stop.wait(0.2) or time.monotonic() > end:
                    return
                try:
                    conn.sendall(data[i:i + 1])
                except OSError:
                    return  # the client gave up

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=drip, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        srv.close()
