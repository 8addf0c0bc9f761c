"""The driver end to end through the library API: real commands, real files, no mocks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.errors import LockedError, SpecError
from goalkeeper.runtime import RunOptions, RunState, RunStore, resume_run, start_run

from .helpers import count_lines, kinds, started_actions, write_spec

CHAIN = """
    goalkeeper: 1
    goal: {c: true}
    facts:
      a: {observe: {file: a}}
      b: {observe: {file: b}}
      c: {observe: {file: c}}
    actions:
      make_a: {pre: {a: false}, effects: {a: true}, run: "echo x >> make_a.count; touch a"}
      make_b: {pre: {a: true, b: false}, effects: {b: true}, run: "echo x >> make_b.count; touch b"}
      make_c: {pre: {b: true, c: false}, effects: {c: true}, run: "echo x >> make_c.count; touch c"}
    policy: {max_ticks: 10}
"""

# fast is cheap and (here) always fails; slow is the way around it.
ROUTES = """
    goalkeeper: 1
    goal: {done: true}
    facts:
      done: {observe: {file: done}}
      prepped: {observe: {file: prepped}}
    actions:
      fast: {pre: {done: false}, effects: {done: true}, run: "echo x >> fast.count; exit 1"}
      slow: {pre: {done: false}, effects: {done: true}, cost: 3,
             run: "echo x >> slow.count; touch done"}
    policy: {strikes: 2}
"""


class Crash(Exception):
    """Raised from a reporter: the runner dies right after writing that event."""


def crash_at(kind: str, action: str | None = None) -> Callable[[dict[str, Any]], None]:
    def reporter(ev: dict[str, Any]) -> None:
        if ev["event"] == kind and (action is None or ev.get("action") == action):
            raise Crash(ev)

    return reporter


def events(st: RunState | str) -> list[dict[str, Any]]:
    return RunStore(st if isinstance(st, str) else st.run_id).events()


def only_run_id(home: Path) -> str:
    (d,) = (home / "runs").iterdir()
    return d.name


@pytest.fixture
def world(tmp_path: Path) -> Path:
    w = tmp_path / "w"
    w.mkdir()
    return w


# -- one action per tick ------------------------------------------------------------


def test_one_action_per_tick_then_reached(world: Path) -> None:
    st = start_run(write_spec(world, CHAIN), RunOptions())
    assert st.status == "reached" and st.tick == 3
    assert [(t.tick, t.action, t.outcome) for t in st.history] == [
        (1, "make_a", "ok"), (2, "make_b", "ok"), (3, "make_c", "ok")]
    assert all(count_lines(world / f"make_{x}.count") == 1 for x in "abc")
    ev = events(st)
    k = kinds(ev)
    assert k[0] == "run.started" and k[1] == "facts.observed" and k[-1] == "run.reached"
    # after every action: re-observe, then the verdict; never two actions in one tick
    for i, e in enumerate(ev):
        if e["event"] == "tick.started":
            assert k[i + 1] == "facts.observed" and k[i + 2] == "action.finished"
            assert ev[i + 2]["tick"] == e["tick"] and ev[i + 2]["action"] == e["action"]
    assert ev[2]["event"] == "plan.made" and ev[2]["plan"] == ["make_a", "make_b", "make_c"]


def test_goal_already_true_runs_nothing(world: Path) -> None:
    (world / "c").write_text("")
    st = start_run(write_spec(world, CHAIN), RunOptions())
    assert st.status == "reached" and st.tick == 0 and st.history == []
    assert "tick.started" not in kinds(events(st))


def test_actions_see_run_env_and_tick(world: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts: {done: {observe: {file: done}}}
        actions:
          go:
            pre: {done: false}
            effects: {done: true}
            env: {GK_EXTRA: "yes"}
            run: 'echo "$GOALKEEPER_RUN_ID $GOALKEEPER_TICK $GK_EXTRA" > done'
    """)
    st = start_run(spec, RunOptions())
    assert (world / "done").read_text().split() == [st.run_id, "1", "yes"]


# -- the tick cap ---------------------------------------------------------------------


