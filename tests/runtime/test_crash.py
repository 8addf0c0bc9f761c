"""A crash at every write of a run, then resume: no completed step is lost or run twice.

The driver's only writes are: append an event, then save the state. These tests
stop the run before each write in turn (so between every event and its state,
and between every state and the next event), resume, and check the run's
invariants. ``test_kill.py`` does
the same with real ``kill -9`` at random instants.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from goalkeeper.errors import NotFoundError
from goalkeeper.runtime import Ledger, RunOptions, RunStore, replay, resume_run, start_run

from .helpers import write_spec

CHAIN = """
    goalkeeper: 1
    goal: {c: true}
    facts:
      a: {observe: {file: a}}
      b: {observe: {file: b}}
      c: {observe: {file: c}}
    actions:
      make_a: {pre: {a: false}, effects: {a: true}, run: "echo $GOALKEEPER_TICK >> make_a.runs; touch a"}
      make_b: {pre: {a: true, b: false}, effects: {b: true}, run: "echo $GOALKEEPER_TICK >> make_b.runs; touch b"}
      make_c: {pre: {b: true, c: false}, effects: {c: true}, run: "echo $GOALKEEPER_TICK >> make_c.runs; touch c"}
"""

# finish fails until link ran: three strikes, a replan that corrects a belief, a detour.
LINK = """
    goalkeeper: 1
    goal: {ok: true}
    facts:
      ok: {observe: {file: ok}}
      linked: {diagnostic: true, initial: true, observe: {file: linked}}
    actions:
      finish: {pre: {linked: true, ok: false}, effects: {ok: true},
               run: "echo $GOALKEEPER_TICK >> finish.runs; test -f linked && touch ok"}
      link: {pre: {linked: false}, effects: {linked: true}, run: "echo $GOALKEEPER_TICK >> link.runs; touch linked"}
    policy: {strikes: 2}
