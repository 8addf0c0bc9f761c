"""Stopping-condition checkers: one registry, one function per condition type.

We run every condition ourselves after each iteration and read its output, so
a maker cannot claim success: exit codes count, and so do test summaries
(``612 passed, 1 error`` is not clean) and coverage percentages.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..proc import ProcResult, Runner, policy, run_argv, split_command
from .checkbox import Box, Step, lock, new_step, step_policy, unexpected
from .goal import ConditionResult, StoppingCondition, parse_duration
from .scan import runtime_findings
from .sealed import (
    Outcomes,
    collect,
    coverage_report,
    helper_bytes,
    install_helpers,
    prepare,
    read_probe,
    sealed_env,
    tests_verdict,
    unmeasured,
)
from .toolchain import Resolved, resolve_command

__all__ = [
    "CHECKERS",
    "Evidence",
    "Judgement",
    "TestSummary",
    "check_condition",
    "parse_coverage",
    "parse_test_summary",
    "register_checker",
    "run_condition",
    "run_sealed",
]


@dataclass(frozen=True, slots=True)
class Judgement:
    passed: bool
    summary: str
    observed: float | None = None


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a sealed run adds to the exit code and output: structured reports and the baseline."""

    sealed: bool = False
    tool: str | None = None
    outcomes: Outcomes | None = None
    expects_outcomes: bool = False
    baseline: Outcomes | None = None
    ruff: list[str] | None = None
    expects_ruff: bool = False
    coverage: float | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


Checker = Callable[[StoppingCondition, ProcResult, Evidence], Judgement]
CHECKERS: dict[str, Checker] = {}


def register_checker(name: str) -> Callable[[Checker], Checker]:
    def deco(fn: Checker) -> Checker:
        CHECKERS[name] = fn
        return fn

    return deco


# --- parsers -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TestSummary:
    framework: str
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0

    @property
    def clean(self) -> bool:
        return self.failed == 0 and self.errors == 0 and self.passed > 0

    def text(self) -> str:
        parts = [f"{self.passed} passed"]
        parts += [f"{n} {w}" for n, w in ((self.failed, "failed"), (self.errors, "error(s)"),
                                          (self.skipped, "skipped")) if n]
        return f"{self.framework}: " + ", ".join(parts)


_PYTEST_COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)\b")
_PYTEST_LINE = re.compile(r"(?:\d+ \w+.*|no tests ran) in \d+(?:\.\d+)?s")
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in", re.M)
_UNITTEST_END = re.compile(r"^(OK|FAILED)(?: \((.*)\))?\s*$", re.M)


def parse_test_summary(output: str) -> TestSummary | None:
    """The last pytest or unittest summary in ``output``, or None if there is none."""
    for line in reversed(output.splitlines()):
        if _PYTEST_LINE.search(line) and (_PYTEST_COUNT.search(line) or "no tests ran" in line):
            counts: dict[str, int] = {}
            for n, word in _PYTEST_COUNT.findall(line):
                key = "errors" if word.startswith("error") else word
                counts[key] = counts.get(key, 0) + int(n)
            return TestSummary(
                "pytest", counts.get("passed", 0), counts.get("failed", 0),
                counts.get("errors", 0), counts.get("skipped", 0),
            )
    ran = _UNITTEST_RAN.findall(output)
    ends = _UNITTEST_END.findall(output)
    if ran and ends:
        status, detail = ends[-1]
        kv = dict(re.findall(r"(\w+)=(\d+)", detail or ""))
        failed, errors = int(kv.get("failures", 0)), int(kv.get("errors", 0))
        skipped = int(kv.get("skipped", 0))
        total = int(ran[-1])
        if status == "FAILED" and not (failed or errors):
            errors = 1  # e.g. "FAILED (unexpected successes=1)"
        return TestSummary("unittest", max(0, total - failed - errors - skipped), failed, errors, skipped)
    return None


_TOTAL_LINE = re.compile(r"^TOTAL\s.*?(\d+(?:\.\d+)?)%\s*$", re.M)
_TOTAL_COVERAGE = re.compile(r"Total coverage: (\d+(?:\.\d+)?)%")


