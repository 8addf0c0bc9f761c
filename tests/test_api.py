"""goalkeeper.run and goalkeeper.converge: every accepted form, every refusal, on real files and processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import goalkeeper
import goalkeeper.api  # the test uses the submodule itself; the package does not import it eagerly
from goalkeeper.convergence import MakerRequest, MakerResult, list_goals, register_maker
from goalkeeper.convergence.contracts import MAKERS, get_maker
from goalkeeper.engines.local import LocalEngine
from goalkeeper.runtime import RunStore

SPEC: dict[str, Any] = {
    "goalkeeper": 1,
    "goal": {"ok": True},
    "facts": {"ok": {"observe": {"command": ["test", "-e", "ok"]}}},
    "actions": {"make_ok": {"effects": {"ok": True}, "run": ["touch", "ok"]}},
}


def test_every_public_name_resolves() -> None:
    for name in goalkeeper.__all__:
        assert getattr(goalkeeper, name) is not None, name


def test_a_dict_a_spec_and_a_path_all_run_to_the_goal(tmp_path: Path) -> None:
    state = goalkeeper.run(SPEC, workdir=tmp_path)
    assert state.status == "reached" and [t.action for t in state.history] == ["make_ok"]
    assert (tmp_path / "ok").exists()
    saved = list(tmp_path.glob(".goalkeeper-spec-*.json"))
    assert len(saved) == 1 and Path(state.spec_path) == saved[0].resolve()

    (tmp_path / "ok").unlink()
    again = goalkeeper.run(goalkeeper.spec_from_data(SPEC), workdir=tmp_path)
    assert again.status == "reached" and again.run_id != state.run_id
    assert list(tmp_path.glob(".goalkeeper-spec-*.json")) == saved  # same content, same file

    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC))
    (tmp_path / "ok").unlink()
    by_path = goalkeeper.run(path)
    assert by_path.status == "reached" and by_path.spec_path == str(path.resolve())
    assert RunStore(by_path.run_id).load().status == "reached"  # the state is on disk, as from the CLI


def test_events_reach_on_event_as_they_are_recorded(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    state = goalkeeper.run(SPEC, workdir=tmp_path, on_event=seen.append)
    assert state.status == "reached"
    kinds = [e["event"] for e in seen]
    assert kinds[0] == "run.started" and "action.finished" in kinds and kinds[-1] == "run.reached"


@pytest.mark.parametrize("bad", [42, None, ["spec.yaml"], b"spec.yaml"])
def test_anything_else_is_a_config_error(bad: object) -> None:
    with pytest.raises(goalkeeper.ConfigError, match="a path, a dict or a goalkeeper.Spec"):
        goalkeeper.run(bad)  # type: ignore[arg-type]


def test_a_missing_path_an_invalid_dict_and_non_json_values_are_refused(tmp_path: Path) -> None:
    with pytest.raises(goalkeeper.ConfigError, match="is not a file"):
        goalkeeper.run(tmp_path / "nope.yaml")
    with pytest.raises(goalkeeper.SpecError, match="goal.x: unknown fact"):
        goalkeeper.run({**SPEC, "goal": {"x": True}}, workdir=tmp_path)
    with pytest.raises(goalkeeper.ConfigError, match="not plain JSON"):
        goalkeeper.run({**SPEC, "name": object()}, workdir=tmp_path)
    with pytest.raises(goalkeeper.ConfigError, match="workdir= applies to a dict or Spec"):
        goalkeeper.run(tmp_path / "x.yaml", workdir=tmp_path)
    assert not list(tmp_path.glob(".goalkeeper-spec-*"))  # nothing was written for a refused spec


def test_an_unknown_engine_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(goalkeeper.ConfigError, match="unknown engine 'nope'"):
        goalkeeper.run(SPEC, engine="nope", workdir=tmp_path)
    with pytest.raises(goalkeeper.ConfigError, match="engine name"):
        goalkeeper.run(SPEC, engine=object(), workdir=tmp_path)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []  # refused before the spec was saved


def test_a_workdir_that_cannot_hold_the_spec_is_a_clear_error(tmp_path: Path) -> None:
    saved = goalkeeper.api.spec_file(SPEC, tmp_path)
    saved.unlink()
    saved.mkdir()  # something else sits where the spec goes
    with pytest.raises(goalkeeper.GoalkeeperError, match="is a folder, not a file; remove it"):
        goalkeeper.run(SPEC, workdir=tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        if os.access(ro, os.W_OK):  # root ignores the mode bits: nothing to show here
            return
        with pytest.raises(goalkeeper.ConfigError, match="cannot save the spec"):
            goalkeeper.run(SPEC, workdir=ro)
    finally:
        ro.chmod(0o700)


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    return ws


FIX = ("import pathlib, json; p = pathlib.Path('calc.py'); p.write_text(p.read_text().replace('a - b', 'a + b'));"
       " print(json.dumps({'summary': 'fixed', 'costDollars': 0.5}))")
CHECK = "python3 -c \"from calc import add; assert add(2, 3) == 5\""


def test_converge_runs_a_real_maker_and_returns_the_final_goal(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    events: list[str] = []
    goal = goalkeeper.converge("add() adds", until=[CHECK], maker=[sys.executable, "-c", FIX], workspace=ws,
                               max_iterations=3, on_event=lambda e: events.append(e["event"]))
    assert isinstance(goal, goalkeeper.Goal) and goal.state == "converged"
    assert len(goal.history) == 1 and goal.history[0].maker_cost_dollars == 0.5
    assert goal.history[0].condition_results[0].passed
    assert "maker.finished" in events and "goal.converged" in events
    assert goal.source["api"] == "goalkeeper.converge"
    assert [g.goal_id for g in list_goals()] == [goal.goal_id]  # persisted like a CLI goal


def test_a_maker_that_only_claims_success_does_not_converge(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    liar = [sys.executable, "-c", "print('{\"summary\": \"all tests pass, done!\"}')"]
    goal = goalkeeper.converge("add() adds", until=[CHECK], maker=liar, workspace=ws, max_iterations=2)
    assert goal.state == "escalated" and goal.escalation is not None
    assert all(h.oracle_verdict != "converged" for h in goal.history)


def test_converge_takes_condition_dicts_and_maker_specs(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    spec = goalkeeper.MakerSpec(argv=[sys.executable, "-c", FIX])
    goal = goalkeeper.converge("add() adds", until=[{"type": "custom_command", "command": CHECK}], maker=spec,
                               workspace=ws, max_iterations=2, engine=LocalEngine())
    assert goal.state == "converged"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"until": []}, "until=\\[\\] is empty"),
    ({"maker": "fix it"}, "is a string; pass an argv list"),
    ({"maker": None}, "maker= is missing"),
    ({"maker": [1, 2]}, "list of strings"),
    ({"max_iterations": 0}, "budget.max_iterations"),
    ({"max_iterations": None, "max_duration": None}, "dollars-only budget"),
    ({"sandbox": "weird"}, "maker.sandbox"),
    ({"until": [{"command": ""}]}, "until\\[0\\].command"),
    ({"until": [3]}, "until\\[0\\]: a command string"),
    ({"maker": goalkeeper.MakerSpec(type="no-such-maker")}, "maker type 'no-such-maker' is not registered"),
    ({"engine": "nope"}, "unknown engine"),
])
def test_bad_converge_input_is_refused_before_a_goal_exists(tmp_path: Path, kwargs: dict[str, Any],
                                                            message: str) -> None:
    args: dict[str, Any] = {"until": ["true"], "maker": ["true"], "workspace": tmp_path, **kwargs}
    with pytest.raises(goalkeeper.ConfigError, match=message):
        goalkeeper.converge("anything", **args)
    assert list_goals() == []


def test_a_registered_maker_object_is_used(tmp_path: Path) -> None:
    class Touch:
        name = "api-test-touch"

        def make(self, request: MakerRequest) -> MakerResult:
            (request.workspace / "done").write_text("x")
            return MakerResult(summary="touched", cost_dollars=0.1)

    register_maker("api-test-touch", lambda spec: Touch())
    try:
        goal = goalkeeper.converge("done exists", until=["test -e done"], workspace=tmp_path,
                                   maker=goalkeeper.MakerSpec(type="api-test-touch"), max_iterations=2)
    finally:
        MAKERS.pop("api-test-touch")
    assert goal.state == "converged" and goal.spent_dollars() == 0.1


def test_the_built_in_makers_and_oracles_load_on_first_lookup_and_not_on_import() -> None:
    # The loop never imports adapters (import-linter forbids it); the registry loads them when a
    # lookup needs them, so `import goalkeeper` (every CLI start) stays cheap.
    code = ("import sys; from goalkeeper.convergence import contracts as c; from goalkeeper.convergence.goal "
            "import MakerSpec, OracleConfig; print('goalkeeper.adapters' in sys.modules); "
            "c.get_maker(MakerSpec(type='host')); c.get_oracle(OracleConfig(model='deterministic')); "
            "print(sorted(c.MAKERS)); print(sorted(c.ORACLES)); print(c.maker_types() == sorted(c.MAKERS))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, makers, oracles, listed = out.stdout.splitlines()
    assert before == "False" and listed == "True"
    assert "'command'" in makers and "'host'" in makers and "'claude-code'" in makers
    assert "'deterministic'" in oracles and "'agent:'" in oracles


def test_an_unregistered_maker_type_names_the_registry() -> None:
    with pytest.raises(goalkeeper.ConfigError, match="register_maker"):
        get_maker(goalkeeper.MakerSpec(type="not-a-maker"))