"""


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """These crashes are simulated in-process, where the page cache survives them: durability is
    not what is tested here (the order of the writes is), and ~30 fsyncs per run made it slow."""
    monkeypatch.setattr("os.fsync", lambda fd: None)


class Crash(BaseException):
    """Stands for the process dying: nothing after it runs (BaseException: no handler eats it)."""


def crashing_writes(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """The run dies just before its ``at``-th write (appends and saves counted together;
    write 0 is the run's very first state). An even ``at`` >= 2 falls between the two
    writes of one step, whatever order the driver writes them in; an odd one between
    two steps."""
    count = {"n": 0}

    def dying(real: Any) -> Any:
        def write(self: RunStore, arg: Any) -> Any:
            n, count["n"] = count["n"], count["n"] + 1
            if n == at:
                raise Crash(f"killed before write {at}")
            return real(self, arg)

        return write

    monkeypatch.setattr(RunStore, "save", dying(RunStore.save))
    monkeypatch.setattr(RunStore, "append", dying(RunStore.append))


def crashing_reports(at: int) -> Any:
    """A reporter that dies at the ``at``-th event, after the event and its state were written."""
    count = {"n": 0}

    def report(ev: dict[str, Any]) -> None:
        count["n"] += 1
        if count["n"] == at:
            raise Crash(f"killed after event {at}")

    return report


def check_invariants(world: Path, home: Path, actions: list[str]) -> None:
    """The run reached its goal; its state is the fold of its log; each step ran at most once."""
    (run_dir,) = (home / "runs").iterdir()
    store = RunStore(run_dir.name, home)
    state, events = store.load(), store.events()
    assert state.status == "reached"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # nothing lost, nothing twice
    ledger = Ledger(spec_path=state.spec_path, spec_sha256=state.spec_sha256, max_ticks=state.max_ticks)
    replay(ledger, events)
    assert ledger.to_dict() == state.ledger().to_dict()  # the state is exactly what the log says
    steps = [(e["tick"], e["action"]) for e in events if e["event"].startswith("action.")]
    assert [(h.tick, h.action) for h in state.history] == steps
    started = {(e["tick"], e["action"]) for e in events if e["event"] == "tick.started"}
    for action in actions:
        runs = [int(t) for t in (world / f"{action}.runs").read_text().split()]
        assert len(runs) == len(set(runs)), f"{action} ran twice in one tick: {runs}"
        assert all((t, action) in started for t in runs)  # only ever as a logged tick
        ok = [e["tick"] for e in events if e["event"] == "action.finished" and e["action"] == action
              and e["outcome"] == "ok"]
        assert len(ok) <= 1 and all(t <= ok[0] for t in runs[:len(runs)] if ok), (action, runs, ok)


def finish(spec: Path, home: Path) -> None:
    """Resume the one run under ``home`` to the end (or start anew if it never started)."""
    run_id = next((home / "runs").iterdir()).name
    try:
        assert resume_run(run_id, RunOptions(root=home)).status == "reached"
    except NotFoundError as e:  # killed before its first state: nothing ran, it is cleaned up
        assert "never started" in str(e) and not (home / "runs" / run_id).exists()
        assert start_run(spec, RunOptions(root=home)).status == "reached"


def total_writes(text: str, tmp: Path) -> int:
    spec = write_spec(tmp / "count", text)
    st = start_run(spec, RunOptions(root=tmp / "count-home"))
    return 2 * len(RunStore(st.run_id, tmp / "count-home").events()) + 1  # append + save each, and the first state


@pytest.mark.parametrize(("text", "actions"), [(CHAIN, ["make_a", "make_b", "make_c"]),
                                          pytest.param(LINK, ["finish", "link"], marks=pytest.mark.deep)],
                         ids=["chain", "replan"])  # the replan spec's crash points are a deep case
def test_a_crash_before_any_write(text: str, actions: list[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    every = 1 if text is CHAIN else 2  # the longer run: only within steps, where it matters most
    for at in range(0, total_writes(text, tmp_path), every):
        world, home = tmp_path / f"w{at}", tmp_path / f"h{at}"
        spec = write_spec(world, text)
        with monkeypatch.context() as m:
            crashing_writes(m, at)
            with pytest.raises(Crash):
                start_run(spec, RunOptions(root=home))
        finish(spec, home)
        check_invariants(world, home, actions)


def test_a_second_crash_during_the_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for at in range(2, total_writes(CHAIN, tmp_path), 2):  # between an event and its state
        world, home = tmp_path / f"w{at}", tmp_path / f"h{at}"
        spec = write_spec(world, CHAIN)
        with monkeypatch.context() as m:
            crashing_writes(m, at)
            with pytest.raises(Crash):
                start_run(spec, RunOptions(root=home))
        run_id = next((home / "runs").iterdir()).name
        ended = any(e["event"] == "run.reached" for e in RunStore(run_id, home).events())
        if not ended:  # (a resume of a run that ended only writes its state back)
            with monkeypatch.context() as m:
                crashing_writes(m, 3)  # within the resume's first steps, after run.resumed is logged
                with pytest.raises(Crash):
                    resume_run(run_id, RunOptions(root=home))
        finish(spec, home)
        check_invariants(world, home, ["make_a", "make_b", "make_c"])


def test_a_state_ahead_of_its_log_is_written_back_to_the_log(tmp_path: Path) -> None:
    # Lines lost from events.jsonl (a disk, not a kill): the steps only state.json holds go
    # back into the log before anything else happens, and are not run again.
    world, home = tmp_path / "w", tmp_path / "h"
    spec = write_spec(world, CHAIN)
    with pytest.raises(Crash):
        start_run(spec, RunOptions(root=home, reporter=crashing_reports(10)))  # after make_b's finish
    (run_dir,) = (home / "runs").iterdir()
    lines = (run_dir / "events.jsonl").read_text().splitlines(keepends=True)
    (run_dir / "events.jsonl").write_text("".join(lines[:5]))  # up to make_a's start
    st = resume_run(run_dir.name, RunOptions(root=home))
    assert st.status == "reached"
    events = RunStore(run_dir.name, home).events()
    (rec,) = [e for e in events if e["event"] == "run.reconciled"]
    assert [(h["tick"], h["action"], h["outcome"]) for h in rec["history"]] == [(1, "make_a", "ok"), (2, "make_b", "ok")]
    assert [(world / f"make_{x}.runs").read_text().split() for x in "abc"] == [["1"], ["2"], ["3"]]
