"""``runs logs RUN -f`` from a second terminal while another process runs the spec: it prints each
action's output as the action finishes and ends with the run's exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "goalkeeper"]

SPEC = """\
goalkeeper: 1
goal: {deployed: true}
facts:
  built: {type: bool, observe: {file: state/built}, initial: false}
  deployed: {type: bool, observe: {file: state/deployed}, initial: false}
actions:
  build:
    effects: {built: true}
    run: "mkdir -p state && echo BUILD-SAYS-HELLO && touch state/built"
  deploy:
    pre: {built: true}
    effects: {deployed: true}
    run: "while [ ! -f gate ]; do sleep 0.05; done; echo DEPLOY-SAYS-BYE; touch state/deployed"
"""


def test_follow_a_running_run(tmp_path: Path, goalkeeper_home: Path) -> None:
    (tmp_path / "spec.yaml").write_text(SPEC)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    proc = subprocess.Popen([*CLI, "run", "spec.yaml", "--json"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    follower: subprocess.Popen[str] | None = None
    try:
        runs = goalkeeper_home / "runs"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (runs.is_dir() and any(runs.iterdir())):
            time.sleep(0.05)
        (run_dir,) = list(runs.iterdir())
        follower = subprocess.Popen([*CLI, "runs", "logs", run_dir.name, "-f"], cwd=tmp_path, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert follower.stdout is not None
        seen = []
        for line in follower.stdout:  # the run cannot end before the gate exists: this is a live follow
            seen.append(line)
            if "following" in line:
                break
        assert not any("DEPLOY-SAYS-BYE" in x for x in seen)
        (tmp_path / "gate").write_text("")
        assert proc.wait(timeout=120) == 0
        rest, err = follower.communicate(timeout=60)
        out = "".join(seen) + rest
        assert follower.returncode == 0, err
        assert out.index("BUILD-SAYS-HELLO") < out.index("DEPLOY-SAYS-BYE")  # each output after its action
        assert "reached" in out
        streamed = [json.loads(x) for x in proc.stdout.read().splitlines()] if proc.stdout else []
        assert streamed[-1]["event"] == "run.reached"
    finally:
        for p in (proc, follower):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()


def test_runs_logs_of_a_damaged_or_unknown_run(tmp_path: Path, goalkeeper_home: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    bad = goalkeeper_home / "runs" / "run-20260101T000000-abcd"
    bad.mkdir(parents=True)
    (bad / "state.json").write_text("{torn")
    for rid in (bad.name, "run-nothere", "../etc"):
        r = subprocess.run([*CLI, "runs", "logs", rid], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 1 and "Traceback" not in r.stderr and r.stderr.strip(), (rid, r.stderr)