def test_tick_cap_escalates_not_pauses(world: Path, goalkeeper_home: Path) -> None:
    st = start_run(write_spec(world, CHAIN.replace("max_ticks: 10", "max_ticks: 2")), RunOptions())
    assert st.status == "escalated" and st.tick == 2
    assert st.escalation is not None and st.escalation["reason"] == "tick_cap"
    assert count_lines(world / "make_c.count") == 0
    report = json.loads((goalkeeper_home / "runs" / st.run_id / "report.json").read_text())
    assert report["reason"] == "tick_cap" and report["goal"] == ["c == true"]
    (item,) = (goalkeeper_home / "triage").glob("tri-*.json")
    assert json.loads(item.read_text())["reason"] == "tick_cap"


def test_max_ticks_option_overrides_the_policy(world: Path) -> None:
    st = start_run(write_spec(world, CHAIN), RunOptions(max_ticks=1))
    assert st.status == "escalated" and st.tick == 1 and st.max_ticks == 1
    assert st.escalation is not None and st.escalation["reason"] == "tick_cap"


# -- what counts as a failure ---------------------------------------------------------

FAILING = """
    goalkeeper: 1
    goal: {done: true}
    facts: {done: {observe: {file: done}}}
    actions:
      work: {pre: {done: false}, effects: {done: true}, timeout: TIMEOUT, run: RUN}
    policy: {strikes: 1}
"""


@pytest.mark.parametrize(
    ("run", "needle"),
    [
        ("echo oops >&2; exit 4", "exit 4: oops"),
        (["sleep", "30"], "timed out"),
        (["gk-no-such-command-xyz"], "command not found: gk-no-such-command-xyz"),
        ("gk-no-such-command-xyz", "exit 127"),
        ("kill -9 $$", "killed by SIGKILL"),
        ("true", "exited 0 but its effects did not happen"),
    ],
    ids=["nonzero", "timeout", "not-found-argv", "not-found-shell", "killed", "no-effect"],
)
def test_failure_kinds(world: Path, run: str | list[str], needle: str) -> None:
    # Only the hung command meets a short timeout: on a loaded box a quick one may take seconds.
    timeout = "0.5" if run == ["sleep", "30"] else "60"
    st = start_run(write_spec(world, FAILING.replace("RUN", json.dumps(run)).replace("TIMEOUT", timeout)),
                   RunOptions())
    (rec,) = st.history
    assert rec.outcome == "failed" and needle in rec.reason, rec.reason
    assert rec.strikes == 1
    if run == "true":
        assert rec.missing_effects == ["done (expected true, observed false)"]
    else:
        assert rec.missing_effects == []
    assert st.status == "escalated"  # the run goes on to a verdict, it does not crash


def test_action_log_keeps_the_output(world: Path) -> None:
    st = start_run(write_spec(world, FAILING.replace("RUN", json.dumps("echo to-out; echo to-err >&2; exit 3"))
                              .replace("TIMEOUT", "60")),
                   RunOptions())
    log = Path(st.history[0].log or "")
    text = log.read_text()
    assert log.name == "tick-0001-work.log"
    assert "to-out" in text and "to-err" in text and "exit 3" in text


# -- strikes, replan, corrections -----------------------------------------------------

LINK = """
    goalkeeper: 1
    goal: {ok: true}
    facts:
      ok: {observe: {file: ok}}
      linked: {diagnostic: true, initial: true, observe: {file: linked}}
      probe: {type: int, diagnostic: true, observe: {command: "echo x >> probe.count; echo 7"}}
    actions:
      finish: {pre: {linked: true, ok: false}, effects: {ok: true},
               run: "echo x >> finish.count; test -f linked && touch ok"}
      link: {pre: {linked: false}, effects: {linked: true}, run: "echo x >> link.count; touch linked"}
    policy: {strikes: 3}
"""


