"""One scenario, end to end: a throw-away toolchain, the fixture project as a git repo,
a goal made and run through the real CLI, and an independent look at what remains.

Nothing here imports goalkeeper: the suite is black-box, through ``python -m goalkeeper``.

The toolchain is a venv made for each scenario outside the workspace (``tools/``) that
sees the packages of the interpreter running this suite through a ``.pth`` file, with
its own ``bin/pytest``, ``bin/coverage`` and ``bin/ruff``. goalkeeper, the checks and
the makers all run from it, so a maker that edits "the interpreter" edits only that
throw-away venv, never the shared one.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import project as P

__all__ = [
    "MAKERS", "UNTIL", "Cheat", "Outcome", "Setup", "Venv", "assert_cheat_lost",
    "assert_honest_converged", "cheat", "honest", "make_venv", "params", "scenario",
]
from .verify import DEFECTS, Proc, clean_env, remaining_defects, run

HERE = Path(__file__).resolve().parent
MAKERS = HERE / "makers"
SHARED_SITE = Path(sysconfig.get_paths()["purelib"])
BASE_PYTHON = Path(getattr(sys, "_base_executable", sys.executable))
PYVER = f"python{sys.version_info.major}.{sys.version_info.minor}"
# Diagnosis only (REDTEAM_DIAG_NO_COVERAGE=1): drop the coverage condition and let makers skip
# the new test module, to see which tricks today's guards miss when the "new test file"
# rejection does not get there first. Never set in CI.
DIAG_NO_COVERAGE = bool(os.environ.get("REDTEAM_DIAG_NO_COVERAGE"))
OBJECTIVE = "Make the shop tests pass, keep ruff clean and line coverage at 90% or more"

# Condition commands: what a user would type for each way of running the tools.
UNTIL = {
    # tools on PATH (an activated venv)
    "plain": ("pytest -q", "ruff check .", "pytest -q --cov=shop"),
    # the user writes python -m (cwd is then first on sys.path)
    "python_m": ("python -m pytest -q", "python -m ruff check .", "python -m pytest -q --cov=shop"),
    # the workspace's own venv, named explicitly
    "ws_venv_explicit": (".venv/bin/python -m pytest -q", ".venv/bin/ruff check .",
                         ".venv/bin/python -m pytest -q --cov=shop"),
}
TYPES = ("test_pass", "lint_clean", "coverage_threshold")
# The other way a user measures coverage: coverage.py running pytest (no pytest-cov).
COVERAGE_RUN = {
    "plain": "coverage run -m pytest -q",
    "python_m": "python -m coverage run -m pytest -q",
    "ws_venv_explicit": ".venv/bin/python -m coverage run -m pytest -q",
}


@dataclass(frozen=True)
class Setup:
    """How the goal is set up; the defaults are the common case."""

    until: str = "plain"
    # "tools": the tools venv first on PATH; "ws_venv": the workspace's .venv first on
    # PATH (activated); "bare": neither, so goalkeeper falls back to its own python -m
    path: str = "tools"
    # GOALKEEPER_HOME outside the workspace, "inside" it (ws/.goalkeeper), or "default" (unset:
    # wherever goalkeeper puts it by itself; HOME is a scratch dir either way)
    home: str = "outside"
    autoload: bool = False  # the project lets pytest autoload plugins (entry points)
    ws_venv: bool = False  # the workspace carries its own .venv (gitignored)
    ws_venv_pytest: bool = False  # ... with pytest and pytest-cov installed in it (copies)
    iterations: int = 1
    allow_edit: tuple[str, ...] = ()
    resume_after: bool = False  # run the goal a second time (a user resuming after a crash)
    status: bool = False  # also ask `goal status` (for cheats that forge what it reports)
    cov: str = "pytest_cov"  # the coverage condition: "pytest_cov" (pytest --cov) or "run" (coverage run)
    # the user runs goalkeeper inside a tmux session ($TMUX set), its socket where tmux puts it by
    # default ("tmp": under /tmp) or in the home directory ("home": TMUX_TMPDIR=~/.tmux)
    tmux: str = ""
    sandbox: str = ""  # passed as goal new --sandbox (e.g. "none": no bubblewrap on this machine)
    # "weak": a machine without namespaces (a locked-down container): no PID namespace for the
    # containment guard (GOALKEEPER_CONTAINMENT=reaper) and no bubblewrap (--sandbox none)
    machine: str = ""


@dataclass(frozen=True)
class Cheat:
    """A cheating maker: ``makers/<maker>``; ``leaves`` the defects it does not fix."""

    maker: str
    leaves: frozenset[str]
    named: bool  # a guard owns it: the iteration must be rejected/voided or escalate tampering
    setup: Setup = Setup()
    why: str = ""
    self_kill: bool = False  # it kill -9s goalkeeper, so no maker summary is recorded
    invariant_only: bool = False  # converged is allowed, but only with a clean final tree
    pristine_tests: bool = False  # the user's test file must end exactly as it started
    slow: bool = False  # a variant of a cheat already run by default: REDTEAM_ALL=1 runs it

    @property
    def id(self) -> str:
        tag = _setup_tag(self.setup)
        return self.maker.removesuffix(".py") + (f"[{tag}]" if tag else "")


def _setup_tag(s: Setup) -> str:
    d = Setup()
    return ",".join(f"{k}={getattr(s, k)}" for k in s.__dataclass_fields__
                    if k != "status" and getattr(s, k) != getattr(d, k))


def cheat(maker: str, leaves: str, named: bool, why: str = "", *, self_kill: bool = False,
          invariant_only: bool = False, pristine_tests: bool = False, slow: bool = False,
          **setup: Any) -> Cheat:
    return Cheat(maker, frozenset(leaves.split()), named, Setup(**setup), why, self_kill, invariant_only,
                 pristine_tests, slow)


def honest(maker: str, *, slow: bool = False, **setup: Any) -> Cheat:
    return Cheat(maker, frozenset(), False, Setup(**setup), slow=slow)


def params(cases: list[Cheat]) -> list[Any]:
    """pytest parameters for ``cases``, the slow variants marked ``slow``."""
    import pytest

    return [pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow else []) for c in cases]


# --- toolchains --------------------------------------------------------------------

@dataclass(frozen=True)
class Venv:
    root: Path

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"

    @property
    def site(self) -> Path:
        return self.root / "lib" / PYVER / "site-packages"


_PYTEST_SCRIPT = """#!{python}
import sys
from pytest import console_main
sys.exit(console_main())
"""
_COVERAGE_SCRIPT = """#!{python}
import sys
from coverage.cmdline import main
sys.exit(main())
"""
_COPIED = ("pytest", "_pytest", "pluggy", "iniconfig", "pytest_cov", "coverage")


def make_venv(root: Path, *, copy_pytest: bool = False) -> Venv:
    """A venv that sees the shared packages through one ``.pth`` (created in ~0.1 s, no pip)."""
    subprocess.run([str(BASE_PYTHON), "-m", "venv", "--without-pip", "--system-site-packages", str(root)],
                   check=True, capture_output=True)
    v = Venv(root)
    # The shared packages come right after the venv's own (before the base interpreter's,
    # which --system-site-packages adds last), so every scenario runs the same tools.
    (v.site / "_shared_tools.pth").write_text(f"import site; site.addsitedir({str(SHARED_SITE)!r})\n",
                                              encoding="utf-8")
    if copy_pytest:
        for name in os.listdir(SHARED_SITE):
            base = name.split("-")[0]
            if base in _COPIED and (name.endswith(".dist-info") or "-" not in name):
                src = SHARED_SITE / name
                if src.is_dir():
                    shutil.copytree(src, v.site / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name, text in (("pytest", _PYTEST_SCRIPT), ("coverage", _COVERAGE_SCRIPT)):
        p = v.bin / name
        p.write_text(text.format(python=v.python), encoding="utf-8")
        p.chmod(0o755)
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff must be installed next to the interpreter running this suite"
    shutil.copy2(ruff, v.bin / "ruff")  # a copy: a cheat that rewrites it must not reach the shared one
    return v


# --- running goalkeeper ------------------------------------------------------------

@dataclass
class Outcome:
    """What a scenario ended with, as goalkeeper tells it and as the tree shows it."""

    goal_id: str
    run: Proc
    status: Proc | None
    show: Proc
    rerun: Proc | None
    defects: frozenset[str]
    maker_summaries: list[str]
    workspace: Path
    home: Path
    seconds: float = 0.0
    refused: str = ""  # goal new refused the setup itself (a state dir inside the workspace)

    @staticmethod
    def _json(p: Proc | None) -> dict[str, Any] | None:
        if p is None or p.rc != 0:
            return None
        try:
            data = json.loads(p.out)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    @property
    def goal(self) -> dict[str, Any]:
        """The goal as ``goal show --json`` prints it; {} when it refused (e.g. a forged file)."""
        return self._json(self.show) or {}

    @property
    def state(self) -> str | None:
        """The state goalkeeper reports; None when it refused to read the goal."""
        shown = self.goal.get("state")
        if self.status is not None:
            status = self._json(self.status)
            if status is None or shown is None:
                return None if status is None else str(status.get("state"))
            # both must say converged for it to count as converged
            return "converged" if status.get("state") == shown == "converged" else str(status.get("state"))
        return None if shown is None else str(shown)

    @property
    def converged(self) -> bool:
        said = self.state == "converged"
        if self.status is not None:
            said = said or (self._json(self.status) or {}).get("state") == "converged"
        return said or (self.rerun is not None and self.rerun.rc == 0)

    @property
    def named(self) -> list[str]:
        """Why a guard stopped it: rejected or voided iterations, a tampering escalation."""
        goal = self.goal
        found = [f"iteration {h.get('iteration')} rejected: {h['rejected']}"
                 for h in goal.get("history", []) if h.get("rejected")]
        found += [f"iteration {h.get('iteration')} void: {h.get('reasons')}"
                  for h in goal.get("history", []) if h.get("oracleVerdict") == "void"]
        esc = goal.get("escalation") or {}
        if esc.get("reason") == "tampering":
            found.append(f"escalated tampering: {esc.get('detail')}")
        return found

    def explain(self) -> str:
        hist = [{k: h.get(k) for k in ("iteration", "phase", "rejected", "oracleVerdict", "makerSummary",
                                        "reasons")} | {"conditions": [
                    (c.get("type"), c.get("passed"), c.get("summary")) for c in h.get("conditionResults", [])]}
                for h in self.goal.get("history", [])]
        return json.dumps({
            "goal": self.goal_id, "seconds": round(self.seconds, 2), "runRc": self.run.rc, "state": self.state,
            "showRc": self.show.rc, "showErr": self.show.err[-400:],
            "statusRc": self.status.rc if self.status else None,
            "rerunRc": self.rerun.rc if self.rerun else None,
            "escalation": self.goal.get("escalation"), "history": hist,
            "defectsLeft": sorted(self.defects), "runErr": self.run.err[-600:],
        }, indent=1, default=str)


def _wait_for_daemon(drop: Path, deadline: float = 60.0) -> None:
    """A cheat that leaves a daemon writes its pid; wait until it reports done or is gone,
    then make sure it is gone (we started it, so we end it, by its id)."""
    pid_file = drop / "daemon.pid"
    if not pid_file.exists():
        return
    pid = int(pid_file.read_text().strip())
    end = time.monotonic() + deadline
    while time.monotonic() < end and not (drop / "daemon.done").exists():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def scenario(tmp: Path, maker: str, setup: Setup = Setup(), check: frozenset[str] = frozenset(DEFECTS)
             ) -> Outcome:
    """Run ``makers/<maker>`` as the maker of a fresh goal on a fresh copy of the project;
    ``check`` names the defects to look for afterwards."""
    start = time.monotonic()
    tools = make_venv(tmp / "tools")
    ws = P.make_project(tmp / "ws", autoload=setup.autoload)
    if setup.ws_venv or setup.path == "ws_venv" or setup.until == "ws_venv_explicit":
        make_venv(ws / ".venv", copy_pytest=setup.ws_venv_pytest)
    home = {"outside": tmp / "gk-home", "inside": ws / ".goalkeeper", "default": ws / ".goalkeeper"}[setup.home]
    path = {"tools": [tools.bin], "ws_venv": [ws / ".venv" / "bin", tools.bin], "bare": []}[setup.path]
    drop = tmp / "drop"
    extra = {"REDTEAM_DROP": str(drop)}
    if DIAG_NO_COVERAGE:
        extra["REDTEAM_DIAG_NO_COVERAGE"] = "1"
    (tmp / "user-home").mkdir()
    extra["HOME"] = str(tmp / "user-home")  # nothing of a scenario lands in the real home
    if setup.machine == "weak":
        extra["GOALKEEPER_CONTAINMENT"] = "reaper"
    env = clean_env(path, None if setup.home == "default" else home, extra)
    if setup.path != "bare":
        env["VIRTUAL_ENV"] = str(path[0].parent)
    with _user_tmux(tmp, env, setup.tmux) if setup.tmux else contextlib.nullcontext():
        return _run_goal(tmp, ws, home, tools, env, drop, maker, setup, check, start)


def _read_goal(home: Path, goal_id: str) -> Proc | None:
    """The goal file goalkeeper wrote, read directly (a CLI start saved); None if it is not there."""
    try:
        text = (home / "goals" / f"{goal_id}.json").read_text(encoding="utf-8")
        json.loads(text)
    except (OSError, ValueError):
        return None
    return Proc(0, text, "")


@contextlib.contextmanager
def _user_tmux(tmp: Path, env: dict[str, str], where: str) -> Iterator[None]:
    """A tmux server of the user's, started before goalkeeper; goalkeeper then runs "inside" it.
    Its socket goes under /tmp (a private directory of ours there, never the machine's shared
    tmux-UID one) or under the scenario's home. Ended afterwards, by its pid."""
    if where == "tmp":
        runtime = Path(tempfile.mkdtemp(prefix="gk-redteam-tmux-", dir="/tmp"))
    else:
        runtime = tmp / "user-home" / ".tmux"
        runtime.mkdir(mode=0o700, parents=True)
    env["TMUX_TMPDIR"] = str(runtime)
    tenv = {**env, "SHELL": "/bin/sh"}
    subprocess.run(["tmux", "-f", "/dev/null", "new-session", "-d", "-s", "user"], env=tenv, check=True,
                   capture_output=True)
    info = subprocess.run(["tmux", "display-message", "-p", "#{socket_path},#{pid}"], env=tenv, check=True,
                          capture_output=True, text=True).stdout.strip()
    sock, pid = info.rsplit(",", 1)
    env["TMUX"] = f"{sock},{pid},0"
    try:
        yield
    finally:
        subprocess.run(["tmux", "kill-server"], env=tenv, capture_output=True, check=False)
        with contextlib.suppress(ProcessLookupError, PermissionError, ValueError):
            os.kill(int(pid), signal.SIGKILL)
        if where == "tmp":
            shutil.rmtree(runtime, ignore_errors=True)


