"""What containment this machine offers, probed once per process.

A PID namespace is the strong form (everything in it dies with its init);
without one the guard falls back to being a child subreaper. The probe runs
the real guard on ``true`` so the answer reflects what actually works here
(containers often forbid namespaces even to root).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["GUARD", "bwrap_path", "containment_mode", "guard_argv"]

GUARD = Path(__file__).with_name("_guard.py")


def guard_argv(mode: str, grace: float, owner: str, report_fd: int, argv: list[str]) -> list[str]:
    # -I: the command's PYTHON* variables must not steer the guard; -S: start fast.
    # Our pid goes along: if we die while the guard is still starting, its getppid() is
    # already someone else, and only the pid we passed tells it to stop.
    return [sys.executable, "-I", "-S", str(GUARD), mode, f"{grace:g}", owner, str(report_fd), str(os.getpid()),
            "--", *argv]


def _probe(mode: str) -> str:
    """Run the guard on ``true`` and return what it reported about itself."""
    r, w = os.pipe()
    try:
        proc = subprocess.Popen(
            guard_argv(mode, 0, "probe", w, ["true"]), pass_fds=(w,), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(w)
        w = -1
        out = b""
        while chunk := os.read(r, 4096):
            out += chunk
        proc.wait(timeout=10)
        return out.decode(errors="replace") if proc.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""
    finally:
        os.close(r)
        if w != -1:
            os.close(w)


@functools.lru_cache(maxsize=1)
def containment_mode() -> str:
    """``pidns`` where a PID namespace can be made, else ``reaper`` (Linux), else ``none``.

    ``GOALKEEPER_CONTAINMENT=pidns|reaper|none`` overrides the probe (tests use it
    to exercise the fallbacks).
    """
    forced = os.environ.get("GOALKEEPER_CONTAINMENT")
    if forced in ("pidns", "reaper", "none"):
        return forced
    if not sys.platform.startswith("linux"):
        return "none"
    if "contained pidns" in _probe("pidns"):
        return "pidns"
    return "reaper" if "contained reaper" in _probe("reaper") else "none"


@functools.lru_cache(maxsize=1)
def bwrap_path() -> str | None:
    """bubblewrap, if installed and able to make a sandbox here."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    try:
        res = subprocess.run(
            [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
             "--die-with-parent", "--", "true"],
            capture_output=True, timeout=10, stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return exe if res.returncode == 0 else None