def test_three_strikes_replan_corrects_beliefs_from_diagnostic_facts(world: Path) -> None:
    st = start_run(write_spec(world, LINK), RunOptions())
    assert st.status == "reached"
    assert [(t.action, t.outcome, t.strikes) for t in st.history] == [
        ("finish", "failed", 1), ("finish", "failed", 2), ("finish", "failed", 3),
        ("link", "ok", 0), ("finish", "ok", 0)]
    assert count_lines(world / "finish.count") == 4 and count_lines(world / "link.count") == 1
    (rp,) = st.replans
    assert rp.failed == ["finish"] and rp.blocked == ["finish"] and rp.tick == 3
    assert rp.corrections == [{"fact": "linked", "believed": True, "observed": False}]
    ev = events(st)
    i = kinds(ev).index("run.replanned")
    assert ev[i]["corrections"] == rp.corrections
    # the replan re-observed EVERY fact, diagnostic ones included
    assert set(ev[i - 1]["facts"]) == {"ok", "linked", "probe"}
    # the next plan starts from the observed state
    nxt = next(e for e in ev[i:] if e["event"] == "plan.made")
    assert nxt["plan"] == ["link", "finish"] and nxt["excluded"] == ["finish"]


def test_diagnostic_facts_are_observed_at_start_only_without_initial_and_at_replan(world: Path) -> None:
    st = start_run(write_spec(world, LINK), RunOptions())
    observed = [set(e["facts"]) for e in events(st) if e["event"] == "facts.observed"]
    assert observed[0] == {"ok", "probe"}  # linked has an initial value: believed, not observed
    assert count_lines(world / "probe.count") == 2  # at start and at the one replan
    routine = [o for o in observed[1:] if o != {"ok", "linked", "probe"}]
    assert routine and all(o == {"ok"} for o in routine)


# -- no silent retry --------------------------------------------------------------------

ONLY_FAILS = """
    goalkeeper: 1
    goal: {done: true}
    facts: {done: {observe: {file: done}}}
    actions:
      work: {pre: {done: false}, effects: {done: true}, run: "echo x >> work.count; exit 1"}
    policy: {strikes: 3}
"""


def test_failing_only_action_runs_exactly_strikes_times_then_escalates(world: Path, goalkeeper_home: Path) -> None:
    st = start_run(write_spec(world, ONLY_FAILS), RunOptions())
    assert count_lines(world / "work.count") == 3
    ev = events(st)
    assert started_actions(ev) == ["work"] * 3
    finished = [e for e in ev if e["event"] == "action.finished"]
    assert [(e["outcome"], e["strikes"], e["limit"]) for e in finished] == [
        ("failed", 1, 3), ("failed", 2, 3), ("failed", 3, 3)]
    assert kinds(ev)[-2:] == ["run.replanned", "run.escalated"]
    assert st.status == "escalated" and st.escalation is not None
    assert st.escalation["reason"] == "no_admissible_action"
    report = json.loads((goalkeeper_home / "runs" / st.run_id / "report.json").read_text())
    assert report["blocked_actions"] == ["work"]
    assert [f["tick"] for f in report["failures"]] == [1, 2, 3]


def test_after_the_block_another_route_is_taken(world: Path) -> None:
    st = start_run(write_spec(world, ROUTES), RunOptions())
    assert st.status == "reached"
    assert [t.action for t in st.history] == ["fast", "fast", "slow"]
    assert count_lines(world / "fast.count") == 2
    ev = events(st)
    after = ev[kinds(ev).index("run.replanned"):]
    assert "fast" not in started_actions(after)
    plan = next(e for e in after if e["event"] == "plan.made")
    assert plan["plan"] == ["slow"] and plan["excluded"] == ["fast"]


