"""The one process runner: an argv (never a shell string), contained, with a hard timeout.

Every command goalkeeper starts (makers, stopping conditions, observers,
actions, heartbeat scans) goes through :func:`run_argv`:

* the command runs under the containment guard (``_guard.py``), so when it
  ends, or times out, or goalkeeper dies, everything it started ends too,
  daemons included;
* output goes to unnamed temporary files, not pipes, so a child that keeps
  the output open cannot hang us and a flood cannot fill memory; a bounded
  tail is kept;
* a stop is SIGTERM to the whole tree, then SIGKILL after a grace period;
* a program that cannot start is a result with ``spawn_error`` set, never an
  exception and never guessed from its stderr.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ._contain import bwrap_path, containment_mode, guard_argv
from ._policy import current_policy
from .sandbox import Sandbox, bwrap_argv

__all__ = [
    "DEFAULT_GRACE",
    "MAX_OUTPUT",
    "ProcResult",
    "Runner",
    "resolve_argv",
    "run_argv",
    "split_command",
    "spawn_problem",
]

PYTHON_MODULE_TOOLS = frozenset({"pytest", "ruff", "coverage", "mypy", "black", "flake8", "pylint", "pip"})
MAX_OUTPUT = 256_000
DEFAULT_GRACE = 5.0


@dataclass(frozen=True, slots=True)
class ProcResult:
    """What happened to one command. ``exit_code`` is None when it timed out or never started."""

    argv: tuple[str, ...]
    exit_code: int | None
    stdout: str
    stderr: str = ""
    timed_out: bool = False
    duration: float = 0.0
    spawn_error: str | None = None
    signal: int | None = None
    contained: str = ""
    side: bytes = b""  # what the command wrote to its side channel (see ``side_channel``)

    @property
    def output(self) -> str:
        return self.stdout + (("\n" + self.stderr) if self.stderr else "")


Runner = Callable[..., ProcResult]


def split_command(command: str | Sequence[str]) -> list[str]:
    """A condition's command as argv; strings are split like a POSIX shell would, not run by one."""
    return shlex.split(command) if isinstance(command, str) else list(command)


def resolve_argv(argv: Sequence[str], env: Mapping[str, str] | None = None) -> list[str]:
    """Python tools that are not on PATH run as ``sys.executable -m TOOL`` (convenience for makers)."""
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


def spawn_problem(argv: Sequence[str], cwd: str | Path, env: Mapping[str, str] | None = None) -> str | None:
    """Why ``argv`` cannot start (missing cwd, program not found / not executable), or None."""
    if not argv or not argv[0]:
        return "empty command"
    if any("\0" in a for a in argv):
        return "cannot run it: an argument holds a NUL byte"
    if not Path(cwd).is_dir():
        return f"working directory not found: {cwd}"
    exe = argv[0]
    if os.sep in exe:
        p = Path(exe) if os.path.isabs(exe) else Path(cwd) / exe
        if not p.exists():
            return f"cannot run {exe!r}: no such file"
        if p.is_dir() or not os.access(p, os.X_OK):
            return f"cannot run {exe!r}: Permission denied (not an executable file)"
        return None
    if shutil.which(exe, path=(env or os.environ).get("PATH")) is None:
        return f"cannot run {exe!r}: not found on PATH"
    return None


def _tail(f: IO[bytes], limit: int) -> str:
    f.flush()
    size = f.seek(0, os.SEEK_END)
    f.seek(max(0, size - limit))
    data = f.read()
    text = data.decode("utf-8", errors="replace")
    return text if size <= limit else "[... output cut ...]\n" + text


def _read_report(fd: int) -> str:
    out = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(fd, 4096):
            out += chunk
            if len(out) > 4096:
                break
    return out.decode(errors="replace")