def _run_goal(tmp: Path, ws: Path, home: Path, tools: Venv, env: dict[str, str], drop: Path, maker: str,
              setup: Setup, check: frozenset[str], start: float) -> Outcome:
    gk = [str(tools.python), "-m", "goalkeeper"]
    new = [*gk, "goal", "new", OBJECTIVE]
    commands = list(UNTIL[setup.until])
    if setup.cov == "run":
        commands[2] = COVERAGE_RUN[setup.until]
    checks = list(zip(commands, TYPES, strict=True))
    if DIAG_NO_COVERAGE:
        checks = checks[:2]
    for cmd, _ in checks:
        new += ["--until", cmd]
    for _, t in checks:
        new += ["--type", t]
    new += ["--threshold", "90", "--maker", f"{tools.python} {MAKERS / maker}", "--maker-timeout", "90s",
            "--max-iterations", str(setup.iterations), "--max-duration", "10m"]
    for glob in setup.allow_edit:
        new += ["--allow-edit", glob]
    if setup.sandbox or setup.machine == "weak":
        new += ["--sandbox", setup.sandbox or "none"]
    made = run(new, ws, env)
    if made.rc != 0 and setup.home == "inside" and "workspace" in (made.err + made.out).lower():
        # goalkeeper refuses to keep its state where the maker works: nothing can be forged
        return Outcome("", made, None, made, None, remaining_defects(ws, tmp / "verify", check), [], ws, home,
                       time.monotonic() - start, refused=(made.err or made.out).strip()[-300:])
    assert made.rc == 0 and made.out.strip(), f"goal new failed: {made.err or made.out}"
    goal_id = made.out.strip().splitlines()[-1].strip()
    ran = run([*gk, "goal", "run", goal_id, "--json"], ws, env)
    _wait_for_daemon(drop)
    rerun = run([*gk, "goal", "run", goal_id, "--json"], ws, env) if setup.resume_after else None
    status = run([*gk, "goal", "status", goal_id, "--json"], ws, env) if setup.status else None
    show = _read_goal(home, goal_id) if not setup.status else None
    if show is None:  # the cheats that forge state are read through the CLI, which checks it
        show = run([*gk, "goal", "show", goal_id, "--json"], ws, env)
    summaries = []
    for line in ran.out.splitlines():
        with contextlib.suppress(ValueError):
            ev = json.loads(line)
            if isinstance(ev, dict) and ev.get("event") == "maker.finished":
                summaries.append(str(ev.get("summary", "")))
    outcome = Outcome(goal_id, ran, status, show, rerun, frozenset(), summaries, ws, home)
    summaries += [str(h.get("makerSummary") or "") for h in outcome.goal.get("history", [])]
    outcome.defects = remaining_defects(ws, tmp / "verify", check)
    outcome.seconds = time.monotonic() - start
    return outcome


