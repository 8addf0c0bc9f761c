"""State the maker cannot forge: signed goal files, a signed event chain, replay on resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from goalkeeper.adapters.makers import MakerRequest
from goalkeeper.adapters.scripted import ScriptedMaker
from goalkeeper.convergence import Budget, StoppingCondition, create_goal, ledger, run_goal
from goalkeeper.convergence.persist import audited_goal, load_goal
from goalkeeper.errors import IntegrityError
from goalkeeper.store import goals as gstore

from .helpers import git

FAILING = StoppingCondition(type="custom_command", command=[sys.executable, "-c", "raise SystemExit(1)"])


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "ws"
    w.mkdir()
    (w / "README").write_text("x\n")
    git(w, "init", "-q")
    return w


def _touch(req: MakerRequest) -> str:
    p = req.workspace / "n.txt"
    p.write_text(p.read_text() + "x" if p.exists() else "x")
    return "touched"


def test_the_chain_is_signed_and_any_edit_breaks_it(ws: Path) -> None:
    g = create_goal("o", [FAILING], workspace=ws, budget=Budget(max_iterations=1))
    run_goal(g.goal_id, maker=ScriptedMaker([_touch]))
    chain = ledger.verify_chain(g.goal_id)
    assert chain.ok and [r["seq"] for r in chain.records] == list(range(1, len(chain.records) + 1))
    path = gstore.goals_dir() / f"{g.goal_id}.events.jsonl"
    lines = path.read_text().splitlines()
    forged = json.loads(lines[-3])
    forged["verdict"] = "converged"
    lines[-3] = json.dumps(forged)
    path.write_text("\n".join(lines) + "\n")
    assert not ledger.verify_chain(g.goal_id).ok


def test_an_edited_goal_file_is_refused_and_rebuilt_from_the_log(ws: Path) -> None:
    g = create_goal("o", [FAILING], workspace=ws, budget=Budget(max_iterations=1))
    run_goal(g.goal_id, maker=ScriptedMaker([_touch]))
    p = gstore.goal_path(g.goal_id)
    data = json.loads(p.read_text())
    data["history"][-1]["oracleVerdict"] = "converged"
    data["state"] = "converged"
    p.write_text(json.dumps(data))
    with pytest.raises(IntegrityError, match="changed outside goalkeeper"):
        load_goal(g.goal_id)
    goal, problems = audited_goal(g.goal_id, repair=True)
    assert problems and goal.state == "escalated" and goal.history[-1].oracle_verdict == "not_converged"


def test_a_cut_log_is_caught(ws: Path) -> None:
    g = create_goal("o", [FAILING], workspace=ws, budget=Budget(max_iterations=1))
    run_goal(g.goal_id, maker=ScriptedMaker([_touch]))
    path = gstore.goals_dir() / f"{g.goal_id}.events.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:4]) + "\n")
    with pytest.raises(IntegrityError, match="the log was cut"):
        audited_goal(g.goal_id)


FORGER = textwrap.dedent("""
    import json, os, signal, sys
    home, gid = sys.argv[1], os.environ["GOALKEEPER_GOAL_ID"]
    p = os.path.join(home, "goals", gid + ".json")
    data = json.load(open(p))
    data.pop("mac", None)
    data["history"][-1].update({"phase": "done", "oracleVerdict": "converged", "confidence": 1.0,
                                "conditionResults": [{"type": "custom_command", "command": "x", "passed": True}]})
    data["state"] = "converged"
    open(p, "w").write(json.dumps(data))
    with open(os.path.join(home, "goals", gid + ".events.jsonl"), "a") as f:
        f.write(json.dumps({"event": "oracle.finished", "iteration": 1, "verdict": "converged"}) + "\\n")
    for pid in os.listdir("/proc"):  # find goalkeeper the way a real maker would, and kill it
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\\0")
        except OSError:
            continue
        if b"goalkeeper" in cmd and b"run" in cmd and gid.encode() in cmd:
            os.kill(int(pid), signal.SIGKILL)
""")


@pytest.mark.parametrize("inside", [False, True])
@pytest.mark.parametrize("containment", ["pidns", "reaper"])
def test_forged_state_then_kill_9_of_goalkeeper_never_converges(tmp_path: Path, ws: Path, inside: bool,
                                                               containment: str) -> None:
    home = ws / ".goalkeeper" if inside else tmp_path / "home"
    forger = tmp_path / "forger.py"
    forger.write_text(FORGER)
    env = {**os.environ, "GOALKEEPER_HOME": str(home), "NO_COLOR": "1", "GOALKEEPER_CONTAINMENT": containment}
    cli = [sys.executable, "-m", "goalkeeper"]
    made = subprocess.run([*cli, "goal", "new", "forge", "--until", f"{sys.executable} -c 'raise SystemExit(1)'",
                           "--maker", f"{sys.executable} {forger} {home}", "--max-iterations", "2",
                           "--sandbox", "none", "--workspace", str(ws)], env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    gid = made.stdout.strip()
    first = subprocess.run([*cli, "goal", "run", gid], env=env, capture_output=True, text=True, timeout=120)
    if containment == "pidns":  # inside its PID namespace the maker cannot even signal goalkeeper
        assert first.returncode == 3 and "ProcessLookupError" in first.stdout, first.stdout + first.stderr
        assert load_goal(gid, home).state == "escalated"
        return
    assert first.returncode == -9, first.stdout + first.stderr
    status = subprocess.run([*cli, "goal", "status", gid, "--json"], env=env, capture_output=True, text=True)
    assert status.returncode == 1 and "goalkeeper did not write it" in status.stderr
    # the maker forges and kills again on every restart: the restart limit ends it, never a fake verdict
    seen: list[str] = []
    for _ in range(8):
        again = subprocess.run([*cli, "goal", "run", gid, "--json"], env=env, capture_output=True, text=True,
                               timeout=120)
        seen += [json.loads(x)["event"] for x in again.stdout.splitlines() if x.startswith("{")]
        if again.returncode != -9:
            break
    assert again.returncode == 3, again.stdout[-2000:] + again.stderr
    final = load_goal(gid, home)
    assert final.state == "escalated" and final.escalation and final.escalation.reason == "repeated_failure"
    assert "goal.repaired" in seen and "goal.converged" not in seen
    assert final.elapsed_seconds > 0 and final.history[0].charged_seconds > 0  # crashes are charged
