"""One scenario table for every engine: the local driver, the Temporal workflow, the standalone runner.

Each scenario is a spec, the files its world starts with, and whether ``--yes`` is
given. ``essentials`` keeps what must be the same wherever a run happens: the
event names in order and the payload fields the machine decides (never times,
paths, ids or the wording of a process's own error output).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from goalkeeper.build import build, write_build
from goalkeeper.model.loader import load_spec


@dataclass(frozen=True)
class Scenario:
    name: str
    spec: str
    files: dict[str, str] = field(default_factory=dict)
    yes: bool = False
    status: str = "reached"

    def world(self, root: Path) -> Path:
        """A fresh copy of the scenario's world under ``root``; returns the spec path."""
        root.mkdir(parents=True, exist_ok=True)
        for name, text in self.files.items():
            (root / name).write_text(text)
        spec = root / "spec.yaml"
        spec.write_text(textwrap.dedent(self.spec))
        return spec


CHAIN = """
    goalkeeper: 1
    name: chain
    goal: {c: true}
    facts:
      a: {observe: {file: a}}
      b: {observe: {file: b}}
      c: {observe: {file: c}}
    actions:
      make_a: {pre: {a: false}, effects: {a: true}, run: "echo x >> make_a.count; touch a"}
      make_b: {pre: {a: true, b: false}, effects: {b: true}, run: "echo x >> make_b.count; touch b"}
      make_c: {pre: {b: true, c: false}, effects: {c: true}, run: "echo x >> make_c.count; touch c"}
    policy: {max_ticks: 10}
"""

SCENARIOS = [
    Scenario("one-action-per-tick", CHAIN),
    Scenario("goal-already-holds", CHAIN, {"c": ""}),
    Scenario("tick-cap", CHAIN.replace("max_ticks: 10", "max_ticks: 2"), status="escalated"),
    Scenario("healing-replan", """
        goalkeeper: 1
        goal: {ok: true}
        facts:
          ok: {observe: {file: ok}}
          linked: {diagnostic: true, initial: true, observe: {file: linked}}
          probe: {type: int, diagnostic: true, observe: {command: "echo 7"}}
        actions:
          finish: {pre: {linked: true, ok: false}, effects: {ok: true},
                   run: "echo x >> finish.count; test -f linked && touch ok"}
          link: {pre: {linked: false}, effects: {linked: true}, run: "echo x >> link.count; touch linked"}
        policy: {strikes: 3}
    """),
    Scenario("route-around-a-blocked-action", """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
        actions:
          fast: {pre: {done: false}, effects: {done: true}, run: "echo x >> fast.count; exit 1"}
          slow: {pre: {done: false}, effects: {done: true}, cost: 3, run: "echo x >> slow.count; touch done"}
        policy: {strikes: 2}
    """),
    Scenario("strike-limit", """
        goalkeeper: 1
        goal: {done: true}
        facts: {done: {observe: {file: done}}}
        actions:
          work: {pre: {done: false}, effects: {done: true}, run: "echo x >> work.count; exit 1"}
        policy: {strikes: 3}
    """, status="escalated"),
    Scenario("exit-0-without-effects", """
        goalkeeper: 1
        goal: {done: true}
        facts: {done: {observe: {file: done}}}
        actions:
          work: {pre: {done: false}, effects: {done: true}, run: "echo x >> work.count"}
        policy: {strikes: 2}
    """, status="escalated"),
    Scenario("destructive-refused-on-a-wrong-belief", """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          ready: {diagnostic: true, initial: true, observe: {file: ready}}
        actions:
          wipe: {pre: {ready: true, done: false}, effects: {done: true}, destructive: true,
                 run: "test -f ready && echo ok >> wipe.log || echo UNSAFE >> wipe.log; touch done"}
          prepare: {pre: {done: false}, effects: {ready: true}, cost: 5, run: "touch ready"}
        policy: {strikes: 3}
    """),
    Scenario("destructive-recheck-after-a-side-effect", """
        goalkeeper: 1
        goal: {wiped: true}
        facts:
          wiped: {observe: {file: wiped}}
          rotated: {observe: {file: rotated}}
          backup: {diagnostic: true, observe: {file: backup}}
        actions:
          rotate: {pre: {rotated: false}, effects: {rotated: true}, run: "touch rotated; rm -f backup"}
          wipe: {pre: {rotated: true, backup: true}, effects: {wiped: true}, destructive: true,
                 run: "test -f backup && echo ok >> wipe.log || echo UNSAFE >> wipe.log; touch wiped"}
          make_backup: {pre: {backup: false}, effects: {backup: true}, run: "touch backup"}
    """, {"backup": ""}),
    Scenario("refusals-hit-the-tick-cap", """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          ready: {diagnostic: true, initial: true, observe: {file: ready}}
        actions:
          wipe: {pre: {ready: true, done: false}, effects: {done: true}, destructive: true,
                 run: "echo x >> wipe.count; touch done"}
        policy: {strikes: 5, max_ticks: 2}
    """, status="escalated"),
    Scenario("confirm-without-yes", """
        goalkeeper: 1
        goal: {gone: true}
        facts: {gone: {observe: {file: gone}}}
        actions:
          drop: {pre: {gone: false}, effects: {gone: true}, destructive: true, confirm: true,
                 run: "echo x >> drop.count; touch gone"}
    """, status="escalated"),
    Scenario("confirm-with-yes", """
        goalkeeper: 1
        goal: {gone: true}
        facts: {gone: {observe: {file: gone}}}
        actions:
          drop: {pre: {gone: false}, effects: {gone: true}, destructive: true, confirm: true,
                 run: "echo x >> drop.count; touch gone"}
    """, yes=True),
    Scenario("unreachable-escalation", """
        goalkeeper: 1
        name: locked
        goal: {healthy: true}
        facts:
          healthy: {observe: {file: healthy}}
          pinned: {observe: {file: pinned}}
          allowed: {observe: {file: allowed}}
          version: {type: str, observe: {command: "echo v1"}}
        actions:
          deploy: {pre: {pinned: true}, effects: {healthy: true}, run: "touch healthy"}
          pin: {pre: {allowed: true}, effects: {pinned: true}, run: "touch pinned"}
    """, status="escalated"),
    Scenario("diagnostic-belief-wrong-at-the-start", """
        goalkeeper: 1
        goal: {ok: true}
        facts:
          ok: {diagnostic: true, initial: true, observe: {file: ok}}
        actions:
          make_ok: {effects: {ok: true}, run: [touch, ok]}
    """),
]

