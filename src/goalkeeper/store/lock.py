"""One process per run or goal: an exclusive ``flock`` that dies with its holder."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from ..errors import LockedError

__all__ = ["FileLock"]


class FileLock:
    """Non-blocking exclusive lock on ``path``. The kernel drops it if the process dies."""

    def __init__(self, path: str | Path, what: str = "this item") -> None:
        self.path = Path(path)
        self.what = what
        self._fd: int | None = None

    def acquire(self) -> FileLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
            finally:
                os.close(fd)
            raise LockedError(
                f"{self.what} is already running (pid {holder}); wait for it to finish or stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> FileLock:
        return self.acquire()

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
