"""`goalkeeper mcp` end to end: the official SDK's client spawns the server over stdio and calls every tool."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from .helpers import APP_FIX, gk, new_host_goal, project

pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

SPECS = Path(__file__).parent.parent / "model" / "specs"
TOOLS = {"validate", "plan", "observe", "build", "goal_new", "goal_check", "goal_status", "goal_list",
         "goal_logs", "triage_list", "triage_show"}


def _params(cwd: Path) -> StdioServerParameters:
    env = {k: os.environ[k] for k in ("GOALKEEPER_HOME", "GOALKEEPER_KEYS", "PATH") if k in os.environ}
    return StdioServerParameters(command=sys.executable, args=["-m", "goalkeeper", "mcp"], env=env, cwd=str(cwd))


def _session(cwd: Path, script: Any) -> Any:
    """Run ``script(client)`` against a freshly spawned server; its return value comes back."""
    out: dict[str, Any] = {}

    async def main() -> None:
        with open(cwd / "server.stderr", "w") as errlog:
            async with Client(stdio_client(_params(cwd), errlog=errlog)) as client:
                out["value"] = await script(client)

    anyio.run(main)
    return out["value"]


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    text = result.content[0].text
    parsed = json.loads(text)
    assert parsed == result.structured_content  # the model and the client read the same document
    return parsed  # type: ignore[no-any-return]


def _error(result: Any) -> str:
    assert result.is_error
    text: str = result.content[0].text
    assert "Traceback" not in text
    return text


def test_every_tool_is_listed_with_a_json_schema_and_the_spec_tools_answer(tmp_path: Path) -> None:
    shutil.copy(SPECS / "minimal.yaml", tmp_path / "spec.yaml")
    shutil.copy(SPECS / "typo.yaml", tmp_path / "typo.yaml")

    async def script(c: Any) -> dict[str, Any]:
        listed = (await c.list_tools()).tools
        return {
            "tools": {t.name: (t.input_schema, t.description, t.annotations) for t in listed},
            "valid": await c.call_tool("validate", {"spec": "spec.yaml"}),
            "typo": await c.call_tool("validate", {"spec": "typo.yaml"}),
            "plan": await c.call_tool("plan", {"spec": "spec.yaml", "state": {"done": False}}),
            "noinitial": await c.call_tool("plan", {"spec": "spec.yaml"}),
            "observe": await c.call_tool("observe", {"spec": "spec.yaml"}),
            "build": await c.call_tool("build", {"spec": "spec.yaml", "target": "code", "out_dir": "out"}),
            "badtype": await c.call_tool("plan", {"spec": 7}),
        }

    r = _session(tmp_path, script)
    assert set(r["tools"]) == TOOLS
    for name, (schema, description, hints) in r["tools"].items():
        assert schema["type"] == "object" and description, name
        assert hints.read_only_hint is (name not in ("build", "goal_new", "goal_check")), name
    assert r["tools"]["goal_new"][0]["required"] == ["objective"]
    assert r["tools"]["validate"][0]["required"] == ["spec"]
    assert _data(r["valid"])["valid"] is True
    typo = _data(r["typo"])
    assert typo["valid"] is False and any("image_bilt" in i["message"] or "image_bilt" in i["path"]
                                          for i in typo["issues"])
    assert _data(r["plan"])["plan"] == ["finish"]
    # the CLI's own words for a state that lacks a value
    cli = gk("plan", "spec.yaml", cwd=tmp_path)
    assert _error(r["noinitial"]) == cli.stderr.strip().removeprefix("error: ")
    observed = _data(r["observe"])
    assert observed["goalHolds"] is False and observed["facts"]["done"]["value"] is False
    built = _data(r["build"])
    assert "runner.py" in built["files"] and (tmp_path / "out" / "runner.py").is_file()
    assert _error(r["badtype"]) == "plan: spec: Input should be a valid string (got 7)"  # refused before it runs


def test_a_host_goal_through_mcp_converges_and_an_escalation_lands_in_triage(tmp_path: Path) -> None:
    ws = project(tmp_path)
    other = project(tmp_path, "ws2")

    async def script(c: Any) -> dict[str, Any]:
        r: dict[str, Any] = {}
        r["new"] = _data(await c.call_tool("goal_new", {
            "objective": "make the tests pass", "until": [f"{sys.executable} -m pytest -q"],
            "session": "sess-9"}))
        gid = r["new"]["goalId"]
        r["first"] = _data(await c.call_tool("goal_check", {"goal_id": gid}))
        (ws / "app.py").write_text(APP_FIX)  # the host (this test) does the work
        r["second"] = _data(await c.call_tool("goal_check", {"goal_id": gid[:9]}))  # a unique prefix works
        r["status"] = _data(await c.call_tool("goal_status", {"goal_id": "last"}))
        r["logs"] = _data(await c.call_tool("goal_logs", {"goal_id": gid, "iteration": 1}))
        # a goal with one iteration left escalates on its first failing check
        small = _data(await c.call_tool("goal_new", {
            "objective": "fix the other one", "until": f"{sys.executable} -m pytest -q",
            "workspace": str(other), "max_iterations": 1}))
        r["escalated"] = _data(await c.call_tool("goal_check", {"goal_id": small["goalId"]}))
        r["list"] = _data(await c.call_tool("goal_list", {}))
        r["active"] = _data(await c.call_tool("goal_list", {"active": True}))
        r["triage"] = _data(await c.call_tool("triage_list", {"status": "pending"}))
        r["item"] = _data(await c.call_tool("triage_show", {"item_id": r["escalated"]["triageId"]}))
        return r

    r = _session(ws, script)
    assert r["new"]["state"] == "active" and r["new"]["makerType"] == "host" and r["new"]["session"] == "sess-9"
    assert r["new"]["workspace"] == str(ws.resolve())  # the server's working directory
    assert r["first"]["state"] == "active" and any("test_add" in f for f in r["first"]["failing"])
    assert r["first"]["nextHint"]
    assert r["second"]["state"] == "converged" and r["second"]["iteration"] == 2
    assert r["status"]["goalId"] == r["new"]["goalId"] and r["status"]["state"] == "converged"
    checks = [log for log in r["logs"]["logs"] if log["phase"] == "checks"]
    assert {log["iteration"] for log in r["logs"]["logs"]} == {1} and "1 failed" in checks[0]["text"]
    assert r["escalated"]["state"] == "escalated" and r["escalated"]["reason"] == "budget_exhausted"
    assert [g["state"] for g in r["list"]["goals"]] == ["converged", "escalated"]
    assert r["active"]["goals"] == []
    assert [i["id"] for i in r["triage"]["items"]] == [r["escalated"]["triageId"]]
    assert r["item"]["source_id"] == r["escalated"]["goalId"] and "budget_exhausted" in r["item"]["markdown"]


@pytest.mark.deep  # a whole run: the MCP input fuzz keeps bad input in the suite
def test_bad_input_is_a_tool_error_with_the_clis_message(tmp_path: Path) -> None:
    ws = project(tmp_path)
    gid = new_host_goal(ws)

    async def script(c: Any) -> dict[str, Any]:
        return {
            "status": await c.call_tool("goal_status", {"goal_id": "nope"}),
            "path": await c.call_tool("goal_status", {"goal_id": "../../etc/passwd"}),
            "missing_spec": await c.call_tool("plan", {"spec": "missing.yaml"}),
            "no_until": await c.call_tool("goal_new", {"objective": "x"}),
            "maker": await c.call_tool("goal_new", {"objective": "x", "until": "true", "maker_type": "nope"}),
            "shell": await c.call_tool("goal_new", {"objective": "x", "until": "pytest 'unclosed"}),
            "item": await c.call_tool("triage_show", {"item_id": "tri-zzzzzzzz"}),
            "target": await c.call_tool("build", {"spec": "missing.yaml", "target": "nope"}),
            "check_command_goal": await c.call_tool("goal_check", {"goal_id": gid}),
            "unknown_tool": await c.call_tool("no_such_tool", {}),
        }

    r = _session(ws, script)
    for name in ("status", "path", "item"):
        kind, arg = {"status": ("goal", "nope"), "path": ("goal", "../../etc/passwd"),
                     "item": ("triage", "tri-zzzzzzzz")}[name]
        cli = gk(kind, "status" if kind == "goal" else "show", arg, cwd=ws)
        assert cli.returncode == 1
        assert _error(r[name]) == cli.stderr.strip().removeprefix("error: "), name
    assert "missing.yaml" in _error(r["missing_spec"])
    assert "at least one stopping condition" in _error(r["no_until"])
    assert "unknown maker type 'nope'" in _error(r["maker"])
    assert "cannot split" in _error(r["shell"])
    assert "target 'nope'" in _error(r["target"])
    assert r["check_command_goal"].is_error is False  # a host goal: checked, not an error
    assert _error(r["unknown_tool"])


def test_without_the_extra_the_command_names_the_install_line(tmp_path: Path) -> None:
    # a stub package named `mcp` without the server module stands for "not installed"
    fake = tmp_path / "fake"
    (fake / "mcp").mkdir(parents=True)
    (fake / "mcp" / "__init__.py").write_text("")
    env = {**os.environ, "PYTHONPATH": str(fake)}
    import subprocess

    res = subprocess.run([sys.executable, "-m", "goalkeeper", "mcp"], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=60, stdin=subprocess.DEVNULL)
    assert res.returncode == 1
    assert "pip install 'goalkeeper[mcp]'" in res.stderr and "Traceback" not in res.stderr


def test_arguments_that_break_the_schema_are_refused_in_goalkeepers_words(tmp_path: Path) -> None:
    async def script(c: Any) -> dict[str, Any]:
        calls = {
            "not_int": ("goal_new", {"objective": "x", "until": "true", "max_iterations": "abc"}),
            "below_min": ("goal_new", {"objective": "x", "until": "true", "max_iterations": 0}),
            "missing": ("goal_new", {"until": "true"}),
            "unknown": ("goal_new", {"objective": "x", "until": "true", "bogus": 1}),
            "wrong_type": ("plan", {"spec": ["a.yaml"]}),
            "negative": ("goal_logs", {"goal_id": "last", "iteration": -1}),
        }
        return {k: await c.call_tool(name, args) for k, (name, args) in calls.items()}

    r = _session(tmp_path, script)
    assert _error(r["not_int"]).startswith('goal_new: max_iterations: Input should be a valid integer')
    assert '(got "abc")' in _error(r["not_int"])
    assert _error(r["below_min"]) == "goal_new: max_iterations: Input should be greater than or equal to 1 (got 0)"
    assert _error(r["missing"]) == "goal_new: objective: required"
    assert _error(r["unknown"]).startswith("goal_new: unknown argument 'bogus' (known: objective, until,")
    assert _error(r["wrong_type"]) == 'plan: spec: Input should be a valid string (got ["a.yaml"])'
    assert _error(r["negative"]).startswith("goal_logs: iteration:")
    for result in r.values():
        assert "pydantic.dev" not in _error(result) and "Error executing tool" not in _error(result)
    listed = json.loads(gk("goal", "list", "--json", cwd=tmp_path).stdout)
    assert listed == [] or listed.get("goals", []) == []  # nothing was created by a refused call


def test_garbage_on_the_wire_is_skipped_and_the_server_still_answers(tmp_path: Path) -> None:
    import subprocess

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    stdin = "this is not json\n" + json.dumps(init) + "\n[1, 2\n\x00\xff\n"
    env = {k: os.environ[k] for k in ("GOALKEEPER_HOME", "GOALKEEPER_KEYS", "PATH") if k in os.environ}
    res = subprocess.run([sys.executable, "-m", "goalkeeper", "mcp"], input=stdin, capture_output=True, text=True,
                         cwd=tmp_path, env=env, timeout=60)
    answers = [json.loads(line) for line in res.stdout.splitlines() if line.strip()]
    assert any(a.get("id") == 1 and a["result"]["serverInfo"]["name"] == "goalkeeper" for a in answers), res.stdout
    assert res.returncode == 0 and "Traceback" not in res.stderr
