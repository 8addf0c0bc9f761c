"""One process per run or goal: an exclusive ``flock`` that dies with its holder.

The lock file is private (0600), opened with ``O_NOFOLLOW`` (a planted link is
refused, so taking a lock never truncates another file) and, under the home,
through folders that are not links.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from ..errors import LockedError
from .safe import open_private

__all__ = ["FileLock"]


class FileLock:
    """Non-blocking exclusive lock on ``path``. The kernel drops it if the process dies."""

    def __init__(self, path: str | Path, what: str = "this item", *, root: str | Path | None = None) -> None:
        self.path = Path(path)
        self.what = what
        self.root = root
        self._fd: int | None = None

    def acquire(self) -> FileLock:
        fd = open_private(self.path, os.O_RDWR, root=self.root)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                raw = os.read(fd, 64).decode(errors="replace").strip()
                holder = raw if raw.isdigit() else "another process"
            finally:
                os.close(fd)
            raise LockedError(
                f"{self.what} is already running (pid {holder}); wait for it to finish or stop it first"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
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
