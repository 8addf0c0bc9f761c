"""`goalkeeper run --runtime hybrid` end to end: a real CLI process, a real local
OpenAI-compatible server, real commands. The model only ever names actions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.openai_server import FakeOpenAIServer, Status, running_server

SPEC = """
goalkeeper: 1
name: pipeline
goal: {released: true}
facts:
  built: {observe: {file: built}}
  released: {observe: {file: released}}
actions:
  build: {pre: {built: false}, effects: {built: true}, run: [touch, built]}
  release: {pre: {built: true}, effects: {released: true}, run: [touch, released]}
policy: {max_ticks: 6, strikes: 2}
"""


def answer(action: str, expects: dict[str, bool]) -> str:
    return json.dumps({"action": action, "expects": expects, "reason": "next"})


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with running_server() as s:
        yield s


def hybrid(tmp_path: Path, server: FakeOpenAIServer, *extra: str) -> subprocess.CompletedProcess[str]:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "GOALKEEPER_LLM"))}
    env["GOALKEEPER_HOME"] = str(tmp_path / "home")
    return subprocess.run(
        [sys.executable, "-m", "goalkeeper", "run", str(spec), "--runtime", "hybrid", "--model", "fake-model",
         "--base-url", server.base_url, "--json", *extra],
        capture_output=True, text=True, env=env, timeout=120,
    )


def events(r: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def test_hybrid_run_reaches_the_goal_over_http(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.queue(answer("build", {"built": True}), answer("release", {"released": True}))
    r = hybrid(tmp_path, server)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    evs = events(r)
    assert [e["action"] for e in evs if e["event"] == "proposal.received"] == ["build", "release"]
    assert (tmp_path / "released").exists()
    # The server got the hybrid system prompt and the observed state, nothing else.
    first = server.requests[0]
    assert first["model"] == "fake-model"
    assert "PROPOSE" in first["messages"][0]["content"]
    assert json.loads(first["messages"][-1]["content"])["observed_state"] == {"built": False, "released": False}


def test_hybrid_survives_a_500_and_garbage(tmp_path: Path, server: FakeOpenAIServer) -> None:
    # A 500 (retried by the SDK), then three unusable answers (one refusal = a strike),
    # then good answers: the run still reaches the goal and never crashes.
    server.queue(Status(500), answer("build", {"built": True}),
                 "no json here", "still {not json", "```json\n{\"action\": 3}\n```",
                 answer("release", {"released": True}))
    r = hybrid(tmp_path, server)
    assert r.returncode == 0, r.stdout + r.stderr
    evs = events(r)
    refused = [e for e in evs if e["event"] == "action.refused"]
    assert len(refused) == 1 and "no valid proposal" in str(refused[0]["reason"])


def test_hybrid_refusals_escalate(tmp_path: Path, server: FakeOpenAIServer) -> None:
    # The model keeps proposing release before build: refused, blocked, then it cannot go on.
    server.queue(*[answer("release", {"released": True})] * 2, *[answer("release", {"released": True})] * 4)
    r = hybrid(tmp_path, server, "--max-ticks", "3")
    assert r.returncode == 3, r.stdout + r.stderr
    assert not (tmp_path / "released").exists()
    assert any(e["event"] == "run.replanned" for e in events(r))


def test_hybrid_needs_a_model(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    r = subprocess.run([sys.executable, "-m", "goalkeeper", "run", str(spec), "--runtime", "hybrid"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--model" in r.stderr
