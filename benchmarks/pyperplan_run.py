"""Run pyperplan's A* + LM-cut on one task and print JSON (used in a subprocess).

Only the search is timed, as pyperplan's own "Search time" does, in CPU seconds (as
Fast Downward reports its search time and as we time ours).
"""

from __future__ import annotations

import json
import logging
import sys
import time


class _Count(logging.Handler):
    expanded = -1

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        if msg.endswith("Nodes expanded"):
            self.expanded = int(msg.split()[0])


def main() -> None:
    from pyperplan.grounding import ground
    from pyperplan.heuristics.lm_cut import LmCutHeuristic
    from pyperplan.pddl.parser import Parser
    from pyperplan.search.a_star import astar_search

    domain, problem = sys.argv[1], sys.argv[2]
    counter = _Count()
    logging.getLogger().addHandler(counter)
    logging.getLogger().setLevel(logging.INFO)
    parser = Parser(domain, problem)
    task = ground(parser.parse_problem(parser.parse_domain()))
    heuristic = LmCutHeuristic(task)
    t0 = time.process_time()
    plan = astar_search(task, heuristic)
    seconds = time.process_time() - t0
    cost = None if plan is None else len(plan)
    print(json.dumps({"seconds": seconds, "cost": cost, "expanded": counter.expanded}))


if __name__ == "__main__":
    main()