def parse_coverage(output: str) -> float | None:
    """Percent covered from coverage.py JSON (``totals.percent_covered``) or the TOTAL line."""
    text = output.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
            return float(data["totals"]["percent_covered"])
        except (ValueError, KeyError, TypeError):
            pass
    found = _TOTAL_LINE.findall(output) or _TOTAL_COVERAGE.findall(output)
    return float(found[-1]) if found else None


def _last_line(output: str) -> str:
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    return lines[-1][:200] if lines else ""


def _exit_text(res: ProcResult) -> str:
    return "timed out" if res.timed_out else f"exit {res.exit_code}"


# --- checkers ------------------------------------------------------------------

@register_checker("test_pass")
def _test_pass(cond: StoppingCondition, res: ProcResult, ev: Evidence) -> Judgement:
    if ev.expects_outcomes:
        if ev.outcomes is None:
            return Judgement(False, f"{_exit_text(res)}; no test report: the test process ended before pytest "
                                    "finished (or the probe was disabled), so the run proves nothing")
        ok, why = tests_verdict(ev.outcomes, ev.baseline)
        if ok and res.exit_code != 0:
            return Judgement(False, f"{_exit_text(res)} although the report says {why}")
        return Judgement(ok, why)
    summary = parse_test_summary(res.output)
    if res.exit_code != 0:
        return Judgement(False, f"{_exit_text(res)}; " + (summary.text() if summary else _last_line(res.output)))
    if summary is None:
        return Judgement(True, "exit 0 (no pytest/unittest summary recognised)")
    if not summary.clean:
        why = "no test passed" if summary.passed == 0 else "failures or errors reported"
        return Judgement(False, f"exit 0 but {why}: {summary.text()}")
    return Judgement(True, summary.text())


_FOUND_ERRORS = re.compile(r"Found (\d+) (?:errors?|problems?|issues?)")


@register_checker("lint_clean")
def _lint_clean(cond: StoppingCondition, res: ProcResult, ev: Evidence) -> Judgement:
    if ev.expects_ruff:
        if ev.ruff is None:
            return Judgement(False, f"{_exit_text(res)}; ruff gave no JSON report")
        if ev.ruff:
            more = " ..." if len(ev.ruff) > 8 else ""
            return Judgement(False, f"ruff: {len(ev.ruff)} finding(s): {', '.join(ev.ruff[:8])}{more}")
        if res.exit_code != 0:
            return Judgement(False, f"{_exit_text(res)}; {_last_line(res.output)}")
        return Judgement(True, "ruff: no findings")
    found = [int(n) for n in _FOUND_ERRORS.findall(res.output)]
    if res.exit_code != 0:
        m = list(_FOUND_ERRORS.finditer(res.output))
        return Judgement(False, f"{_exit_text(res)}; {m[-1].group(0) if m else _last_line(res.output)}")
    if found and found[-1] > 0:
        return Judgement(False, f"exit 0 but {_last_line(res.output)}")
    return Judgement(True, _last_line(res.output) or "clean")


@register_checker("coverage_threshold")
def _coverage(cond: StoppingCondition, res: ProcResult, ev: Evidence) -> Judgement:
    pct = ev.coverage if ev.tool in ("coverage", "pytest") and ev.sealed else parse_coverage(res.output)
    threshold = cond.threshold if cond.threshold is not None else 100.0
    if pct is None:
        return Judgement(False, f"{_exit_text(res)}; no coverage percentage found in the output")
    missing = list(ev.extra.get("unmeasured") or ())
    if missing:
        return Judgement(False, f"coverage {pct:.2f}% leaves out new source files in measured folders: "
                                f"{', '.join(missing[:5])} (add the folder's __init__.py, or import and test "
                                "them)", pct)
    ok = res.exit_code == 0 and pct >= threshold
    return Judgement(ok, f"coverage {pct:.2f}% vs threshold {threshold:g}% ({_exit_text(res)})", pct)


def _exit_only(cond: StoppingCondition, res: ProcResult, ev: Evidence) -> Judgement:
    return Judgement(res.exit_code == 0, f"{_exit_text(res)}; {_last_line(res.output)}".rstrip("; "))


