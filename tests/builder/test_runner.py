"""The standalone runner emitted by ``build --target code``: a real bare venv, real commands,
and plans that match goalkeeper's regression search on random specs."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from goalkeeper.build import build, runner_source, write_build
from goalkeeper.build.table import action_table
from goalkeeper.model.loader import load_spec, spec_from_data
from goalkeeper.planning import plan

SPECS = Path(__file__).parent / "specs"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PY311 = shutil.which("python3.11") or sys.executable


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv without pip or goalkeeper: the runner must need nothing but the stdlib."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([PY311, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    py = venv / "bin" / "python"
    probe = subprocess.run([str(py), "-I", "-c", "import goalkeeper"], capture_output=True, timeout=30)
    assert probe.returncode != 0, "the bare venv must not see goalkeeper"
    return py


def _emit(spec_path: Path, out: Path) -> Path:
    write_build(build(load_spec(spec_path), "code"), out)
    return out / "runner.py"


def _run(py: Path, runner: Path, workdir: Path, *args: str, env: dict[str, str] | None = None,
         home: Path | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    full_env["GOALKEEPER_HOME"] = str(home or workdir / "gk-home")
    return subprocess.run([str(py), "-I", str(runner), "--workdir", str(workdir), *args],
                          capture_output=True, text=True, env=full_env, timeout=60)


def test_runner_reaches_the_goal_in_a_bare_venv(bare_python: Path, tmp_path: Path) -> None:
    runner = _emit(SPECS / "pipeline.yaml", tmp_path / "agent")
    work = tmp_path / "work"
    work.mkdir()
    r = _run(bare_python, runner, work)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (work / "out" / "status.txt").read_text().strip() == "released"
    assert "tick 1: build" in r.stdout and "done: the goal holds after 3 tick(s)" in r.stdout
    again = _run(bare_python, runner, work)
    assert again.returncode == 0 and "after 0 tick(s)" in again.stdout


def test_runner_strikes_replans_and_escalates(bare_python: Path, tmp_path: Path) -> None:
    runner = _emit(SPECS / "stuck.yaml", tmp_path / "agent")
    work = tmp_path / "work"
    work.mkdir()
    r = _run(bare_python, runner, work)
    assert r.returncode == 3, r.stdout + r.stderr
    assert r.stdout.count("finish failed") == 2
    assert "replan: blocked finish" in r.stdout
    inbox = work / "gk-home" / "triage"
    [report] = list(inbox.glob("tri-*.json"))
    item = json.loads(report.read_text())
    assert item["status"] == "pending" and item["reason"] == "no_admissible_action"
    assert "finish" in item["summary"] and item["severity"] == "critical"
    assert item["context"]["observed"] == {"done": False, "ready": True}
    assert item["context"]["blocked"] == ["finish"]
    assert (inbox / (item["id"] + ".md")).read_text().startswith("# Escalation: stuck")
    # the item is a valid goalkeeper triage item, and `triage act --goal` can use it as is
    from goalkeeper.store.triage import TriageItem

    TriageItem.model_validate(item)
    assert item["context"]["workspace"] == str(work)
    (until,) = item["context"]["until"]
    check = subprocess.run(shlex.split(until), capture_output=True, text=True, timeout=60)
    assert check.returncode == 4 and json.loads(check.stdout)["holds"] is False
    (work / "done.flag").write_text("")
    assert subprocess.run(shlex.split(until), capture_output=True, timeout=60).returncode == 0


def test_runner_refuses_confirm_without_yes(bare_python: Path, tmp_path: Path) -> None:
    spec = tmp_path / "wipe.yaml"
    spec.write_text(
        "goalkeeper: 1\ngoal: {clean: true}\nfacts:\n  clean: {observe: {command: 'test ! -e junk'}}\n"
        "actions:\n  wipe:\n    pre: {clean: false}\n    effects: {clean: true}\n"
        "    run: [rm, -rf, junk]\n    destructive: true\n    confirm: true\n"
    )
    runner = _emit(spec, tmp_path / "agent")
    work = tmp_path / "work"
    (work / "junk").mkdir(parents=True)
    r = _run(bare_python, runner, work)
    assert r.returncode == 3 and "needs approval" in r.stdout
    assert (work / "junk").exists()
    r = _run(bare_python, runner, work, "--yes")
    assert r.returncode == 0 and not (work / "junk").exists()


@pytest.mark.skipif(not (EXAMPLES / "deploy-coordinator" / "spec.yaml").exists(), reason="example missing")
@pytest.mark.parametrize("variant,expected", [("healing", 0), ("locked", 3)])
def test_runner_on_the_deploy_coordinator_example(
    bare_python: Path, tmp_path: Path, variant: str, expected: int
) -> None:
    ex = EXAMPLES / "deploy-coordinator"
    runner = _emit(ex / "spec.yaml", tmp_path / "agent")
    world = tmp_path / "world"
    world.mkdir()
    (world / "default_env").write_text("staging\n")
    if variant == "healing":
        (world / "pin_allowed").write_text("granted\n")
    env = {"DEMO_WORLD": str(world)}
    server = subprocess.Popen([sys.executable, str(ex / "scripts" / "world.py"), "serve"],
                              stdout=subprocess.PIPE, text=True, env={**os.environ, **env})
    try:
        assert server.stdout is not None
        env["DEMO_URL"] = f"http://127.0.0.1:{int(server.stdout.readline())}"
        r = _run(bare_python, runner, ex, env=env, home=tmp_path / "gk-home")
    finally:
        server.terminate()
        server.wait()
    assert r.returncode == expected, r.stdout + r.stderr
    assert "replan: blocked verify_health" in r.stdout


@pytest.mark.skipif(not (EXAMPLES / "soldier" / "spec.yaml").exists(), reason="example missing")
def test_runner_on_the_soldier_example(bare_python: Path, tmp_path: Path) -> None:
    ex = tmp_path / "soldier"
    shutil.copytree(EXAMPLES / "soldier", ex)
    runner = _emit(ex / "spec.yaml", tmp_path / "agent")
    r = _run(bare_python, runner, ex)
    assert r.returncode == 0, r.stdout + r.stderr
    want = plan(load_spec(ex / "spec.yaml"), {}, search="regression")
    assert f"(plan {' -> '.join(want.plan)}," in r.stdout.splitlines()[1]


# -- plans equal goalkeeper's on random specs --------------------------------


@pytest.fixture(scope="module")
def runner_module(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    path = tmp_path_factory.mktemp("runner") / "runner.py"
    path.write_text(runner_source())
    spec = importlib.util.spec_from_file_location("emitted_runner", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the class is made
    spec.loader.exec_module(mod)
    return mod


def random_spec(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """Bool and small-int facts, conditions with every operator, non-unit costs."""
    facts: dict[str, Any] = {}
    for i in range(rng.randint(2, 5)):
        facts[f"f{i}"] = {"type": rng.choice(["bool", "bool", "int"]), "observe": {"command": "true"}}

    def value(f: str) -> Any:
        return rng.random() < 0.5 if facts[f]["type"] == "bool" else rng.randint(0, 3)

    def cond(f: str) -> Any:
        if facts[f]["type"] == "bool":
            return value(f) if rng.random() < 0.8 else {"!=": value(f)}
        op = rng.choice(["==", "!=", "<", "<=", ">", ">=", "in"])
        return {op: sorted({value(f), value(f)}) if op == "in" else value(f)}

    names = list(facts)
    actions = {}
    for i in range(rng.randint(2, 7)):
        pre = {f: cond(f) for f in rng.sample(names, rng.randint(0, min(2, len(names))))}
        eff = {f: value(f) for f in rng.sample(names, rng.randint(1, min(2, len(names))))}
        actions[f"a{i}"] = {"pre": pre, "effects": eff, "cost": rng.choice([1, 1, 2, 3, 0.5])}
    goal = {f: cond(f) for f in rng.sample(names, rng.randint(1, min(3, len(names))))}
    state = {f: (None if rng.random() < 0.1 else value(f)) for f in names}
    return {"goalkeeper": 1, "name": "rnd", "goal": goal, "facts": facts, "actions": actions}, state


def _replays(spec: Any, state: dict[str, Any], steps: list[str]) -> bool:
    s = dict(state)
    for name in steps:
        a = spec.actions[name]
        if not all(c.holds(s.get(c.fact)) for c in a.pre_conditions):
            return False
        s.update(dict(a.effect_values))
    return all(c.holds(s.get(c.fact)) for c in spec.goal_conditions)


def test_runner_plans_match_goalkeeper_regression(runner_module: ModuleType) -> None:
    """Same existence and optimal cost on every spec; the runner's plan replays to the goal.

    Sequences may differ only among equally cheap plans, because goalkeeper prunes
    operators and breaks ties on its bitset encoding; we also count exact matches."""
    rng = random.Random(20240601)
    same_sequence = found = 0
    for _ in range(300):
        data, state = random_spec(rng)
        spec = spec_from_data(data)
        want = plan(spec, state, search="regression")
        got = runner_module.plan(action_table(spec), state)
        assert (got is not None) == want.found, (data, state)
        if got is None:
            continue
        found += 1
        steps, cost = got
        assert cost == pytest.approx(want.cost), (data, state, steps, want.plan)
        assert _replays(spec, state, steps), (data, state, steps)
        same_sequence += steps == list(want.plan)
    assert found > 50
    assert same_sequence >= found * 0.95  # ~99.9% today; a drop means the search orders diverged


def test_runner_plan_and_check_modes(tmp_path: Path) -> None:
    runner = _emit(SPECS / "pipeline.yaml", tmp_path / "agent")
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"built": True, "version": 1, "released": False}))
    r = subprocess.run([sys.executable, "-I", str(runner), "plan", "--state", str(state)],
                       capture_output=True, text=True, timeout=30)
    assert json.loads(r.stdout) == {"found": True, "plan": ["bump", "release"], "cost": 3.0}
    proposal = tmp_path / "p.json"
    proposal.write_text(json.dumps({"action": "release", "expects": {"released": True}, "reason": "x"}))
    r = subprocess.run([sys.executable, "-I", str(runner), "check", str(proposal), "--state", str(state)],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 4
    assert json.loads(r.stdout)["problems"] == ["precondition version >= 2 does not hold (observed 1)"]
    proposal.write_text(json.dumps({"action": "bump", "expects": {"version": 2}, "reason": "x"}))
    r = subprocess.run([sys.executable, "-I", str(runner), "check", str(proposal), "--state", str(state)],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and json.loads(r.stdout) == {"ok": True, "problems": []}


def test_the_runner_carries_the_runtimes_own_tick_loop() -> None:
    """runner.py imports no goalkeeper code, yet its loop is the runtime's machine, verbatim."""
    import ast

    import goalkeeper.runtime.deadline_http as deadline_http
    import goalkeeper.runtime.instructions as instructions
    import goalkeeper.runtime.ledger as ledger
    import goalkeeper.runtime.machine as machine

    source = runner_source()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            assert not any(a.name.split(".")[0] == "goalkeeper" for a in node.names)
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and (node.module or "").split(".")[0] != "goalkeeper", node.module
    for module in (ledger, instructions, machine, deadline_http):
        body = Path(module.__file__ or "").read_text()
        start = body.index("\n@dataclass") if module is ledger else body.index("\nclass ")
        assert body[start:].strip() in source, module.__name__
