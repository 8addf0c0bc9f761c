"""Run a command with a hard timeout, killing its whole process group on expiry.

Commands are argv lists run without a shell; a plain string is the spec
author's explicit choice and runs under ``/bin/sh -c``.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CommandResult", "expand_env", "run_command"]

_MAX_KEEP = 64 * 1024
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True, slots=True)
class CommandResult:
    returncode: int | None  # None: timed out or could not start
    stdout: str
    stderr: str
    timed_out: bool
    error: str | None
    seconds: float

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def describe(self) -> str:
        if self.error:
            return self.error
        if self.timed_out:
            return f"timed out after {self.seconds:.1f}s"
        if self.returncode is not None and self.returncode < 0:
            try:
                name = signal.Signals(-self.returncode).name
            except ValueError:
                name = str(-self.returncode)
            return f"killed by {name}"
        return f"exit {self.returncode}"


def expand_env(text: str, env: Mapping[str, str]) -> str:
    """Replace ``${VAR}`` from ``env``; unknown variables stay as written."""
    return _VAR.sub(lambda m: env.get(m.group(1), m.group(0)), text)


def _tail(b: bytes) -> str:
    return b[-_MAX_KEEP:].decode("utf-8", errors="replace")


def run_command(
    cmd: str | Sequence[str],
    *,
    cwd: str | Path,
    env: Mapping[str, str],
    timeout: float,
) -> CommandResult:
    argv = ["/bin/sh", "-c", cmd] if isinstance(cmd, str) else [expand_env(a, env) for a in cmd]
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except FileNotFoundError:
        return CommandResult(None, "", "", False, f"command not found: {argv[0]}", 0.0)
    except PermissionError:
        return CommandResult(None, "", "", False, f"not executable: {argv[0]}", 0.0)
    except OSError as e:
        return CommandResult(None, "", "", False, f"cannot start {argv[0]}: {e.strerror}", 0.0)
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    seconds = time.monotonic() - start
    return CommandResult(
        None if timed_out else proc.returncode, _tail(out), _tail(err), timed_out, None, seconds
    )
