"""Helpers shared by the runtime and CLI run tests: spec files, the real CLI, event logs."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PY = sys.executable
REPO = Path(__file__).resolve().parents[2]


def write_spec(directory: Path, text: str, name: str = "spec.yaml") -> Path:
    """Write dedented spec text into ``directory`` (the spec dir is the actions' cwd)."""
    directory.mkdir(parents=True, exist_ok=True)
    p = directory / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def cli_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["GOALKEEPER_HOME"] = str(home)
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "200"
    env.pop("FORCE_COLOR", None)
    env.update(extra or {})
    return env


def gk(*args: str | os.PathLike[str], home: Path, cwd: Path, timeout: float = 60,
       env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real CLI non-interactively; a traceback on stderr always fails the test."""
    proc = subprocess.run(
        [PY, "-m", "goalkeeper", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, env=cli_env(home, env),
        stdin=subprocess.DEVNULL, timeout=timeout,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def gk_popen(*args: str | os.PathLike[str], home: Path, cwd: Path,
             out: Path) -> subprocess.Popen[bytes]:
    """Start the CLI in the background, stdout+stderr to ``out``."""
    with open(out, "wb") as f:
        return subprocess.Popen(
            [PY, "-m", "goalkeeper", *map(str, args)],
            stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            cwd=cwd, env=cli_env(home),
        )


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run_dirs(home: Path) -> list[Path]:
    d = home / "runs"
    return sorted(p for p in d.iterdir() if p.is_dir()) if d.exists() else []


def only_run(home: Path) -> Path:
    dirs = run_dirs(home)
    assert len(dirs) == 1, dirs
    return dirs[0]


def read_events(run_dir: Path) -> list[dict[str, Any]]:
    p = run_dir / "events.jsonl"
    if not p.exists():
        return []
    out = []
    for line in p.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(json.JSONDecodeError):  # a line being written right now
            out.append(json.loads(line))
    return out


def read_state(run_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run_dir / "state.json").read_text(encoding="utf-8"))
    return data


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in events]


def started_actions(events: list[dict[str, Any]]) -> list[str]:
    return [e["action"] for e in events if e["event"] == "tick.started"]


def count_lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def wait_for(pred: Callable[[], Any], what: str, limit: float = 30.0) -> Any:
    """Poll until ``pred()`` is truthy; the limit only guards against a hang."""
    deadline = time.monotonic() + limit
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def pid_alive(pid: int) -> bool:
    """True if the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def spec_from(text: str) -> Any:
    """A validated Spec from dedented YAML text (no file, no lint)."""
    from goalkeeper.model.loader import parse_spec_text

    return parse_spec_text(textwrap.dedent(text))


class ScriptedWorld:
    """A world of fact values for driving the pure tick machine without any I/O.

    An action does what its spec says (its effects become the world's values, exit 0)
    unless ``outcomes[action]`` scripts it: ``"fail"`` (exit 1, nothing changes),
    ``"noop"`` (exit 0, nothing changes), ``"lost"`` (interrupted), or a callable
    that changes ``world.facts`` and returns an ``Acted``.
    """

    def __init__(self, spec: Any, facts: dict[str, Any], outcomes: dict[str, Any] | None = None,
                 approve: bool | None = None, proposals: list[Any] | None = None) -> None:
        self.spec, self.facts, self.outcomes, self.approve = spec, dict(facts), outcomes or {}, approve
        self.proposals = list(proposals or [])
        self.instructions: list[Any] = []
        self.events: list[dict[str, Any]] = []

    def drive(self, options: Any = None, ledger: Any = None, limit: int = 1000) -> Any:
        from goalkeeper.runtime.decide import SpecModel
        from goalkeeper.runtime.ledger import Ledger
        from goalkeeper.runtime.machine import (
            Act,
            Acted,
            Commit,
            Confirm,
            Done,
            Escalate,
            Filed,
            Observe,
            Observed,
            Propose,
            RunMachine,
        )

        ledger = ledger or Ledger(max_ticks=self.spec.policy.max_ticks)
        machine = RunMachine(SpecModel(self.spec), ledger, options)
        result: Any = None
        for _ in range(limit):
            i = machine.send(result)
            self.instructions.append(i)
            result = None
            if isinstance(i, Commit):
                self.events.append(dict(i.event))
            elif isinstance(i, Observe):
                result = Observed({f: self.facts.get(f) for f in i.facts},
                                  {f: "scripted unknown" for f in i.facts if self.facts.get(f) is None})
            elif isinstance(i, Act):
                how = self.outcomes.get(i.action)
                if how == "fail":
                    result = Acted(False, "exit 1")
                elif how == "noop":
                    result = Acted(True, "exit 0")
                elif how == "lost":
                    result = Acted(False, "the worker stopped", interrupted=True)
                elif callable(how):
                    result = how(self)
                else:
                    self.facts.update(dict(self.spec.actions[i.action].effect_values))
                    result = Acted(True, "exit 0")
            elif isinstance(i, Confirm):
                result = self.approve
            elif isinstance(i, Propose):
                result = self.proposals.pop(0)
            elif isinstance(i, Escalate):
                result = Filed("tri-scripted", "report.md")
            elif isinstance(i, Done):
                return machine.ledger
        raise AssertionError("the machine did not finish")

    def kinds(self) -> list[str]:
        return [e["event"] for e in self.events]

    def acted(self) -> list[str]:
        return [e["action"] for e in self.events if e["event"] == "tick.started"]
