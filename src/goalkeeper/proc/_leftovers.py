"""Find and end what a crashed goalkeeper left running.

Every process the runner starts carries ``GOALKEEPER_PROC_OWNER=<owner>:<tag>``
in its environment, and so do its descendants unless they wipe their
environment. Containment normally ends them with goalkeeper; this is the
second line for a resume after ``kill -9`` (e.g. where no PID namespace was
available): before re-running a phase, end whatever the crashed one left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

__all__ = ["end_leftovers", "find_leftovers"]


def _owner_of(pid: str) -> str | None:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            data = f.read(1 << 20)
    except OSError:
        return None
    for item in data.split(b"\0"):
        if item.startswith(b"GOALKEEPER_PROC_OWNER="):
            return item.split(b"=", 1)[1].decode(errors="replace")
    return None


def find_leftovers(owner: str) -> list[int]:
    """Pids (not ours) whose tag starts with ``owner:``."""
    me = os.getpid()
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        tag = _owner_of(name)
        if tag is not None and (tag == owner or tag.startswith(owner + ":")):
            found.append(int(name))
    return sorted(found)


def end_leftovers(owner: str, grace: float = 1.0) -> list[int]:
    """SIGTERM, then SIGKILL, every leftover process of ``owner``; returns their pids."""
    pids = find_leftovers(owner)
    if not pids:
        return []
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for p in pids:
            with contextlib.suppress(OSError):
                os.kill(p, sig)
        deadline = time.monotonic() + (grace if sig == signal.SIGTERM else 2.0)
        while time.monotonic() < deadline and find_leftovers(owner):
            time.sleep(0.02)
        if not find_leftovers(owner):
            break
    return pids
