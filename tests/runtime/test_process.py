"""run_command: argv or shell, env expansion, start failures, signals, and a hard timeout."""

from __future__ import annotations

import os
from pathlib import Path

from goalkeeper.runtime.process import expand_env, run_command

from .helpers import PY, pid_alive, wait_for

ENV = dict(os.environ)


def test_argv_success_captures_output(tmp_path: Path) -> None:
    res = run_command([PY, "-c", "import sys; print('out'); print('err', file=sys.stderr)"],
                      cwd=tmp_path, env=ENV, timeout=30)
    assert res.ok and res.returncode == 0
    assert res.stdout == "out\n" and res.stderr == "err\n"
    assert not res.timed_out and res.error is None
    assert res.describe() == "exit 0"


def test_nonzero_exit_is_not_ok(tmp_path: Path) -> None:
    res = run_command("exit 7", cwd=tmp_path, env=ENV, timeout=30)
    assert not res.ok and res.returncode == 7
    assert res.describe() == "exit 7"


def test_string_runs_in_shell_with_cwd_and_env(tmp_path: Path) -> None:
    (tmp_path / "here.txt").write_text("x")
    res = run_command("ls; echo \"$GK_TEST_VAR\"", cwd=tmp_path, env={**ENV, "GK_TEST_VAR": "hello"},
                      timeout=30)
    assert res.ok
    assert "here.txt" in res.stdout and "hello" in res.stdout


def test_argv_expands_braced_env_vars(tmp_path: Path) -> None:
    res = run_command([PY, "-c", "import sys; print(sys.argv[1:])", "${GK_A}", "${GK_UNSET_XYZ}", "$GK_A"],
                      cwd=tmp_path, env={**ENV, "GK_A": "alpha"}, timeout=30)
    assert res.stdout.strip() == "['alpha', '${GK_UNSET_XYZ}', '$GK_A']"


def test_expand_env() -> None:
    assert expand_env("${A}/x/${B}", {"A": "1"}) == "1/x/${B}"
    assert expand_env("no vars", {}) == "no vars"


def test_command_not_found(tmp_path: Path) -> None:
    res = run_command(["gk-no-such-command-xyz", "--flag"], cwd=tmp_path, env=ENV, timeout=30)
    assert res.returncode is None and not res.ok
    assert res.error == "command not found: gk-no-such-command-xyz"
    assert res.describe() == res.error


def test_not_executable(tmp_path: Path) -> None:
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    res = run_command([str(script)], cwd=tmp_path, env=ENV, timeout=30)
    assert not res.ok and res.error is not None and "not executable" in res.error


def test_shell_command_not_found_exits_127(tmp_path: Path) -> None:
    res = run_command("gk-no-such-command-xyz", cwd=tmp_path, env=ENV, timeout=30)
    assert res.returncode == 127 and "not found" in res.stderr


def test_killed_by_signal(tmp_path: Path) -> None:
    res = run_command("kill -9 $$", cwd=tmp_path, env=ENV, timeout=30)
    assert res.returncode == -9 and not res.ok
    assert res.describe() == "killed by SIGKILL"


def test_timeout_kills_foreground_process(tmp_path: Path) -> None:
    res = run_command(["sleep", "30"], cwd=tmp_path, env=ENV, timeout=0.5)
    assert res.timed_out and res.returncode is None and not res.ok
    assert res.describe().startswith("timed out after")


def test_a_background_child_ends_with_its_command_and_cannot_hold_the_output(tmp_path: Path) -> None:
    # The shell exits at once; its background child inherits stdout. The command is
    # over when the shell exits, and everything it left behind is ended with it.
    res = run_command("sleep 30 & echo $! > child.pid; echo started", cwd=tmp_path, env=ENV,
                      timeout=20)
    assert res.timed_out is False
    assert res.returncode == 0
    assert res.stdout == "started\n"
    child = int((tmp_path / "child.pid").read_text())
    wait_for(lambda: not pid_alive(child), "the background child to be gone")


def test_nested_shell_children_are_killed_on_timeout(tmp_path: Path) -> None:
    res = run_command("sh -c 'sleep 30 & echo $! > grandchild.pid; wait'", cwd=tmp_path, env=ENV,
                      timeout=1)
    assert res.timed_out
    pid = int(wait_for(lambda: (tmp_path / "grandchild.pid").read_text().strip(), "pid file"))
    wait_for(lambda: not pid_alive(pid), "the grandchild to be gone")


def test_huge_output_is_bounded_and_keeps_the_tail(tmp_path: Path) -> None:
    res = run_command([PY, "-c", "print('a' * 2_000_000 + 'END')"], cwd=tmp_path, env=ENV, timeout=30)
    assert res.ok
    assert len(res.stdout) < 2_000_000
    assert res.stdout.endswith("aEND\n")


def test_missing_cwd_is_reported_as_such(tmp_path: Path) -> None:
    res = run_command("true", cwd=tmp_path / "no-such-dir", env=ENV, timeout=5)
    assert not res.ok
    assert "no-such-dir" in res.describe()


def test_stdin_is_closed(tmp_path: Path) -> None:
    res = run_command([PY, "-c", "import sys; print(repr(sys.stdin.read()))"], cwd=tmp_path, env=ENV,
                      timeout=5)
    assert res.ok and res.stdout.strip() == "''"