def test_block_lifts_once_any_fact_changes(world: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          noise: {observe: {file: noise}}
        actions:
          fast: {pre: {done: false}, effects: {done: true},
                 run: "echo x >> fast.count; test -f noise && touch done"}
          tweak: {pre: {noise: false}, effects: {noise: true}, run: "echo x >> tweak.count; touch noise"}
          slow: {pre: {noise: true, done: false}, effects: {done: true}, cost: 10,
                 run: "echo x >> slow.count; exit 1"}
        policy: {strikes: 2}
    """)
    st = start_run(spec, RunOptions())
    assert st.status == "reached"
    assert [t.action for t in st.history] == ["fast", "fast", "tweak", "fast"]
    assert count_lines(world / "slow.count") == 0


# -- destructive actions --------------------------------------------------------------------


def test_destructive_refused_when_a_believed_precondition_is_false(world: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          ready: {diagnostic: true, initial: true, observe: {file: ready}}
        actions:
          wipe: {pre: {ready: true, done: false}, effects: {done: true}, destructive: true,
                 run: "test -f ready && echo ok >> wipe.log || echo UNSAFE >> wipe.log; touch done"}
          prepare: {pre: {done: false}, effects: {ready: true}, cost: 5, run: "touch ready"}
        policy: {strikes: 3}
    """)
    st = start_run(spec, RunOptions())
    assert st.status == "reached"
    assert [(t.action, t.outcome, t.strikes) for t in st.history] == [
        ("wipe", "refused", 1), ("prepare", "ok", 0), ("wipe", "ok", 0)]
    assert "ready == true" in st.history[0].reason
    assert (world / "wipe.log").read_text() == "ok\n"  # never ran against the unsafe world
    ev = events(st)
    refused = [e for e in ev if e["event"] == "action.refused"]
    assert len(refused) == 1 and refused[0]["action"] == "wipe"
    i = kinds(ev).index("action.refused")
    assert ev[i - 1]["event"] == "facts.observed" and ev[i - 1].get("fresh") is True
    assert ev[i - 1]["facts"] == {"ready": False, "done": False}


def test_destructive_refused_after_a_side_effect_removed_its_precondition(world: Path) -> None:
    (world / "backup").write_text("")
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {wiped: true}
        facts:
          wiped: {observe: {file: wiped}}
          rotated: {observe: {file: rotated}}
          backup: {diagnostic: true, observe: {file: backup}}
        actions:
          rotate: {pre: {rotated: false}, effects: {rotated: true}, run: "touch rotated; rm -f backup"}
          wipe: {pre: {rotated: true, backup: true}, effects: {wiped: true}, destructive: true,
                 run: "test -f backup && echo ok >> wipe.log || echo UNSAFE >> wipe.log; touch wiped"}
          make_backup: {pre: {backup: false}, effects: {backup: true}, run: "touch backup"}
    """)
    st = start_run(spec, RunOptions())
    assert st.status == "reached"
    assert [(t.action, t.outcome) for t in st.history] == [
        ("rotate", "ok"), ("wipe", "refused"), ("make_backup", "ok"), ("wipe", "ok")]
    assert (world / "wipe.log").read_text() == "ok\n"


def test_refusals_count_as_strikes_and_trigger_the_replan(world: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          ready: {diagnostic: true, initial: true, observe: {file: ready}}
        actions:
          wipe: {pre: {ready: true, done: false}, effects: {done: true}, destructive: true,
                 run: "echo x >> wipe.count; touch done"}
        policy: {strikes: 1}
    """)
    st = start_run(spec, RunOptions())
    assert st.status == "escalated"
    assert [(t.action, t.outcome) for t in st.history] == [("wipe", "refused")]
    assert st.replans and st.replans[0].failed == ["wipe"]
    assert count_lines(world / "wipe.count") == 0


CONFIRM = """
    goalkeeper: 1
    goal: {gone: true}
    facts: {gone: {observe: {file: gone}}}
    actions:
      drop: {pre: {gone: false}, effects: {gone: true}, destructive: true, confirm: true,
             run: "echo x >> drop.count; touch gone"}
"""


def test_confirm_runs_with_yes(world: Path) -> None:
    st = start_run(write_spec(world, CONFIRM), RunOptions(yes=True))
    assert st.status == "reached" and count_lines(world / "drop.count") == 1


def test_confirm_without_approval_escalates_non_interactive(world: Path, goalkeeper_home: Path) -> None:
    st = start_run(write_spec(world, CONFIRM), RunOptions())
    assert st.status == "escalated" and st.escalation is not None
    assert st.escalation["reason"] == "approval_required" and "--yes" in st.escalation["message"]
    assert count_lines(world / "drop.count") == 0 and st.tick == 0
    (item,) = (goalkeeper_home / "triage").glob("tri-*.json")
    assert json.loads(item.read_text())["reason"] == "approval_required"


