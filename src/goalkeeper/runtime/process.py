"""Run a command with a hard timeout, killing its whole process group on expiry.

Commands are argv lists run without a shell; a plain string is the spec
author's explicit choice and runs under ``/bin/sh -c``.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..proc import run_argv

__all__ = ["CommandResult", "expand_env", "run_command"]

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


def run_command(
    cmd: str | Sequence[str],
    *,
    cwd: str | Path,
    env: Mapping[str, str],
    timeout: float,
) -> CommandResult:
    argv = ["/bin/sh", "-c", cmd] if isinstance(cmd, str) else [expand_env(a, env) for a in cmd]
    if not argv or not argv[0]:
        return CommandResult(None, "", "", False, "empty command", 0.0)
    res = run_argv(argv, cwd=cwd, env=env, timeout=timeout, merge_output=False, inherit_env=False)
    if res.exit_code == 127 and res.stderr.startswith("working directory not found") and not res.stdout:
        return CommandResult(None, "", "", False, res.stderr, 0.0)
    if res.exit_code == 127 and res.stderr.startswith("cannot run") and not res.stdout:
        what = "not executable" if "Permission denied" in res.stderr else "command not found"
        return CommandResult(None, "", "", False, f"{what}: {argv[0]}", 0.0)
    return CommandResult(res.exit_code, res.stdout, res.stderr, res.timed_out, None, res.duration)