register_checker("build_pass")(_exit_only)
register_checker("custom_command")(_exit_only)


# --- running -------------------------------------------------------------------

_NOISE = re.compile(r"\d+(?:\.\d+)?\s?(?:s|ms|sec|seconds)\b|0x[0-9a-f]+|\d{4}-\d\d-\d\dT[\d:.]+")


def _signature(res: ProcResult) -> str:
    """Hash of the output minus timings and addresses: equal signatures mean the same failure."""
    norm = _NOISE.sub("#", res.output)
    return hashlib.sha256(f"{res.exit_code}|{res.timed_out}|{norm}".encode()).hexdigest()[:16]


def check_condition(cond: StoppingCondition, res: ProcResult, ev: Evidence | None = None) -> ConditionResult:
    ev = ev or Evidence()
    checker = CHECKERS.get(cond.type)
    if res.spawn_error:
        judgement = Judgement(False, res.spawn_error)
    elif checker is None:
        known = ", ".join(sorted(CHECKERS))
        judgement = Judgement(False, f"unknown condition type {cond.type!r}; known: {known}")
    else:
        judgement = checker(cond, res, ev)
    tail = res.output[-2000:]
    counts: dict[str, int] = dict(ev.outcomes.counts) if ev.outcomes else {}
    if ev.outcomes and ev.outcomes.deselected:
        counts["deselected"] = ev.outcomes.deselected
    if ev.ruff is not None:
        counts["findings"] = len(ev.ruff)
    failures = [{"test": nid, **info} for nid, info in list((ev.outcomes.failures if ev.outcomes else {}).items())[:20]]
    return ConditionResult(
        type=cond.type,
        command=" ".join(split_command(cond.command)),
        passed=judgement.passed,
        exit_code=res.exit_code,
        summary=judgement.summary,
        observed=judgement.observed,
        signature="" if judgement.passed else _signature(res),
        output_tail=tail,
        duration_seconds=round(res.duration, 3),
        sealed=ev.sealed,
        counts=counts,
        spawn_error=res.spawn_error,
        failures=failures,
    )


def run_condition(
    cond: StoppingCondition, workspace: str | Path, runner: Runner = run_argv
) -> ConditionResult:
    """Run one condition in ``workspace`` and judge its output (unsealed: exit code and summary)."""
    res = runner(split_command(cond.command), cwd=workspace, timeout=parse_duration(cond.timeout))
    return check_condition(cond, res)


@dataclass(frozen=True, slots=True)
class _Steps:
    """Makes the folders of each step and runs it in the goal's box (see :mod:`.checkbox`)."""

    root: Path
    box: Box
    workspace: Path
    runner: Runner
    owner: str | None
    base_env: Mapping[str, str]
    extra_env: Mapping[str, str] | None
    tampered: list[str] = field(default_factory=list)
    inputs: dict[Path, dict[str, bytes]] = field(default_factory=dict)
    expected: dict[Path, dict[str, bytes]] = field(default_factory=dict)
    after_step: Callable[[], list[str]] | None = None

    def new(self, label: str) -> tuple[Step, dict[str, str]]:
        """A step's fresh folders and its sealed environment (its caches and reports in its scratch)."""
        step = new_step(self.root, label)
        return step, sealed_env(self.base_env, step.out, self.extra_env)

    def paths_file(self, step: Step, name: str, rels: Sequence[str]) -> str:
        """An input for the probe beside the helpers (read-only to the check, like them)."""
        data = json.dumps([str(self.workspace / r) for r in rels]).encode()
        (step.helpers / name).write_bytes(data)
        self.inputs.setdefault(step.helpers, {})[name] = data
        return str(step.helpers / name)

    def run(self, step: Step, argv: Sequence[str], env: Mapping[str, str], *, timeout: float | None,
            side_channel: str | None = None, writable: Sequence[Path] = (), readonly: Sequence[Path] = ()
            ) -> ProcResult:
        lock(step.helpers)
        self.inspect(step)  # nothing but what goalkeeper wrote, byte for byte, before it runs
        pol = step_policy(self.box, step, self.workspace, env, owner=self.owner, programs=argv,
                          writable=writable, readonly=readonly)
        with policy(pol) if pol is not None else contextlib.nullcontext():
            res = self.runner(list(argv), cwd=self.workspace, env=dict(env), inherit_env=False, timeout=timeout,
                              resolve=False, strict=True, owner=self.owner, side_channel=side_channel)
        self.inspect(step)
        if self.after_step is not None:
            # A later step's tool reads its config when it starts: what one step leaves for the next
            # (and removes again before the last walk) is seen here, between the two.
            self.tampered.extend(self.after_step())
        return res

    def inspect(self, step: Step) -> None:
        """A step's helper folder must hold exactly what goalkeeper put there: the helpers (if the
        command runs through the bootstrap) and the probe's inputs, byte for byte."""
        want = self.expected.get(step.helpers)
        if want is None:  # fixed when the step starts, from goalkeeper's own copies, not the folder
            want = dict(self.inputs.get(step.helpers, {}))
            if (step.helpers / "bootstrap.py").exists():
                want.update(helper_bytes())
            self.expected[step.helpers] = want
        bad = unexpected(step.helpers, want)
        if bad:
            self.tampered.append(f"goalkeeper's private check folder was written: {', '.join(bad[:5])}")