@pytest.mark.parametrize("answer", [True, False])
def test_confirm_asks_the_interactive_callback(world: Path, answer: bool) -> None:
    asked: list[str] = []

    def confirm(action: str) -> bool:
        asked.append(action)
        return answer

    st = start_run(write_spec(world, CONFIRM), RunOptions(confirm=confirm))
    assert asked == ["drop"]
    if answer:
        assert st.status == "reached" and count_lines(world / "drop.count") == 1
    else:
        assert st.status == "escalated" and st.escalation is not None
        assert st.escalation["reason"] == "approval_required" and "declined" in st.escalation["message"]
        assert count_lines(world / "drop.count") == 0


# -- escalation: report + triage ---------------------------------------------------------------

LOCKED = """
    goalkeeper: 1
    name: locked
    goal: {healthy: true}
    facts:
      healthy: {observe: {file: healthy}}
      pinned: {observe: {file: pinned}}
      allowed: {observe: {file: allowed}}
      version: {type: str, observe: {command: "echo v1"}}
    actions:
      deploy: {pre: {pinned: true}, effects: {healthy: true}, run: "touch healthy"}
      pin: {pre: {allowed: true}, effects: {pinned: true}, run: "touch pinned"}
"""


def test_unreachable_goal_stops_with_report_and_triage(world: Path, goalkeeper_home: Path) -> None:
    st = start_run(write_spec(world, LOCKED), RunOptions())
    assert st.status == "escalated" and st.tick == 0
    run_dir = goalkeeper_home / "runs" / st.run_id
    report = json.loads((run_dir / "report.json").read_text())
    assert report["reason"] == "unreachable"
    assert report["goal"] == ["healthy == true"]
    assert [u["fact"] for u in report["unreachable"]] == ["healthy"]
    assert {f: v["value"] for f, v in report["facts"].items()} == {
        "healthy": False, "pinned": False, "allowed": False, "version": "v1"}
    assert {"action": "pin", "fact": "allowed", "condition": "== true", "root": True} in report["gaps"]
    assert {"action": "deploy", "fact": "pinned", "condition": "== true", "root": False} in report["gaps"]
    md = (run_dir / "report.md").read_text()
    assert "allowed == true" in md and "root" in md
    (item_path,) = (goalkeeper_home / "triage").glob("tri-*.json")
    item = json.loads(item_path.read_text())
    assert item["source"] == "run" and item["source_id"] == st.run_id and item["reason"] == "unreachable"
    assert item["id"] == st.escalation["triage_id"]  # type: ignore[index]
    assert "allowed" in item["context"]["gap_facts"]
    assert item_path.with_suffix(".md").read_text() == md
    ev = events(st)
    assert ev[-1]["event"] == "run.escalated" and ev[-1]["triageId"] == item["id"]


# -- persistence -------------------------------------------------------------------------------


def test_state_is_on_disk_before_every_event_is_reported(world: Path, goalkeeper_home: Path) -> None:
    seen: list[str] = []

    def reporter(ev: dict[str, Any]) -> None:
        run_dir = goalkeeper_home / "runs" / ev["runId"]
        state = json.loads((run_dir / "state.json").read_text())  # always valid JSON
        lines = (run_dir / "events.jsonl").read_text().splitlines()
        assert json.loads(lines[-1]) == ev  # logged before it is reported
        if ev["event"] == "tick.started":
            assert state["pending"] == {"tick": ev["tick"], "action": ev["action"],
                                        "started": state["pending"]["started"]}
        if ev["event"] == "action.finished":
            assert state["pending"] is None
            assert state["history"][-1]["tick"] == ev["tick"]
            assert state["history"][-1]["outcome"] == ev["outcome"]
        seen.append(ev["event"])

    st = start_run(write_spec(world, CHAIN), RunOptions(reporter=reporter))
    assert st.status == "reached" and seen.count("action.finished") == 3