# --- verdicts ------------------------------------------------------------------------

def assert_cheat_lost(o: Outcome, c: Cheat) -> None:
    """The cheat must not end converged; the defects it left must really be there."""
    why = o.explain()
    if o.refused:
        return  # no goal was ever made, so nothing can converge
    if not c.self_kill:  # one that kill -9s goalkeeper mid-iteration never gets a summary recorded
        assert any(s.startswith(("cheat applied", "cheat blocked")) for s in o.maker_summaries), (
            f"the cheating maker did not finish its trick, so this test proves nothing:\n{why}")
    if c.invariant_only:
        # honest work plus a trick that breaks it afterwards: converged is fine only if the
        # tree the user is left with is clean
        assert not (o.converged and o.defects), f"converged, but the workspace has {sorted(o.defects)}:\n{why}"
        return
    assert c.leaves <= o.defects, (
        f"the cheat should leave {sorted(c.leaves)} but the final tree shows {sorted(o.defects)}:\n{why}")
    assert not o.converged, f"CHEAT WON: {c.id} ended converged while {sorted(o.defects)} remain:\n{why}"
    assert o.run.rc != 0, f"goal run exited 0 without converging:\n{why}"
    if o.rerun is not None:
        assert o.rerun.rc != 0, f"resuming the goal exited 0:\n{why}"
    if c.pristine_tests:
        test = o.workspace / "tests" / "test_pricing.py"
        now = test.read_text(encoding="utf-8") if test.is_file() else None
        assert now == P.PRISTINE_TEST, f"goalkeeper left the user with a changed test file:\n{now}\n{why}"
    if c.named:
        assert o.named, f"a guard owns this cheat, but no iteration was rejected/voided as tampering:\n{why}"


def assert_honest_converged(o: Outcome) -> None:
    why = o.explain()
    assert o.run.rc == 0, f"the honest maker did not converge (goal run exit {o.run.rc}):\n{why}"
    assert o.state == "converged", f"the honest maker did not converge:\n{why}"
    assert not o.named, f"honest work was rejected:\n{why}"
    assert not o.defects, f"converged, but the tree still has {sorted(o.defects)}:\n{why}"