def _run_new_tests(steps: _Steps, resolved: Resolved, cond: StoppingCondition, old_tests: Sequence[str],
                   first: ProcResult, outcomes: Outcomes) -> tuple[ProcResult, Outcomes | None]:
    """The new test files in a session of their own; their outcomes join the baseline run's."""
    step, env_b = steps.new("new")
    cmd = prepare(resolved, step.helpers, step.out)
    env_b["GOALKEEPER_PROBE_IGNORE"] = steps.paths_file(step, "ignore-old.json", old_tests)
    res_b = steps.run(step, cmd.argv, env_b, timeout=parse_duration(cond.timeout), side_channel=cmd.side_channel)
    new = read_probe(step.out / "probe.json", res_b.side)
    if new is None:
        missing = Outcomes({**outcomes.by_id, "(new test files)": "not run"}, outcomes.deselected,
                           outcomes.collect_errors, outcomes.tampered, outcomes.exitstatus, outcomes.counts)
        return first, missing
    by_id = {**new.by_id, **outcomes.by_id}
    counts: dict[str, int] = {}
    for v in by_id.values():
        counts[v] = counts.get(v, 0) + 1
    merged = Outcomes(by_id, outcomes.deselected + new.deselected, outcomes.collect_errors + new.collect_errors,
                      tuple(sorted(set(outcomes.tampered) | set(new.tampered))), outcomes.exitstatus, counts,
                      {**new.failures, **outcomes.failures}, tuple(dict.fromkeys((*outcomes.reads, *new.reads))),
                      (*outcomes.dynamic, *new.dynamic))
    # exit 5 (no tests collected) in the second session just means the new files hold no tests
    worst = first if first.exit_code not in (0, None) or res_b.exit_code in (0, 5) else res_b
    return worst, merged


def _coverage_step(steps: _Steps, python: str, check: Step, env: Mapping[str, str]
                   ) -> tuple[float | None, frozenset[str]]:
    """goalkeeper's own ``coverage json`` on the check's data: a fresh step, boxed like the check."""
    step, _ = steps.new("cov")
    boot = install_helpers(step.helpers)

    def run(argv: list[str], **kw: Any) -> ProcResult:
        # the check's data names its helpers too (coverage measured the probe): shown, read-only
        return steps.run(step, argv, kw["env"], timeout=kw.get("timeout"), writable=(check.out,),
                         readonly=(check.helpers,))

    return coverage_report(python, steps.workspace, env, boot, step.out, run)


@dataclass(frozen=True, slots=True)
class SealedRun:
    results: list[ConditionResult]
    outcomes: list[dict[str, Any] | None]
    tampered: list[str]
    outputs: list[str] = field(default_factory=list)