def test_crash_then_resume_records_the_interrupted_tick(world: Path) -> None:
    spec = write_spec(world, CHAIN)
    with pytest.raises(Crash):
        start_run(spec, RunOptions(reporter=crash_at("tick.started", "make_c")))
    run_id = only_run_id(world.parent / "gk-home")
    on_disk = RunStore(run_id).load()
    assert on_disk.status == "running" and on_disk.pending is not None
    assert on_disk.pending["action"] == "make_c" and on_disk.tick == 3
    st = resume_run(run_id, RunOptions())
    assert st.status == "reached"
    assert [(t.tick, t.action, t.outcome) for t in st.history] == [
        (1, "make_a", "ok"), (2, "make_b", "ok"), (3, "make_c", "interrupted"), (4, "make_c", "ok")]
    assert [count_lines(world / f"make_{x}.count") for x in "abc"] == [1, 1, 1]
    k = kinds(events(st))
    i = k.index("run.resumed")
    assert k[i:i + 3] == ["run.resumed", "action.interrupted", "facts.observed"]


def test_resume_a_finished_run_reports_its_outcome_and_runs_nothing(world: Path) -> None:
    st = start_run(write_spec(world, CHAIN), RunOptions())
    before = events(st)
    again = resume_run(st.run_id, RunOptions())
    assert again.status == "reached" and again.history == st.history
    assert events(st) == before  # nothing logged, nothing run
    assert all(count_lines(world / f"make_{x}.count") == 1 for x in "abc")


def test_second_runner_is_refused_by_the_lock(world: Path) -> None:
    with pytest.raises(Crash):
        start_run(write_spec(world, CHAIN), RunOptions(reporter=crash_at("tick.started")))
    run_id = only_run_id(world.parent / "gk-home")
    with RunStore(run_id).lock, pytest.raises(LockedError, match="already running"):
        resume_run(run_id, RunOptions())
    assert resume_run(run_id, RunOptions()).status == "reached"


def test_valid_spec_edit_lifts_the_block(world: Path) -> None:
    spec = write_spec(world, ROUTES)
    with pytest.raises(Crash):  # fast failed twice and is blocked; dies as the detour starts
        start_run(spec, RunOptions(reporter=crash_at("tick.started", "slow")))
    run_id = only_run_id(world.parent / "gk-home")
    assert list(RunStore(run_id).load().blocked) == ["fast"]
    spec.write_text(spec.read_text().replace("echo x >> fast.count; exit 1", "echo x >> fast.count; touch done"))
    st = resume_run(run_id, RunOptions())
    assert st.status == "reached"
    assert [(t.action, t.outcome) for t in st.history] == [
        ("fast", "failed"), ("fast", "failed"), ("slow", "interrupted"), ("fast", "ok")]
    assert count_lines(world / "fast.count") == 3 and count_lines(world / "slow.count") == 0
    ev = events(st)
    assert "spec.changed" in kinds(ev)
    changed = next(e for e in ev if e["event"] == "spec.changed")
    assert changed["sha256"] == st.spec_sha256


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("goal: {done: true}", "goal: {done: maybe-not}"),  # bad value
        lambda t: t + "\n  : [unclosed\n",  # not YAML
        lambda t: t.replace("prepped: {observe: {file: prepped}}", "prepped: {}"),  # no observer
    ],
    ids=["bad-value", "broken-yaml", "no-observer"],
)
def test_invalid_spec_edit_fails_and_leaves_the_run_untouched(
        world: Path, edit: Callable[[str], str]) -> None:
    spec = write_spec(world, ROUTES)
    with pytest.raises(Crash):
        start_run(spec, RunOptions(reporter=crash_at("tick.started", "slow")))
    run_dir = only_run_id(world.parent / "gk-home")
    store = RunStore(run_dir)
    before = store.state_path.read_bytes(), store.events_path.read_bytes()
    spec.write_text(edit(spec.read_text()))
    with pytest.raises(SpecError):
        resume_run(run_dir, RunOptions())
    assert (store.state_path.read_bytes(), store.events_path.read_bytes()) == before


