"""The JSON Schema of every event goalkeeper writes, one definition per event type.

Events are records, not models, so their shapes are written down here once:
this table generates ``schemas/events.schema.json`` (``goalkeeper schema
events``), and the tests validate real event streams (``goal run --json``,
``run --json`` and the logs on disk) against it and check that docs/json.md
names every event. An event's name is ``<subject>.<past participle>``; its keys
are camelCase; ``ts`` is an ISO-8601 UTC time with milliseconds.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["GOAL_EVENTS", "RUN_EVENTS", "TOMBSTONE", "events_json_schema", "events_schema_text"]

Schema = dict[str, Any]

STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
NUM: Schema = {"type": "number"}
BOOL: Schema = {"type": "boolean"}
OBJ: Schema = {"type": "object"}
STRS: Schema = {"type": "array", "items": STR}
OBJS: Schema = {"type": "array", "items": OBJ}
INTS: Schema = {"type": "array", "items": INT}
ANY: Schema = {}


def opt(s: Schema) -> Schema:
    return {"anyOf": [s, {"type": "null"}]}


GOAL_STATE: Schema = {"enum": ["active", "paused", "converged", "escalated", "failed"]}
RESULT: Schema = {
    "type": "object", "additionalProperties": False, "required": ["command", "passed"],
    "properties": {"type": STR, "command": STR, "passed": BOOL, "summary": STR, "sealed": BOOL},
}
FINDING: Schema = {
    "type": "object", "required": ["kind", "detail"],
    "properties": {"kind": STR, "path": opt(STR), "line": opt(INT), "detail": STR},
}
CHANGE: Schema = {"type": "object", "required": ["key"], "properties": {"key": STR, "before": ANY, "after": ANY}}

# name -> (what happened, payload properties, required payload keys)
Table = dict[str, tuple[str, dict[str, Schema], list[str]]]

GOAL_EVENTS: Table = {
    "goal.created": ("the goal was made and persisted before anything ran", {"objective": STR}, ["objective"]),
    "goal.baselined": ("the baseline was taken: tree, checkpoint, toolchain, reference run of every check",
                       {"protectedFiles": INT, "checkpoint": opt(STR), "toolchain": STR, "failing": STRS,
                        "sandbox": STR, "checksBox": STR}, ["protectedFiles"]),
    "run.started": ("a loop (`goal run`, a worker) started on the goal",
                    {"state": GOAL_STATE, "iterations": INT, "engine": STR}, ["state"]),
    "run.leftovers_ended": ("processes a crashed run of this goal left behind were ended", {"pids": INTS}, ["pids"]),
    "run.finished": ("the loop stopped; `state` says why", {"state": GOAL_STATE, "engine": STR}, ["state"]),
    "check.started": ("`goal check` started judging a host-maker goal", {"iterations": INT}, []),
    "check.finished": ("`goal check` finished", {"state": GOAL_STATE, "hint": opt(STR)}, ["state"]),
    "goal.repaired": ("the goal file failed its signature or its evidence and was rebuilt from the signed log",
                      {"problems": STRS}, ["problems"]),
    "iteration.started": ("an iteration began (or restarted after a crash): the maker runs",
                          {"iteration": INT, "resumed": BOOL, "hint": opt(STR)}, ["iteration"]),
    "maker.leftovers_ended": ("processes an interrupted maker left behind were ended",
                              {"iteration": INT, "pids": INTS}, ["iteration"]),
    "iteration.crash_charged": ("active time of a phase a crash cut short was charged to the budget",
                                {"iteration": INT, "seconds": NUM}, ["iteration", "seconds"]),
    "maker.unrunnable": ("the maker could not start; nothing ran", {"iteration": INT, "error": STR},
                         ["iteration", "error"]),
    "maker.finished": ("the maker ran and its tree passed the seal checks",
                       {"iteration": INT, "summary": opt(STR), "costDollars": NUM, "exitCode": opt(INT),
                        "treeChanged": BOOL, "checkpoint": opt(STR)}, ["iteration"]),
    "iteration.rejected": ("the maker's changes broke the seal and were reverted",
                           {"iteration": INT, "reasons": STRS, "findings": {"type": "array", "items": FINDING},
                            "costDollars": NUM}, ["iteration", "reasons"]),
    "iteration.voided": ("the tree changed while it was judged; the verdict is void",
                         {"iteration": INT, "reason": STR, "paths": STRS}, ["iteration", "reason"]),
    "conditions.finished": ("goalkeeper ran every stopping condition", {
        "iteration": INT, "results": {"type": "array", "items": RESULT}}, ["iteration", "results"]),
    "oracle.finished": ("the oracle judged the iteration",
                        {"iteration": INT, "verdict": {"enum": ["converged", "not_converged"]}, "reasons": STRS,
                         "confidence": opt(NUM), "costDollars": NUM}, ["iteration", "verdict"]),
    "goal.converged": ("every condition passed and the oracle agreed, on a sealed tree",
                       {"iteration": INT, "spentDollars": NUM}, ["iteration"]),
    "goal.escalated": ("the goal stopped for a human (see goal.triaged for the item)",
                       {"reason": STR, "detail": STR}, ["reason"]),
    "goal.triaged": ("the escalation's triage item was filed", {"triageId": STR}, ["triageId"]),
    "goal.paused": ("the goal was paused", {"detail": STR}, []),
    "goal.resumed": ("the goal was made active again", {"hint": opt(STR), "engine": STR, "maxIterations": opt(INT),
                                                        "maxDollars": opt(NUM), "maxDuration": ANY}, []),
    "goal.abandoned": ("the goal was given up (or replaced by `goal edit --as-new`)", {"replacedBy": STR}, []),
    "goal.saved": ("work in no checkpoint was saved before a rollback", {"name": STR, "files": INT}, ["name"]),
    "goal.rolledback": ("the workspace was restored to a checkpoint",
                        {"to": STR, "written": INT, "deleted": STRS, "savedAs": opt(STR)}, ["to"]),
    "goal.edited": ("`goal edit` changed the goal's rules",
                    {"changes": {"type": "array", "items": CHANGE}, "reopened": BOOL, "forced": STRS}, ["changes"]),
}

RUN_EVENTS: Table = {
    "run.started": ("a run started", {"spec": STR, "maxTicks": opt(INT), "search": STR, "engine": STR,
                                      "runtime": STR, "model": opt(STR), "taskQueue": STR}, ["spec"]),
    "run.resumed": ("`run --resume` continued the run", {"spec": STR, "tick": INT, "maxTicks": opt(INT),
                                                         "maxDollars": opt(NUM), "dropped": STRS}, ["spec"]),
    "spec.changed": ("the spec changed since the last step (blocked actions may run again)",
                     {"sha256": STR, "spec": STR}, ["sha256"]),
    "facts.observed": ("facts were read from the world (unknown: why a fact has no value)",
                       {"facts": OBJ, "unknown": OBJ, "fresh": BOOL, "initial": OBJ}, ["facts"]),
    "plan.made": ("a new plan", {"plan": STRS, "cost": NUM, "expanded": INT, "excluded": STRS}, ["plan"]),
    "tick.started": ("an action starts", {"tick": INT, "action": STR, "started": STR}, ["tick", "action"]),
    "action.finished": ("an action ran; outcome ok only when its observed effects hold",
                        {"tick": INT, "action": STR, "outcome": {"enum": ["ok", "failed"]}, "reason": STR,
                         "missingEffects": STRS, "started": STR, "ended": opt(STR), "seconds": NUM,
                         "log": opt(STR), "strikes": INT, "limit": INT, "believed": OBJ},
                        ["tick", "action", "outcome"]),
    "action.refused": ("an action was refused before it ran (a strike)",
                       {"tick": INT, "action": STR, "reason": STR, "started": STR, "ended": opt(STR),
                        "strikes": INT, "limit": INT}, ["tick", "action", "reason"]),
    "action.interrupted": ("a crash cut an action short; it is re-observed, not blindly re-run",
                           {"tick": INT, "action": STR, "reason": STR, "started": STR, "ended": opt(STR),
                            "strikes": INT}, ["tick", "action"]),
    "claims.checked": ("hybrid runtime: the model's claimed effects against what was observed",
                       {"tick": INT, "action": STR, "claimed": OBJ, "differences": OBJS}, ["tick", "action"]),
    "run.replanned": ("the strike limit fired: every fact re-observed, beliefs corrected",
                      {"tick": INT, "failed": STRS, "corrections": OBJS, "blocked": STRS}, ["tick"]),
    "proposal.received": ("hybrid runtime: the model proposed an action",
                          {"tick": INT, "action": STR, "expects": OBJ, "reason": opt(STR), "costDollars": NUM,
                           "costKnown": BOOL}, ["tick", "action"]),
    "proposal.failed": ("hybrid runtime: no usable proposal", {"tick": INT, "error": STR, "costDollars": NUM,
                                                              "costKnown": BOOL}, ["tick"]),
    "run.reached": ("the goal holds on values observed just now", {"tick": INT}, ["tick"]),
    "run.escalated": ("the run stopped for a human", {"reason": STR, "message": STR, "gaps": OBJS,
                                                      "gapFacts": STRS, "blocked": STRS, "triageId": opt(STR),
                                                      "report": opt(STR)}, ["reason", "message"]),
    "run.reconciled": ("after a crash the log lacked steps the state held; written back",
                       {"logSeq": INT, "stateSeq": INT, "history": OBJS}, ["history"]),
    "run.failed": ("the run could not start on its engine", {"engine": STR, "address": STR, "reason": STR},
                   ["reason"]),
}

TOMBSTONE: Schema = {
    "description": "goal.deleted: one line of <home>/goals/tombstones.jsonl, signed, written by `goal delete`",
    "type": "object", "additionalProperties": False,
    "required": ["ts", "goalId", "event", "state", "headSeq", "mac"],
    "properties": {
        "ts": STR, "goalId": STR, "event": {"const": "goal.deleted"}, "state": STR, "objective": opt(STR),
        "workspace": opt(STR), "iterations": opt(INT), "spentDollars": opt(NUM), "headSeq": INT, "headHash": STR,
        "savedTrees": STRS, "mac": STR,
    },
}

_TS: Schema = {"type": "string", "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$"}
ENVELOPES: dict[str, Schema] = {
    "goalEnvelope": {
        "description": "every goal event: signed and chained in <home>/goals/<goalId>.events.jsonl; streams "
                       "(`goal run --json`, `goal logs --json`) leave out prev, mac and the replay payload",
        "type": "object", "required": ["ts", "goalId", "event", "seq"],
        "properties": {
            "ts": _TS, "goalId": {"type": "string", "pattern": "^goal-[A-Za-z0-9_-]+$"}, "event": STR,
            "seq": {"type": "integer", "minimum": 1},
            "prev": {"type": "string", "description": "SHA-256 of the previous line ('' for the first)"},
            "mac": {"type": "string", "description": "HMAC-SHA256 of the record under the home's key"},
            "record": {"type": "object", "description": "the iteration as it is now (for replay)"},
            "goalFields": {"type": "object", "description": "the goal's changing fields (for replay)"},
            "config": {"type": "object", "description": "goal.created: the whole goal (for replay)"},
            "worker": {"type": "string", "description": "the Temporal worker that ran the phase"},
        },
    },
    "runEnvelope": {
        "description": "every run event, in <home>/runs/<runId>/events.jsonl and `run --json`",
        "type": "object", "required": ["ts", "runId", "event", "seq"],
        "properties": {"ts": _TS, "runId": {"type": "string", "pattern": "^run-[A-Za-z0-9_-]+$"}, "event": STR,
                       "seq": {"type": "integer", "minimum": 1}},
    },
}


def _defs(prefix: str, table: Table, envelope: str) -> dict[str, Schema]:
    out = {}
    for name, (what, props, required) in table.items():
        out[f"{prefix}:{name}"] = {
            "description": what,
            "allOf": [{"$ref": f"#/$defs/{envelope}"}],
            "properties": {"event": {"const": name}, **props},
            "required": required,
            "unevaluatedProperties": False,
        }
    return out


def events_json_schema() -> Schema:
    defs: dict[str, Schema] = {**ENVELOPES, **_defs("goal", GOAL_EVENTS, "goalEnvelope"),
                               **_defs("run", RUN_EVENTS, "runEnvelope"), "goal:goal.deleted": TOMBSTONE}
    names = sorted(set(GOAL_EVENTS) | set(RUN_EVENTS) | {"goal.deleted"})
    dispatch = [
        {"if": {"required": ["event", key], "properties": {"event": {"const": name}}},
         "then": {"$ref": f"#/$defs/{prefix}:{name}"}}
        for prefix, key, table in (("goal", "goalId", GOAL_EVENTS), ("run", "runId", RUN_EVENTS))
        for name in table
    ]
    dispatch.append({"if": {"required": ["event"], "properties": {"event": {"const": "goal.deleted"}}},
                     "then": {"$ref": "#/$defs/goal:goal.deleted"}})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://goalkeeper.dev/schemas/events.schema.json",
        "title": "goalkeeper events",
        "description": "One event of a goal's or a run's log (and of the --json streams). Names are "
                       "<subject>.<past participle>; keys are camelCase. See docs/json.md.",
        "type": "object",
        "required": ["event", "ts"],
        "properties": {"event": {"enum": names}},
        "oneOf": [{"required": ["goalId"]}, {"required": ["runId"]}],
        "allOf": dispatch,
        "$defs": defs,
    }


def events_schema_text() -> str:
    return json.dumps(events_json_schema(), indent=2, sort_keys=True) + "\n"
