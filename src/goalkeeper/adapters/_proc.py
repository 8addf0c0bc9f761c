"""Run an argv (never a shell string) with a timeout that kills the whole process group.

Used for makers, stopping conditions and heartbeat scans. Python tools that are
not on ``PATH`` (``pytest``, ``ruff``, ...) fall back to ``sys.executable -m``,
so a condition like ``pytest -q`` works with or without the venv activated.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ProcResult", "Runner", "resolve_argv", "run_argv", "split_command"]

PYTHON_MODULE_TOOLS = frozenset({"pytest", "ruff", "coverage", "mypy", "black", "flake8", "pylint", "pip"})
MAX_OUTPUT = 256_000


@dataclass(frozen=True, slots=True)
class ProcResult:
    argv: tuple[str, ...]
    exit_code: int | None
    stdout: str
    stderr: str = ""
    timed_out: bool = False
    duration: float = 0.0

    @property
    def output(self) -> str:
        return self.stdout + (("\n" + self.stderr) if self.stderr else "")


Runner = Callable[..., ProcResult]


def split_command(command: str | Sequence[str]) -> list[str]:
    """A condition's command as argv; strings are split like a POSIX shell would, not run by one."""
    return shlex.split(command) if isinstance(command, str) else list(command)


def resolve_argv(argv: Sequence[str], env: Mapping[str, str] | None = None) -> list[str]:
    args = list(argv)
    if not args:
        return args
    exe = args[0]
    if os.sep in exe or shutil.which(exe, path=(env or os.environ).get("PATH")):
        return args
    if exe in ("python", "python3"):
        return [sys.executable, *args[1:]]
    if exe in PYTHON_MODULE_TOOLS:
        return [sys.executable, "-m", exe, *args[1:]]
    return args


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the child gets SIGKILL if goalkeeper dies (``kill -9``), so no orphan keeps editing."""
    os.setsid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _tail(text: str) -> str:
    return text if len(text) <= MAX_OUTPUT else text[-MAX_OUTPUT:]


def run_argv(
    argv: Sequence[str],
    *,
    cwd: str | Path,
    timeout: float | None = None,
    env: Mapping[str, str] | None = None,
    merge_output: bool = True,
    stdin_text: str | None = None,
    inherit_env: bool = True,
) -> ProcResult:
    """Run ``argv`` in ``cwd``; a timeout or a missing program is a result, not an exception.

    ``env`` is added to this process's environment, or is the whole environment
    with ``inherit_env=False``.
    """
    full_env = dict(os.environ) if inherit_env else {}
    if env:
        full_env.update(env)
    args = resolve_argv(argv, full_env)
    if not Path(cwd).is_dir():
        return ProcResult(tuple(args), 127, "", f"working directory not found: {cwd}", False, 0.0)
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            args,
            cwd=cwd,
            env=full_env,
            stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_output else subprocess.PIPE,
            text=True,
            errors="replace",
            preexec_fn=_die_with_parent,  # noqa: PLW1509 - needed for process-group kill
        )
    except (FileNotFoundError, PermissionError, NotADirectoryError) as e:
        return ProcResult(tuple(args), 127, "", f"cannot run {args[0]!r}: {e}", False, 0.0)
    try:
        out, err = proc.communicate(stdin_text, timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            # A descendant that left the process group (setsid) still holds the pipes:
            # stop waiting for it rather than hang past the timeout.
            for pipe in (proc.stdout, proc.stderr, proc.stdin):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
            out, err = "", "(output lost: a detached child kept the pipes open)"
        timed_out = True
    return ProcResult(
        tuple(args),
        None if timed_out else proc.returncode,
        _tail(out or ""),
        _tail(err or ""),
        timed_out,
        time.monotonic() - start,
    )
