"""The goal contract: what a goal file holds, as typed pydantic models.

The JSON keys are camelCase and match the widely copied goal-convergence schema
(``goalId``, ``stoppingConditions``, ``budget``, ``oracle``, ``state``,
``history``, ``escalation``); goalkeeper adds ``schemaVersion``, ``workspace``,
``maker``, ``guards`` and bookkeeping fields. No I/O happens here.
"""

from __future__ import annotations

import math
import re
import shlex
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from ..errors import ConfigError
from .protect import DEFAULT_TESTS

__all__ = [
    "CONDITION_TYPES",
    "DEFAULT_PROTECTED",
    "ESCALATION_REASONS",
    "GOAL_ID_PATTERN",
    "MAX_CONDITIONS",
    "PLACEHOLDERS",
    "SCHEMA_VERSION",
    "WRITE_TOOLS",
    "check_env_names",
    "check_rules",
    "Budget",
    "ConditionResult",
    "Escalation",
    "Goal",
    "GoalState",
    "Guards",
    "Iteration",
    "MakerSpec",
    "OracleConfig",
    "Phase",
    "StoppingCondition",
    "parse_duration",
]

SCHEMA_VERSION = 2
GOAL_ID_PATTERN = r"^goal-[a-z0-9]{8}$"
CONDITION_TYPES = ("test_pass", "lint_clean", "coverage_threshold", "build_pass", "custom_command")
ESCALATION_REASONS = (
    "budget_exhausted", "repeated_failure", "oracle_uncertain", "no_progress", "tampering", "manual",
    "unrunnable",
)
PLACEHOLDERS = ("{objective}", "{hint}", "{iteration}", "{goal_id}")
# Tools an oracle must never hold: it judges, it does not touch the tree.
WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "write", "edit", "bash", "shell"})
# The protected globs of goals made before sealed verdicts (schemaVersion 1); migrated to
# test globs plus the built-in seal (every tool config name, CI files, ignore files).
LEGACY_PROTECTED = (
    "test_*.py", "*_test.py", "tests/**", "test/**", "conftest.py",
    "*.test.*", "*.spec.*", "__tests__/**",
    ".github/**", ".gitlab-ci.yml", ".circleci/**", "azure-pipelines.yml", "Jenkinsfile",
    "pyproject.toml", "setup.cfg", "tox.ini", "noxfile.py", "pytest.ini", ".coveragerc",
    "ruff.toml", ".ruff.toml", "mypy.ini", ".pre-commit-config.yaml",
    "package.json", "tsconfig.json", "jest.config.*", ".eslintrc*", "eslint.config.*",
)
DEFAULT_PROTECTED = DEFAULT_TESTS

ConditionType = Literal["test_pass", "lint_clean", "coverage_threshold", "build_pass", "custom_command"]
GoalState = Literal["active", "paused", "converged", "escalated", "failed"]
EscalationReason = Literal[
    "budget_exhausted", "repeated_failure", "oracle_uncertain", "no_progress", "tampering", "manual",
    "unrunnable",
]
Phase = Literal["maker", "conditions", "oracle", "done"]

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")
_UNIT = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, None: 1.0}
# Ten years: longer than any run, short enough for every timer it reaches (poll, timedelta, Temporal).
LONGEST_SECONDS = 3650 * 86400.0


def parse_duration(text: str | float | int | None) -> float | None:
    """``"2h"``, ``"30m"``, ``"90s"`` or a number of seconds -> seconds (None stays None)."""
    if text is None:
        return None
    if isinstance(text, int | float):
        return float(text)
    m = _DURATION.match(text)
    if not m:
        raise ConfigError(f"cannot read duration {text!r}; write it like '2h', '30m', '90s' or 45")
    return float(m.group(1)) * _UNIT[m.group(2)]


def _check_duration(v: str | float | None) -> None:
    try:
        seconds = parse_duration(v)
    except ConfigError as e:
        raise ValueError(str(e)) from None
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"duration {v!r} must be a positive, finite number of seconds (or like '30m')")
    if seconds is not None and seconds > LONGEST_SECONDS:
        raise ValueError(f"duration {v!r} is longer than ten years; give at most '3650d' (or 'none' where allowed)")


MAX_CONDITIONS = 100  # more stopping conditions than any real goal; past it, sealed checks take hours


