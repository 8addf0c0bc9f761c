"""Stopping-condition checkers: one registry, one function per condition type.

We run every condition ourselves after each iteration and read its output, so
a maker cannot claim success: exit codes count, and so do test summaries
(``612 passed, 1 error`` is not clean) and coverage percentages.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..adapters._proc import ProcResult, Runner, run_argv, split_command
from .goal import ConditionResult, StoppingCondition, parse_duration

__all__ = [
    "CHECKERS",
    "Judgement",
    "TestSummary",
    "check_condition",
    "parse_coverage",
    "parse_test_summary",
    "register_checker",
    "run_condition",
]


@dataclass(frozen=True, slots=True)
class Judgement:
    passed: bool
    summary: str
    observed: float | None = None


Checker = Callable[[StoppingCondition, ProcResult], Judgement]
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
def _test_pass(cond: StoppingCondition, res: ProcResult) -> Judgement:
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
def _lint_clean(cond: StoppingCondition, res: ProcResult) -> Judgement:
    found = [int(n) for n in _FOUND_ERRORS.findall(res.output)]
    if res.exit_code != 0:
        m = list(_FOUND_ERRORS.finditer(res.output))
        return Judgement(False, f"{_exit_text(res)}; {m[-1].group(0) if m else _last_line(res.output)}")
    if found and found[-1] > 0:
        return Judgement(False, f"exit 0 but {_last_line(res.output)}")
    return Judgement(True, _last_line(res.output) or "clean")


@register_checker("coverage_threshold")
def _coverage(cond: StoppingCondition, res: ProcResult) -> Judgement:
    pct = parse_coverage(res.output)
    threshold = cond.threshold if cond.threshold is not None else 100.0
    if pct is None:
        return Judgement(False, f"{_exit_text(res)}; no coverage percentage found in the output")
    ok = res.exit_code == 0 and pct >= threshold
    return Judgement(ok, f"coverage {pct:.2f}% vs threshold {threshold:g}% ({_exit_text(res)})", pct)


def _exit_only(cond: StoppingCondition, res: ProcResult) -> Judgement:
    return Judgement(res.exit_code == 0, f"{_exit_text(res)}; {_last_line(res.output)}".rstrip("; "))


register_checker("build_pass")(_exit_only)
register_checker("custom_command")(_exit_only)


# --- running -------------------------------------------------------------------

_NOISE = re.compile(r"\d+(?:\.\d+)?\s?(?:s|ms|sec|seconds)\b|0x[0-9a-f]+|\d{4}-\d\d-\d\dT[\d:.]+")


def _signature(res: ProcResult) -> str:
    """Hash of the output minus timings and addresses: equal signatures mean the same failure."""
    norm = _NOISE.sub("#", res.output)
    return hashlib.sha256(f"{res.exit_code}|{res.timed_out}|{norm}".encode()).hexdigest()[:16]


def check_condition(cond: StoppingCondition, res: ProcResult) -> ConditionResult:
    checker = CHECKERS.get(cond.type)
    if checker is None:
        known = ", ".join(sorted(CHECKERS))
        judgement = Judgement(False, f"unknown condition type {cond.type!r}; known: {known}")
    else:
        judgement = checker(cond, res)
    tail = res.output[-2000:]
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
    )


def run_condition(
    cond: StoppingCondition, workspace: str | Path, runner: Runner = run_argv
) -> ConditionResult:
    """Run one condition in ``workspace`` and judge its output."""
    res = runner(split_command(cond.command), cwd=workspace, timeout=parse_duration(cond.timeout))
    return check_condition(cond, res)