def run_argv(
    argv: Sequence[str],
    *,
    cwd: str | Path,
    timeout: float | None = None,
    env: Mapping[str, str] | None = None,
    merge_output: bool = True,
    stdin_text: str | None = None,
    inherit_env: bool = True,
    owner: str | None = None,
    sandbox: Sandbox | None = None,
    grace: float = DEFAULT_GRACE,
    tail: int = MAX_OUTPUT,
    resolve: bool = True,
    strict: bool = False,
    side_channel: str | None = None,
) -> ProcResult:
    """Run ``argv`` in ``cwd``; a timeout or a missing program is a result, not an exception.

    ``env`` is added to this process's environment, or is the whole environment
    with ``inherit_env=False``. ``owner`` tags every process of the tree
    (``GOALKEEPER_PROC_OWNER``) so :func:`end_leftovers` can find them after a
    crash. ``sandbox`` runs the command under bubblewrap (the caller checks
    :func:`bwrap_path` first and decides what to do without it). ``strict``
    asks for a PID namespace where one can be made (makers and checks: a
    process inside cannot see, signal or outlive goalkeeper); otherwise the
    guard is a subreaper (actions and observers keep host pids, and the tree
    still ends with the command). ``side_channel`` names an environment variable
    that tells the command the number of a pipe only goalkeeper reads (a test
    probe streams its results there: what was sent cannot be rewritten later).
    """
    pol = current_policy()
    if pol is not None:  # a maker's command: contained, tagged, sandboxed as the loop decided
        owner = owner or pol.owner
        strict = strict or pol.strict
        sandbox = sandbox or pol.sandbox
    full_env = dict(os.environ) if inherit_env else {}
    if pol is not None and pol.drop_env_prefixes:
        full_env = {k: v for k, v in full_env.items()
                    if not k.startswith(pol.drop_env_prefixes) or k in pol.keep_env}
    if env:
        full_env.update(env)
    args = resolve_argv(argv, full_env) if resolve else list(argv)
    problem = spawn_problem(args, cwd, full_env)
    if problem is not None:
        return ProcResult(tuple(args), 127, "", problem, False, 0.0, spawn_error=problem)
    mode = containment_mode()
    if mode == "pidns" and not strict:
        mode = "reaper"
    inner = args
    if sandbox is not None:
        exe = bwrap_path()
        if exe is None:
            msg = "bubblewrap is not available; install it (apt-get install bubblewrap) or use --sandbox none"
            return ProcResult(tuple(args), 127, "", msg, False, 0.0, spawn_error=msg)
        inner = bwrap_argv(exe, sandbox, Path(cwd), args)
        mode = "scoped"
    tag = f"{owner or 'goalkeeper'}:{uuid.uuid4().hex[:12]}"
    start = time.monotonic()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(tempfile.TemporaryFile(prefix="goalkeeper-out-"))
        err = out if merge_output else stack.enter_context(tempfile.TemporaryFile(prefix="goalkeeper-err-"))
        stdin: int | IO[bytes] = subprocess.DEVNULL
        if stdin_text is not None:
            inp = stack.enter_context(tempfile.TemporaryFile(prefix="goalkeeper-in-"))
            inp.write(stdin_text.encode())
            inp.seek(0)
            stdin = inp
        r, w = os.pipe()
        stack.callback(_close, r)
        fds = [w] if mode != "none" else []
        side: _Side | None = None
        if side_channel:
            side = _Side()
            stack.callback(side.close)
            full_env[side_channel] = str(side.w)
            fds.append(side.w)
        cmd = inner if mode == "none" else guard_argv(mode, grace, tag, w, inner)
        try:
            proc = subprocess.Popen(
                cmd, cwd=cwd, env=full_env, stdin=stdin, stdout=out, stderr=err,
                pass_fds=tuple(fds), start_new_session=(mode == "none"),
            )
        except (OSError, ValueError, UnicodeEncodeError) as e:  # ValueError: a NUL byte in an argument
            _close(w)
            msg = f"cannot run {args[0]!r}: {getattr(e, 'strerror', None) or e}"
            return ProcResult(tuple(args), 127, "", msg, False, 0.0, spawn_error=msg)
        _close(w)
        if side is not None:
            side.start()
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop(proc, grace, mode)
        except BaseException:  # Ctrl-C or an error in goalkeeper: nothing may outlive it
            _stop(proc, 0.5, mode)
            raise
        report = _read_report(r)
        code = proc.returncode
        sig = None
        for line in report.splitlines():
            if line.startswith("signal "):
                sig = int(line.split()[1])
            if line.startswith("spawn "):
                msg = f"cannot run {args[0]!r}: {line.split(' ', 2)[2]}"
                return ProcResult(tuple(args), 127, _tail(out, tail), msg, False,
                                  time.monotonic() - start, spawn_error=msg)
        if mode == "none" and code is not None and code < 0:
            sig = -code
        if sig is not None:
            code = -sig
        contained = next((ln.split()[1] for ln in report.splitlines() if ln.startswith("contained ")), mode)
        side_bytes = side.finish() if side is not None else b""
        return ProcResult(
            tuple(args),
            None if timed_out else code,
            _tail(out, tail),
            "" if merge_output else _tail(err, tail),
            timed_out,
            time.monotonic() - start,
            signal=sig,
            contained=contained,
            side=side_bytes,
        )


class _Side:
    """A pipe the command writes and a thread here drains (bounded), so a full pipe never blocks it."""

    LIMIT = 64 << 20

    def __init__(self) -> None:
        self.r, self.w = os.pipe()
        self.data = bytearray()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        _close(self.w)  # ours; the command holds its own copy
        self.w = -1
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(self.r, 1 << 16):
                if len(self.data) < self.LIMIT:
                    self.data += chunk

    def finish(self) -> bytes:
        if self._thread is not None:
            self._thread.join(timeout=10)  # every writer is gone once the tree has been ended
        return bytes(self.data)

    def close(self) -> None:
        for fd in (self.r, self.w):
            if fd >= 0:
                _close(fd)
        self.r = self.w = -1


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


def _stop(proc: subprocess.Popen[bytes], grace: float, mode: str) -> None:
    """SIGTERM to the tree (the guard passes it on), SIGKILL when the grace period is over."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if mode == "none":
            os.killpg(proc.pid, signal.SIGTERM)
        else:
            proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace + 2.0)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if mode == "none":
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
