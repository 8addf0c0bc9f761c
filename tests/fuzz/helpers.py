"""What the hostile-input tests share: an in-process CLI runner and a snapshot of a folder.

The CLI runs in-process (click's runner calls the same command functions a user
reaches), so a matrix of commands and payloads stays fast; a handful of tests
also run the real console entry point as a subprocess.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from goalkeeper.cli import cli
from goalkeeper.cli._common import err_console, out_console


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str
    exception: BaseException | None

    @property
    def text(self) -> str:
        return self.out + self.err


def invoke(home: Path, *args: str | os.PathLike[str], cwd: Path | None = None) -> Outcome:
    """Run ``goalkeeper ARGS`` with ``home`` as GOALKEEPER_HOME; never raises."""
    runner = CliRunner(env={"GOALKEEPER_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "200",
                            "GOALKEEPER_DEBUG": None})
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        r = runner.invoke(cli, [str(a) for a in args], catch_exceptions=True)
    finally:
        os.chdir(old)
        # click's runner writes strict UTF-8 (the real streams escape what they cannot encode), so a raw
        # surrogate fails here, as it should; rich then keeps the unwritten text in its buffer and every
        # later invocation in this process would fail on it. Start the next one clean.
        for console in (out_console, err_console):
            del console._buffer[:]
    exc = r.exception if r.exception is not None and not isinstance(r.exception, SystemExit) else None
    return Outcome(r.exit_code, r.stdout, r.stderr, exc)


def assert_clean_failure(o: Outcome, *needles: str) -> None:
    """Exit 1 or 2 with a message, never a traceback, an internal error or an exception."""
    assert o.exception is None, f"{type(o.exception).__name__}: {o.exception}"
    assert o.code in (1, 2), (o.code, o.text)
    assert "Traceback" not in o.text and "internal error" not in o.text, o.text
    for n in needles:
        assert n in o.text, o.text


def snapshot(d: Path) -> dict[str, tuple[int, int, bytes | str]]:
    """Every entry below ``d`` (links not followed): kind, size, mtime, content."""
    out: dict[str, tuple[int, int, bytes | str]] = {}
    if not os.path.lexists(d):
        return out
    for p in sorted(d.rglob("*")):
        st = p.lstat()
        body: bytes | str = os.readlink(p) if p.is_symlink() else (p.read_bytes() if p.is_file() else b"")
        out[str(p.relative_to(d))] = (st.st_mode, st.st_mtime_ns, body)
    return out
