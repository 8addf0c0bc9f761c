"""HTTP GET under one deadline for the whole request: connect, headers and body together.

urllib's ``timeout`` bounds each socket operation, so a server that sends one
byte just inside it holds a request for as long as it likes (a 1 s timeout
against a byte every 0.6 s lasted 7.2 s). Here every read and write gets only
what is left of the total, and none starts after it has passed. Proxies from
the environment still apply (except for loopback hosts).

Standard library only: the build copies this file into the standalone runner.
"""

from __future__ import annotations

import http.client
import io
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

__all__ = ["http_get"]


class _Reader(io.RawIOBase):
    """The socket's read side, refusing to wait past the deadline."""

    def __init__(self, owner: _Socket) -> None:
        super().__init__()
        self._owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        sock = self._owner.sock
        sock.settimeout(self._owner.left())
        return int(sock.recv_into(b))

    def close(self) -> None:
        if not self.closed:
            self._owner.release()
        super().close()


class _Socket:
    """A connected socket whose file (status line, headers, body) and writes obey the deadline.

    Like ``socket.makefile``, an open file keeps the socket alive after ``close()``:
    urllib closes the connection right after the headers and reads the body later.
    """

    def __init__(self, sock: Any, deadline: float) -> None:
        self.sock, self.deadline = sock, deadline
        self._files, self._closed = 0, False

    def left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        return left

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedReader:
        self._files += 1
        return io.BufferedReader(_Reader(self))

    def release(self) -> None:
        self._files -= 1
        if self._closed and self._files <= 0:
            self.sock.close()

    def close(self) -> None:
        self._closed = True
        if self._files <= 0:
            self.sock.close()

    def sendall(self, data: bytes, *args: Any) -> None:
        self.sock.settimeout(self.left())
        self.sock.sendall(data, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


def _left(deadline: float) -> float:
    return max(0.001, deadline - time.monotonic())


class _HTTP(http.client.HTTPConnection):
    def __init__(self, *args: Any, deadline: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline = deadline

    def connect(self) -> None:
        self.timeout = _left(self.deadline)
        super().connect()
        self.sock = _Socket(self.sock, self.deadline)


class _HTTPS(http.client.HTTPSConnection):
    def __init__(self, *args: Any, deadline: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline = deadline

    def connect(self) -> None:
        self.timeout = _left(self.deadline)
        super().connect()
        self.sock = _Socket(self.sock, self.deadline)


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: float) -> None:
        super().__init__()
        self.deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        deadline = self.deadline

        def connection(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            return _HTTP(host, deadline=deadline, **kwargs)

        return self.do_open(connection, req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: float) -> None:
        super().__init__()
        self.deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        deadline = self.deadline

        def connection(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            return _HTTPS(host, deadline=deadline, **kwargs)

        return self.do_open(connection, req, context=self._context)  # type: ignore[attr-defined]


def http_get(url: str, timeout: float, limit: int = 1 << 20) -> tuple[int, str]:
    """(status, body text up to ``limit`` bytes). An HTTP error status is a result, not an error.

    Raises ``urllib.error.URLError`` or ``OSError`` when nothing usable came back;
    ``TimeoutError`` (possibly as a URLError's ``reason``) once ``timeout`` seconds
    have passed since the call, whatever the server was doing.
    """
    deadline = time.monotonic() + timeout
    handlers: list[urllib.request.BaseHandler] = [_HTTPHandler(deadline), _HTTPSHandler(deadline)]
    if urllib.parse.urlparse(url).hostname in ("127.0.0.1", "localhost", "::1"):
        handlers.append(urllib.request.ProxyHandler({}))
    opener = urllib.request.build_opener(*handlers)
    try:
        with opener.open(url, timeout=_left(deadline)) as resp:
            return int(resp.status), resp.read(limit).decode("utf-8", errors="replace")
    except urllib.error.HTTPError as e:
        with e:
            return int(e.code), e.read(limit).decode("utf-8", errors="replace")
