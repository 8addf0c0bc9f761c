"""One exit-code table for every command (docs/cli.md): outcomes are never merged with errors.

0 done, 1 error (bad input or spec), 2 usage, 3 escalated or unreachable, 4 not done yet.
Also: a spec fresh from ``goalkeeper new`` plans at once, and ``plan --observe`` plans from the world.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from goalkeeper.cli import _common

Run = Callable[..., subprocess.CompletedProcess[str]]
WriteSpec = Callable[..., Path]
REPO = Path(__file__).resolve().parents[2]

SPEC = """\
goalkeeper: 1
goal: {deployed: true}
facts:
  built: {type: bool, observe: {file: state/built}}
  deployed: {type: bool, observe: {file: state/deployed}}
actions:
  build: {effects: {built: true}, run: "mkdir -p state && touch state/built"}
  deploy: {pre: {built: true}, effects: {deployed: true}, run: "touch state/deployed"}
"""


def clean(r: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in r.stderr + r.stdout


def test_the_table_in_common_is_the_documented_one() -> None:
    codes = {n: getattr(_common, n) for n in ("EXIT_OK", "EXIT_ERROR", "EXIT_USAGE", "EXIT_ESCALATED",
                                              "EXIT_NOT_DONE")}
    assert codes == {"EXIT_OK": 0, "EXIT_ERROR": 1, "EXIT_USAGE": 2, "EXIT_ESCALATED": 3, "EXIT_NOT_DONE": 4}
    doc = (REPO / "docs" / "cli.md").read_text()
    for code in range(5):
        assert re.search(rf"^\| `?{code}`? \|", doc, re.M), f"docs/cli.md has no row for exit code {code}"


def test_observe_check_not_holding_is_4_and_a_broken_spec_is_1(run_cli: Run, write_spec: WriteSpec,
                                                                tmp_path: Path) -> None:
    spec = write_spec(SPEC)
    r = run_cli("observe", spec, "--check")
    clean(r)
    assert r.returncode == 4 and "goal does not hold" in r.stdout
    j = run_cli("observe", spec, "--check", "--json")
    assert j.returncode == 4 and json.loads(j.stdout)["goalHolds"] is False
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "deployed").write_text("")
    assert run_cli("observe", spec, "--check").returncode == 0
    broken = write_spec("goalkeeper: 1\ngoal: {deployd: true}\nfacts: {deployed: {type: bool}}\n", "broken.yaml")
    b = run_cli("observe", broken, "--check")
    clean(b)
    assert b.returncode == 1 and "broken.yaml" in b.stderr
    assert run_cli("observe", "--nope", spec).returncode == 2


def test_plan_observe_plans_from_the_world(run_cli: Run, write_spec: WriteSpec, tmp_path: Path) -> None:
    spec = write_spec(SPEC)
    no_initial = run_cli("plan", spec)
    clean(no_initial)
    assert no_initial.returncode == 1 and "built: missing" in no_initial.stderr
    r = run_cli("plan", spec, "--observe", "--json")
    clean(r)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["plan"] == ["build", "deploy"] and out["observed"]["built"]["value"] is False
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "built").write_text("")
    again = json.loads(run_cli("plan", spec, "--observe", "--json").stdout)
    assert again["plan"] == ["deploy"]
    both = run_cli("plan", spec, "--observe", "--state", str(tmp_path / "s.json"))
    assert both.returncode == 2 and "give one of them" in both.stderr


def test_a_spec_fresh_from_new_plans_at_once(run_cli: Run, tmp_path: Path) -> None:
    r = run_cli("new", "-o", "spec.yaml", "--goal", "deployed=true",
                "--action", "build: built=false -> built=true | touch built",
                "--action", "deploy: built=true -> deployed=true | touch deployed",
                "--initial", "deployed=false", "--no-input")
    assert r.returncode == 0, r.stderr
    assert "facts.built.initial: false" in r.stdout  # an inferred value is said, not hidden
    p = run_cli("plan", "spec.yaml", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["plan"] == ["build", "deploy"]
    bad = run_cli("new", "-o", "b.yaml", "--goal", "x=true", "--initial", "x>3", "--no-input")
    clean(bad)
    assert bad.returncode == 1 and "--initial" in bad.stderr and not (tmp_path / "b.yaml").exists()


def test_usage_errors_are_2_everywhere(run_cli: Run) -> None:
    for args in (("goal", "status"), ("goal", "logs"), ("goal", "edit"), ("goal", "prune"),
                 ("runs", "logs"), ("triage", "dismiss"), ("goal", "delete")):
        r = run_cli(*args)
        clean(r)
        assert r.returncode == 2, (args, r.stderr)