def check_env_names(env: dict[str, str], where: str = "check_env") -> dict[str, str]:
    """Refuse what no process environment can hold (``execve`` would fail, or split the name)."""
    for k, v in env.items():
        if not k or "=" in k or "\x00" in k:
            raise ValueError(f"{where}: {k!r} is not a variable name a process can have "
                             "(give a non-empty NAME without '=' or NUL bytes)")
        if "\x00" in v:
            raise ValueError(f"{where}: the value of {k} contains a NUL byte, which no environment can hold")
    return env


def _finite(v: float | None, what: str) -> float | None:
    if v is not None and not math.isfinite(v):
        raise ValueError(f"{what} must be a finite number, not {v!r}")
    return None if v is None else v + 0.0  # -0.0 + 0.0 is 0.0: a budget of "-0" is stored as 0


class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", validate_assignment=True
    )

    def dump(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


class StoppingCondition(_Model):
    """A check we run ourselves after each iteration; the maker never reports it."""

    type: ConditionType = "custom_command"
    command: str | list[str] = Field(description="argv list, or a string split like a shell would (no shell runs)")
    threshold: float | None = Field(default=None, description="coverage_threshold: minimum percent")
    description: str | None = None
    timeout: str | float | None = Field(default="10m", description="per-run timeout ('10m', seconds)")

    @field_validator("command")
    @classmethod
    def _nonempty(cls, v: str | list[str]) -> str | list[str]:
        if not (v if isinstance(v, list) else v.strip()):
            raise ValueError("a stopping condition needs a non-empty command")
        if isinstance(v, str):
            try:
                shlex.split(v)
            except ValueError as e:  # found now, not after the maker already ran
                raise ValueError(f"cannot split command {v!r} into arguments: {e}") from None
        return v

    @field_validator("timeout")
    @classmethod
    def _duration(cls, v: str | float | None) -> str | float | None:
        _check_duration(v)
        return v

    @field_validator("threshold")
    @classmethod
    def _percent(cls, v: float | None) -> float | None:
        # nan compares false with everything: such a goal could never converge and nothing would say why
        if v is not None and not (math.isfinite(v) and 0 <= v <= 100):
            raise ValueError(f"threshold {v!r} is not a percent; give a number from 0 to 100")
        return v

    def label(self) -> str:
        cmd = self.command if isinstance(self.command, str) else " ".join(self.command)
        return self.description or f"{self.type}: {cmd}"


class Budget(_Model):
    """Limits checked before every maker call; ``None`` means unlimited (at least one must be set)."""

    max_iterations: int | None = Field(default=15, ge=1)
    max_duration: str | float | None = Field(default="2h", description="wall time excluding paused time")
    max_dollars: float | None = Field(default=10.0, ge=0)

    @field_validator("max_dollars")
    @classmethod
    def _finite_dollars(cls, v: float | None) -> float | None:
        return _finite(v, "maxDollars")

    @field_validator("max_duration")
    @classmethod
    def _duration(cls, v: str | float | None) -> str | float | None:
        try:
            seconds = parse_duration(v)
        except ConfigError as e:
            raise ValueError(str(e)) from None
        _finite(seconds, "maxDuration")
        if seconds is not None and seconds > LONGEST_SECONDS:
            raise ValueError("maxDuration is longer than ten years; give at most '3650d', or 'none' for no limit")
        return v


class OracleConfig(_Model):
    """The judge. ``model: deterministic`` is built in; LLM oracles plug in behind the same interface."""

    model: str = "deterministic"
    allowed_tools: list[str] = Field(default_factory=lambda: ["Read", "Grep", "Glob"])
    prompt: str | None = None
    min_confidence: float = Field(default=0.5, ge=0, le=1)
    options: dict[str, Any] = Field(
        default_factory=dict, description="provider settings (base_url, prices, ...); keys go in env vars"
    )


class MakerSpec(_Model):
    """How the maker is built from the makers registry (``command`` is built in)."""

    type: str = "command"
    argv: list[str] = Field(default_factory=list)
    model: str | None = Field(default=None, description="who makes; must differ from the oracle's model")
    timeout: str | float | None = "30m"
    env: dict[str, str] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    sandbox: Literal["auto", "bwrap", "none"] = Field(
        default="auto", description="auto: bubblewrap for command makers when installed, else none (with a notice)"
    )

    @field_validator("timeout")
    @classmethod
    def _duration(cls, v: str | float | None) -> str | float | None:
        _check_duration(v)
        return v


class Guards(_Model):
    """Defences against the known ways a maker fakes progress.

    Every config file the test/lint/coverage tools read (any name they accept, at
    any depth), interpreter start-up hooks, CI and ignore files are always
    sealed; ``protectedPaths`` adds globs to that seal; ``testPaths`` are the
    tests (baseline ones may not change; new ones may be added); ``allowEdit``
    exempts what the goal may legitimately change.
    """

    protected_paths: list[str] = Field(default_factory=list, description="extra sealed globs (--protect)")
    test_paths: list[str] = Field(default_factory=lambda: list(DEFAULT_TESTS))
    allow_edit: list[str] = Field(default_factory=list, description="globs the maker may change (--allow-edit)")
    check_outputs: list[str] = Field(
        default_factory=list, description="globs the checks may create in the workspace (--check-output)"
    )
    max_rejections: int = Field(default=2, ge=1, description="tampering rejections before escalating")
    no_progress_iterations: int = Field(default=3, ge=1)
    max_maker_failures: int = Field(default=3, ge=1)
    max_uncertain: int = Field(
        default=2, ge=1, description="oracle verdicts in a row below minConfidence before escalating"
    )
    max_restarts: int = Field(default=3, ge=0, description="interrupted maker runs of one iteration before escalating")
    max_rework: int = Field(default=3, ge=1, description="iterations that change one failing function before escalating")
    checkpoint: bool = True
    include_credentials: bool = Field(
        default=False, description="store .env, *.pem, id_* ... in checkpoints (never by default)"
    )


class ConditionResult(_Model):
    type: ConditionType
    command: str
    passed: bool
    exit_code: int | None = None
    summary: str = ""
    observed: float | None = None
    signature: str = ""
    output_tail: str = ""
    duration_seconds: float = 0.0
    sealed: bool = Field(default=False, description="judged from a structured report in a sealed environment")
    spawn_error: str | None = Field(default=None, description="the command could not start")
    failures: list[dict[str, Any]] = Field(
        default_factory=list,
        description="failing tests: where each failed and the workspace frames it passed through, each with the "
                    "iteration that last changed that line (changedIn; 0 = before the goal)",
    )
    counts: dict[str, int] = Field(default_factory=dict, description="tests by outcome, lint findings, ...")


class Iteration(_Model):
    """One maker -> conditions -> oracle round; ``phase`` is the next step still to do."""

    iteration: int = Field(ge=1)
    phase: Phase = "done"
    started_at: str | None = None
    finished_at: str | None = None
    hint: str | None = Field(default=None, description="the nextHint the maker was given")
    maker_summary: str | None = None
    maker_exit_code: int | None = None
    maker_timed_out: bool = False
    maker_spawn_error: str | None = None
    cost_dollars: float = 0.0
    maker_cost_dollars: float = 0.0
    oracle_cost_dollars: float = 0.0
    cost_known: bool = Field(default=True, description="false if some model call had no known price")
    restarts: int = 0
    phase_started_at: str | None = None
    tree_before: str | None = Field(default=None, description="source digest before the maker (caches excluded)")
    tree_after: str | None = Field(default=None, description="digest of the whole tree the checks ran on")
    source_after: str | None = Field(default=None, description="source digest after the maker")
    checkpoint: str | None = None
    checkpoint_tree: str | None = None
    rejected: str | None = None
    findings: list[dict[str, Any]] = Field(default_factory=list, description="why it was rejected or voided")
    charged_seconds: float = Field(default=0.0, description="active time of interrupted phases, charged on resume")
    condition_results: list[ConditionResult] = Field(default_factory=list)
    oracle_verdict: Literal["converged", "not_converged", "void"] | None = None
    reasons: list[str] = Field(default_factory=list)
    next_hint: str | None = None
    confidence: float | None = None


class Escalation(_Model):
    reason: EscalationReason
    detail: str = ""
    at: str | None = None
    triage_id: str | None = None


class Goal(_Model):
    """One goal: objective, stopping conditions, budget, judge, and everything that happened."""

    schema_version: int = SCHEMA_VERSION
    goal_id: str = Field(pattern=GOAL_ID_PATTERN)
    objective: str = Field(min_length=1)
    stopping_conditions: list[StoppingCondition] = Field(min_length=1)
    budget: Budget = Field(default_factory=Budget)
    oracle: OracleConfig = Field(default_factory=OracleConfig)
    maker: MakerSpec = Field(default_factory=MakerSpec)
    guards: Guards = Field(default_factory=Guards)
    workspace: str | None = Field(default=None, description="directory the maker works in; null = cwd")
    state: GoalState = "active"
    created_at: str | None = None
    updated_at: str | None = None
    elapsed_seconds: float = Field(default=0.0, description="active wall time, paused time excluded")
    baseline_at: str | None = Field(default=None, description="when protected paths were hashed")
    protected_baseline: dict[str, str] = Field(default_factory=dict)
    marker_baseline: dict[str, int] = Field(default_factory=dict)
    baseline: dict[str, Any] = Field(
        default_factory=dict, description="what the verdicts are compared with: tree, checkpoint, toolchain digests"
    )
    condition_env: dict[str, str] = Field(
        default_factory=dict, description="variables the checks run with (the caller's PYTHON*/PYTEST_* are dropped)"
    )
    history: list[Iteration] = Field(default_factory=list)
    escalation: Escalation | None = None
    source: dict[str, Any] = Field(default_factory=dict, description="where the goal came from")
    ledger_seq: int = Field(default=0, description="seq of the last event this state reflects")

    @field_validator("condition_env")
    @classmethod
    def _env_names(cls, v: dict[str, str]) -> dict[str, str]:
        return check_env_names(v)

    @field_validator("stopping_conditions")
    @classmethod
    def _not_too_many(cls, v: list[StoppingCondition]) -> list[StoppingCondition]:
        if len(v) > MAX_CONDITIONS:
            raise ValueError(f"{len(v)} stopping conditions; at most {MAX_CONDITIONS} (merge checks into "
                             "one script)")
        return v

    # derived views used by decide() and the CLI ---------------------------------
    def completed(self) -> list[Iteration]:
        return [h for h in self.history if h.phase == "done"]

    def spent_dollars(self) -> float:
        return round(sum(h.cost_dollars for h in self.history), 6)

    def last_hint(self) -> str | None:
        for h in reversed(self.history):
            if h.phase == "done" and h.next_hint:
                return h.next_hint
        return None


def check_rules(goal: Goal) -> None:
    """The hard bans, enforced before a goal is saved or run; each error names the fix."""
    where = f"goal {goal.goal_id}"
    if not goal.stopping_conditions:
        raise ConfigError(f"{where}: stoppingConditions is empty; add one with --until 'CMD'")
    b = goal.budget
    if b.max_iterations is None and b.max_duration is None and b.max_dollars is None:
        raise ConfigError(
            f"{where}: budget has no limit; set at least one of maxIterations, maxDuration, maxDollars"
        )
    if b.max_iterations is None and b.max_duration is None:
        raise ConfigError(
            f"{where}: a dollars-only budget cannot stop a maker whose cost is unknown or zero; "
            "set maxIterations or maxDuration as well"
        )
    for i, c in enumerate(goal.stopping_conditions):
        if c.type == "coverage_threshold" and c.threshold is None:
            raise ConfigError(f"{where}: stoppingConditions[{i}] is coverage_threshold without a threshold")
    m, o = goal.maker, goal.oracle
    from ..llm import parse_model_ref, same_model

    maker_ids = {x for x in (m.model, m.type if m.type != "command" else None) if x}
    ref = parse_model_ref(o.model)
    same_cli = ref.agent is not None and ref.agent == m.type and (ref.model is None or same_model(ref.model, m.model))
    if o.model in maker_ids or (m.model is not None and same_model(o.model, m.model)) or same_cli:
        raise ConfigError(
            f"{where}: the oracle ({o.model!r}) is also the maker; the judge must be someone else"
        )
    writers = sorted(t for t in o.allowed_tools if t in WRITE_TOOLS)
    if writers:
        raise ConfigError(
            f"{where}: oracle.allowedTools {writers} can write; the oracle is read-only "
            "(allowed e.g. Read, Grep, Glob)"
        )
    for i, arg in enumerate(m.argv):
        for ph in PLACEHOLDERS:
            if ph in arg and arg != ph:
                env = "GOALKEEPER_" + ph.strip("{}").upper()
                raise ConfigError(
                    f"{where}: maker.argv[{i}] embeds {ph} inside {arg!r}; placeholders must be whole "
                    f"arguments (no shell splicing) - or read ${env} in the maker"
                )
