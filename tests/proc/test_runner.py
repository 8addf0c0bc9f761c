"""The one process runner: containment, timeouts, spawn errors, bounded output, the sandbox."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from goalkeeper.proc import _contain, bwrap_path, end_leftovers, find_leftovers, run_argv
from goalkeeper.proc.sandbox import Sandbox

PY = sys.executable

# A daemon the way a cheating maker would make one: fork, setsid, fork again, close stdio.
# It records its pid as the host sees it (procfs is the host's), then lives for 30 s.
DAEMON = textwrap.dedent("""
    import os, sys, time
    out = sys.argv[1]
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for fd in (0, 1, 2):
                os.close(fd)
            pid = open('/proc/self/stat').read().split()[0]
            open(out + '.tmp', 'w').write(pid)
            os.rename(out + '.tmp', out)
            time.sleep(30)
            os._exit(0)
        os._exit(0)
    while not os.path.exists(out):
        time.sleep(0.01)
    print('spawned')
""")


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_until(pred, what: str, limit: float = 20.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if v := pred():
            return v
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


@pytest.fixture(params=["pidns", "reaper"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "pidns" and "contained pidns" not in _contain._probe("pidns"):
        pytest.skip("no PID namespace on this machine (the reaper mode is tested instead)")
    monkeypatch.setenv("GOALKEEPER_CONTAINMENT", request.param)
    _contain.containment_mode.cache_clear()
    yield request.param
    _contain.containment_mode.cache_clear()


def test_a_daemon_ends_with_the_command_that_started_it(tmp_path: Path, mode: str) -> None:
    res = run_argv([PY, "-c", DAEMON, str(tmp_path / "pid")], cwd=tmp_path, strict=True, timeout=30)
    assert res.exit_code == 0 and res.stdout.strip() == "spawned"
    assert res.contained == mode
    pid = int((tmp_path / "pid").read_text())
    wait_until(lambda: not alive(pid), "the daemon to be gone")


def test_kill_9_of_goalkeeper_ends_the_whole_tree(tmp_path: Path, mode: str) -> None:
    driver = textwrap.dedent(f"""
        import sys
        from goalkeeper.proc import run_argv
        run_argv([sys.executable, "-c", {DAEMON!r} + "\\nimport time; time.sleep(60)", {str(tmp_path / 'pid')!r}],
                 cwd={str(tmp_path)!r}, strict=True)
    """)
    proc = subprocess.Popen([PY, "-c", driver], env={**os.environ, "GOALKEEPER_CONTAINMENT": mode})
    try:
        pid = int(wait_until(lambda: (tmp_path / "pid").exists() and (tmp_path / "pid").read_text(), "daemon"))
        assert alive(pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        wait_until(lambda: not alive(pid), "the daemon to die with goalkeeper")
    finally:
        proc.kill()


def test_timeout_is_sigterm_then_sigkill_for_the_whole_tree(tmp_path: Path, mode: str) -> None:
    stubborn = textwrap.dedent("""
        import os, signal, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        open(sys.argv[1], 'w').write(open('/proc/self/stat').read().split()[0])
        time.sleep(60)
    """)
    res = run_argv([PY, "-c", stubborn, str(tmp_path / "pid")], cwd=tmp_path, timeout=1, grace=0.5,
                   strict=True)
    assert res.timed_out and res.exit_code is None
    pid = int((tmp_path / "pid").read_text())
    wait_until(lambda: not alive(pid), "the process that ignores SIGTERM to be killed")


def test_spawn_errors_are_results_not_exceptions(tmp_path: Path) -> None:
    res = run_argv(["gk-no-such-program-xyz"], cwd=tmp_path)
    assert res.exit_code == 127 and res.spawn_error and "not found" in res.spawn_error
    (tmp_path / "plain.txt").write_text("not a program")
    res = run_argv(["./plain.txt"], cwd=tmp_path)
    assert res.spawn_error and "not an executable" in res.spawn_error
    res = run_argv(["true"], cwd=tmp_path / "missing")
    assert res.spawn_error and "working directory not found" in res.spawn_error


def test_output_is_streamed_to_disk_and_only_a_tail_kept(tmp_path: Path) -> None:
    res = run_argv([PY, "-c", "import sys; sys.stdout.write('a' * 3_000_000 + 'END')"], cwd=tmp_path,
                   tail=10_000)
    assert res.exit_code == 0
    assert len(res.stdout) < 11_000 and res.stdout.endswith("aEND")
    assert res.stdout.startswith("[... output cut ...]")


def test_separate_streams_stdin_and_signals(tmp_path: Path) -> None:
    res = run_argv([PY, "-c", "import sys; print(sys.stdin.read().upper()); print('e', file=sys.stderr)"],
                   cwd=tmp_path, stdin_text="hello", merge_output=False)
    assert (res.stdout, res.stderr) == ("HELLO\n", "e\n")
    res = run_argv(["sh", "-c", "kill -9 $$"], cwd=tmp_path)
    assert res.exit_code == -9 and res.signal == 9


def test_owner_tags_find_what_a_crash_left_behind(tmp_path: Path) -> None:
    env = {**os.environ, "GOALKEEPER_PROC_OWNER": "goal-test1234:maker:abc"}
    proc = subprocess.Popen(["sleep", "60"], env=env)
    try:
        wait_until(lambda: proc.pid in find_leftovers("goal-test1234"), "the tagged process")
        assert find_leftovers("goal-other") == []
        assert end_leftovers("goal-test1234") == [proc.pid]
        assert proc.wait(10) != 0
    finally:
        proc.kill()


needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap not installed (apt-get install bubblewrap)")


@needs_bwrap
def test_the_sandbox_keeps_the_rest_of_the_disk_read_only_and_hides_state(tmp_path: Path) -> None:
    ws, outside, secret = tmp_path / "ws", tmp_path / "outside", Path(os.environ.get("HOME", "/root"))
    ws.mkdir()
    outside.mkdir()
    hidden = tmp_path / "state"
    hidden.mkdir()
    (hidden / "goal.json").write_text("{}")
    script = textwrap.dedent(f"""
        import os
        open('inside.txt', 'w').write('ok')
        try:
            open({str(outside / 'x.txt')!r}, 'w').write('escaped')
        except OSError as e:
            print('outside refused', e.errno)
        print('state visible', os.path.exists({str(hidden / 'goal.json')!r}))
        print('pids', sorted(int(p) for p in os.listdir('/proc') if p.isdigit())[:3])
    """)
    box = Sandbox(writable=(ws,), hidden=(hidden,), tmpdir=None)
    res = run_argv([PY, "-c", script], cwd=ws, sandbox=box, timeout=30)
    assert res.exit_code == 0, res.output
    assert (ws / "inside.txt").read_text() == "ok"
    assert not (outside / "x.txt").exists() and "outside refused" in res.stdout
    assert "state visible False" in res.stdout
    assert "pids [1, 2" in res.stdout  # its own PID namespace: goalkeeper is not in sight
    assert secret.exists()


@pytest.mark.parametrize("mode", ["pidns", "reaper", "plain"])
def test_a_guard_whose_goalkeeper_died_while_it_started_runs_nothing(tmp_path: Path, mode: str) -> None:
    """The guard is told goalkeeper's pid; finding another parent (here: goalkeeper already gone,
    so the guard was re-parented) it must not start the command, whatever getppid() says now."""
    flag = tmp_path / "ran"
    argv = _contain.guard_argv(mode, 0, "t", -1, ["touch", str(flag)])
    i = argv.index("--")
    argv[i - 1] = "1"  # the pid the guard was started for is not its parent
    res = subprocess.run(argv, capture_output=True, timeout=60)
    assert res.returncode == 137 and not flag.exists()
    argv[i - 1] = str(os.getpid())  # and with the right parent it does run
    assert subprocess.run(argv, capture_output=True, timeout=60).returncode == 0 and flag.exists()