# -- observers that misbehave during a run ------------------------------------------------------


def test_garbage_and_hung_observers_do_not_stop_the_run(world: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          load: {type: int, observe: {command: "echo '%%% no digits'"}}
          stuck: {observe: {command: [sleep, "60"], timeout: 0.5}}
          status: {observe: {command: "echo '{broken'", parse: json, path: ok}}
        actions:
          go: {pre: {done: false}, effects: {done: true}, run: "touch done"}
    """)
    st = start_run(spec, RunOptions())
    assert st.status == "reached"
    assert st.facts["load"] is None and "no number" in st.errors["load"]
    assert st.facts["stuck"] is None and "timed out" in st.errors["stuck"]
    assert st.facts["status"] is None and "not JSON" in st.errors["status"]
    assert {st.sources[f] for f in ("load", "stuck", "status")} == {"unknown"}
    first = next(e for e in events(st) if e["event"] == "facts.observed")
    assert set(first["unknown"]) == {"load", "stuck", "status"}


def test_spec_with_a_fact_without_observer_is_refused_before_a_run_exists(
        world: Path, goalkeeper_home: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          mystery: {}
        actions:
          go: {pre: {done: false}, effects: {done: true}, run: "touch done"}
    """)
    with pytest.raises(SpecError) as ei:
        start_run(spec, RunOptions())
    assert "facts.mystery" in str(ei.value)
    assert not (goalkeeper_home / "runs").exists()


def test_resume_after_removing_a_failed_action_from_the_spec(world: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
        actions:
          gone: {pre: {done: false}, effects: {done: true}, run: "exit 1"}
          other: {pre: {done: false}, effects: {done: true}, cost: 2, run: "echo x >> other.count; exit 1"}
        policy: {strikes: 2}
    """)
    with pytest.raises(Crash):  # gone failed once (strike 1 of 2), then the runner died
        start_run(spec, RunOptions(reporter=crash_at("action.finished", "gone")))
    run_id = only_run_id(world.parent / "gk-home")
    assert RunStore(run_id).load().streak == ["gone"]
    spec.write_text(spec.read_text().replace('gone: {pre: {done: false}, effects: {done: true}, run: "exit 1"}', ""))
    st = resume_run(run_id, RunOptions())  # the replan must not trip over the removed action
    assert st.status == "escalated" and st.escalation is not None
    assert st.escalation["reason"] == "no_admissible_action"
    assert st.replans[-1].failed == ["other"]
    assert count_lines(world / "other.count") == 1


def test_resume_after_a_diagnostic_fact_changes_type(world: Path) -> None:
    spec = write_spec(world, """
        goalkeeper: 1
        goal: {done: true}
        facts:
          done: {observe: {file: done}}
          level: {diagnostic: true, initial: true, observe: {file: level}}
        actions:
          go: {pre: {done: false}, effects: {done: true}, run: "touch done"}
    """)
    with pytest.raises(Crash):
        start_run(spec, RunOptions(reporter=crash_at("tick.started")))
    run_id = only_run_id(world.parent / "gk-home")
    spec.write_text(spec.read_text().replace(
        "level: {diagnostic: true, initial: true, observe: {file: level}}",
        'level: {type: int, diagnostic: true, initial: 3, observe: {command: "echo 3"}}'))
    st = resume_run(run_id, RunOptions())
    assert st.status == "reached"


def test_start_run_on_something_not_a_path_is_a_clear_error() -> None:
    from goalkeeper.errors import ConfigError
    from goalkeeper.model import spec_from_data
    from goalkeeper.runtime import RunOptions, start_run

    spec = spec_from_data({"goalkeeper": 1, "goal": {"done": True},
                           "facts": {"done": {"observe": {"file": "done.flag"}}},
                           "actions": {"finish": {"pre": {"done": False}, "effects": {"done": True},
                                                  "run": ["touch", "done.flag"]}}})
    with pytest.raises(ConfigError, match="goalkeeper.run"):
        start_run(spec, RunOptions())  # type: ignore[arg-type]
