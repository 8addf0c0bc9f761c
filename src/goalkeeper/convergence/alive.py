"""The ``<goalId>.alive`` file: touched while a phase runs, so a crash can be charged on resume.

A ``kill -9`` writes nothing, so the time (and maybe money) of the killed phase
would be free without it: on resume the phase is charged from its start up to
the last touch (plus one beat, the most the touch can lag).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

__all__ = ["ALIVE_EVERY", "beating", "lost_seconds"]

ALIVE_EVERY = 2.0
_WEEK = 7 * 86400


@contextlib.contextmanager
def beating(path: Path) -> Iterator[None]:
    """Touch ``path`` now, every :data:`ALIVE_EVERY` seconds while the block runs, and at its end."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(ALIVE_EVERY):
            with contextlib.suppress(OSError):
                path.touch()

    with contextlib.suppress(OSError):
        path.touch()
    t = threading.Thread(target=beat, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()
        with contextlib.suppress(OSError):
            path.touch()


def lost_seconds(path: Path, started: str | None) -> float | None:
    """Seconds a phase that began at ``started`` (ISO) ran before it died; None if unknown."""
    try:
        alive = path.stat().st_mtime
        t0 = datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp() if started else None
    except (OSError, ValueError):
        return None
    if t0 is None or alive <= t0:
        return None
    return round(min(alive - t0 + ALIVE_EVERY, _WEEK), 3)
