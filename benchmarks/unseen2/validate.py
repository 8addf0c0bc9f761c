"""Validate a plan (one action a line on stdin) with unified-planning; print JSON.

``python validate.py DOMAIN PROBLEM < plan`` prints ``{"valid": bool, "metric": x}``:
the validator simulates the lifted PDDL (conditional effects, quantifiers, costs), so it
checks a plan independently of the groundings of pyperplan and Fast Downward.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    import unified_planning.shortcuts as up  # type: ignore[import-untyped]
    from unified_planning.engines import ValidationResultStatus  # type: ignore[import-untyped]
    from unified_planning.engines.plan_validator import SequentialPlanValidator  # type: ignore[import-untyped]
    from unified_planning.io import PDDLReader  # type: ignore[import-untyped]

    env = up.get_environment()
    env.credits_stream = None
    env.error_used_name = False  # floortile has a predicate and an action named up
    reader = PDDLReader()
    problem = reader.parse_problem(sys.argv[1], sys.argv[2])
    text = "\n".join(ln.strip() for ln in sys.stdin if ln.strip())
    plan = reader.parse_plan_string(problem, text)
    with SequentialPlanValidator(problem_kind=problem.kind) as val:
        res = val.validate(problem, plan)
    metric = None
    if res.metric_evaluations:
        metric = float(next(iter(res.metric_evaluations.values())))
    print(json.dumps({"valid": res.status == ValidationResultStatus.VALID, "metric": metric,
                      "why": str(res.reason) if res.status != ValidationResultStatus.VALID
                      else None}))


if __name__ == "__main__":
    main()