def run_sealed(
    conditions: Sequence[StoppingCondition],
    workspace: Path,
    *,
    baselines: Sequence[Mapping[str, Any] | None] = (),
    extra_env: Mapping[str, str] | None = None,
    runner: Runner = run_argv,
    owner: str | None = None,
    base_env: Mapping[str, str] | None = None,
    new_tests: Sequence[str] = (),
    old_tests: Sequence[str] = (),
    new_sources: Sequence[str] = (),
    env_dirs: Sequence[str] | None = None,
    box: Box | None = None,
    after_step: Callable[[], list[str]] | None = None,
) -> SealedRun:
    """Run every condition sealed (see :mod:`.sealed`) and judge it against its baseline run.

    ``tampered`` lists runner functions the code under test replaced while the
    tests ran: evidence of tampering, not just a failing check. With
    ``new_tests`` (test files added since the baseline), a test condition runs
    twice: the baseline tests without the new files (so a new test module
    cannot patch the code for the old ones), then the new files alone. A coverage condition fails
    while one of ``new_sources`` (non-test source files added since the baseline) sits below a folder
    the report measures but is itself missing from it. ``env_dirs`` limits the project
    environments a command may resolve to (see :func:`.toolchain.resolve_command`). ``box`` says how
    each step is contained (:mod:`.checkbox`); every step gets folders of its own. ``after_step``
    runs after each step and returns what it finds wrong (tampering), e.g. config files written.
    """
    results: list[ConditionResult] = []
    outs: list[dict[str, Any] | None] = []
    tampered: list[str] = []
    texts: list[str] = []
    with tempfile.TemporaryDirectory(prefix="goalkeeper-check-") as tmp:
        root = Path(tmp)
        os.chmod(root, 0o700)
        steps = _Steps(root, box or Box(), workspace, runner, owner,
                       dict(base_env if base_env is not None else os.environ), extra_env, tampered,
                       after_step=after_step)
        for i, cond in enumerate(conditions):
            step, env_i = steps.new(f"c{i}")
            resolved = resolve_command(split_command(cond.command), workspace, env_i, sys.executable, env_dirs)
            if resolved.problem:
                res = ProcResult(tuple(split_command(cond.command)), 127, "", resolved.problem,
                                 spawn_error=resolved.problem)
                results.append(check_condition(cond, res))
                outs.append(None)
                texts.append(res.output)
                continue
            cmd = prepare(resolved, step.helpers, step.out)
            split = bool(new_tests) and cmd.probe is not None and cond.type == "test_pass"
            if split:
                env_i["GOALKEEPER_PROBE_IGNORE"] = steps.paths_file(step, "ignore-new.json", new_tests)
            res = steps.run(step, cmd.argv, env_i, timeout=parse_duration(cond.timeout),
                            side_channel=cmd.side_channel)
            got = collect(cmd, res)
            outcomes = Outcomes.load(got["outcomes"]) if got.get("outcomes") else None
            if split and outcomes is not None:
                res, outcomes = _run_new_tests(steps, resolved, cond, old_tests, res, outcomes)
                got["outcomes"] = outcomes.dump() if outcomes else None
            prior = baselines[i] if i < len(baselines) else None
            base_out = Outcomes.load(prior["outcomes"]) if prior and prior.get("outcomes") else None
            cov, extra = None, {}
            if cond.type == "coverage_threshold" and cmd.coverage_python:
                cov, measured = _coverage_step(steps, cmd.coverage_python, step, env_i)
                if cov is not None:
                    extra = {"unmeasured": unmeasured(new_sources, measured, workspace)}
            if outcomes and outcomes.tampered:
                tampered.extend(outcomes.tampered)
            for where, text in outcomes.dynamic if outcomes else ():
                tampered.extend(f"{where}: code under test ran text built at run time: {f.detail}"
                                for f in runtime_findings(where, text)[:1])
            ev = Evidence(sealed=cmd.sealed, tool=cmd.tool, outcomes=outcomes, expects_outcomes=cmd.probe is not None
                          and cond.type == "test_pass", baseline=base_out, ruff=got.get("ruff"),
                          expects_ruff=cmd.ruff_json, coverage=cov, extra=extra)
            results.append(check_condition(cond, res, ev))
            outs.append(got)
            texts.append(res.output[-64_000:])
    return SealedRun(results, outs, sorted(set(tampered)), texts)
