"""Goal convergence: a maker iterates, our own checks and a read-only oracle judge.

Typical use::

    goal = create_goal("make the tests pass", conditions_from_commands(["pytest -q"]),
                       maker=MakerSpec(argv=["my-agent", "{objective}", "{hint}"]))
    run_goal(goal.goal_id)
"""

from .budget import DollarLimit, DurationLimit, IterationLimit, Usage, from_budget, usage_of
from .conditions import (
    CHECKERS,
    parse_coverage,
    parse_test_summary,
    register_checker,
    run_condition,
)
from .contracts import (
    MAKERS,
    ORACLES,
    Maker,
    MakerRequest,
    MakerResult,
    get_maker,
    register_maker,
)
from .decide import (
    Abandoned,
    Converged,
    Decision,
    Escalate,
    Finished,
    Paused,
    StartIteration,
    decide,
)
from .goal import (
    SCHEMA_VERSION,
    Budget,
    ConditionResult,
    Escalation,
    Goal,
    Guards,
    Iteration,
    MakerSpec,
    OracleConfig,
    StoppingCondition,
    check_rules,
    parse_duration,
)
from .lifecycle import (
    abandon_goal,
    conditions_from_commands,
    create_goal,
    escalate,
    infer_type,
    pause_goal,
    promote_item,
    resume_goal,
    rollback_goal,
)
from .loop import GoalLoop, check_goal, run_goal
from .oracle import (
    DeterministicOracle,
    Oracle,
    OracleRequest,
    OracleVerdict,
    get_oracle,
    register_oracle,
)
from .persist import list_goals, load_goal, migrate, save_goal

__all__ = [
    "CHECKERS",
    "MAKERS",
    "ORACLES",
    "SCHEMA_VERSION",
    "Abandoned",
    "Budget",
    "ConditionResult",
    "Converged",
    "Decision",
    "DeterministicOracle",
    "DollarLimit",
    "DurationLimit",
    "Escalate",
    "Escalation",
    "Finished",
    "Goal",
    "GoalLoop",
    "Guards",
    "Iteration",
    "IterationLimit",
    "Maker",
    "MakerRequest",
    "MakerResult",
    "MakerSpec",
    "Oracle",
    "OracleConfig",
    "OracleRequest",
    "OracleVerdict",
    "Paused",
    "StartIteration",
    "StoppingCondition",
    "Usage",
    "abandon_goal",
    "check_goal",
    "check_rules",
    "conditions_from_commands",
    "create_goal",
    "decide",
    "escalate",
    "from_budget",
    "get_maker",
    "get_oracle",
    "infer_type",
    "list_goals",
    "load_goal",
    "migrate",
    "parse_coverage",
    "parse_duration",
    "parse_test_summary",
    "pause_goal",
    "promote_item",
    "register_checker",
    "register_maker",
    "register_oracle",
    "resume_goal",
    "rollback_goal",
    "run_condition",
    "run_goal",
    "save_goal",
    "usage_of",
]