_KEEP = {
    "run.started": ("maxTicks",),
    "run.resumed": ("tick", "maxTicks"),
    "facts.observed": ("facts", "fresh", "initial"),
    "plan.made": ("plan", "cost", "excluded"),
    "tick.started": ("tick", "action"),
    "action.finished": ("tick", "action", "outcome", "strikes", "limit", "missingEffects", "believed"),
    "action.refused": ("tick", "action", "reason", "strikes", "limit"),
    "action.interrupted": ("tick", "action", "strikes"),
    "run.replanned": ("tick", "failed", "corrections", "blocked"),
    "run.reached": ("tick",),
    "run.escalated": ("reason", "message", "gaps", "gapFacts", "blocked"),
}


def essentials(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What must not depend on the engine; an unknown fact keeps its name, not the reason text."""
    out = []
    for e in events:
        kept = {k: e[k] for k in _KEEP.get(e["event"], ()) if k in e}
        if e["event"] == "facts.observed":
            kept["unknown"] = sorted(e.get("unknown") or {})
        out.append({"seq": e["seq"], "event": e["event"], **kept})
    return out


def world_files(root: Path) -> dict[str, str]:
    """What the run did to its world (spec excluded)."""
    return {p.name: p.read_text() for p in sorted(root.iterdir()) if p.is_file() and p.name != "spec.yaml"}


def run_standalone(scenario: Scenario, root: Path, home: Path) -> tuple[int, list[dict[str, Any]]]:
    """Build the code target and run runner.py --json on a fresh world; (exit code, events)."""
    spec = scenario.world(root / "world")
    agent = root / "agent"
    write_build(build(load_spec(spec), "code"), agent)
    args = [sys.executable, "-I", str(agent / "runner.py"), "--workdir", str(spec.parent), "--json"]
    proc = subprocess.run([*args, *(["--yes"] if scenario.yes else [])], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120,
                          env={**os.environ, "GOALKEEPER_HOME": str(home)})
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
