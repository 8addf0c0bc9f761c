"""A real goal home (signed goal file, signed event log, seal, logs) under fuzzing, one value at a time.

The home is made once per process by the real CLI (``goal new``, then ``goal run``
to convergence in two iterations), then copied for each example with its key.
Two attackers:

* **without the key** (a maker or a host agent that edits the state files): any
  value changed anywhere in the goal file or in one record of the event log is
  caught — the goal is refused or rebuilt from the signed log, never believed
  as edited — and no command shows a traceback;
* **with the key** (goalkeeper's own past, or a version that wrote odd values):
  the edit is signed and the chain re-linked, so every reader past the
  signature check sees the value; each must answer with a message.

The base home takes a few seconds to make, so the properties are in the deep
tier (``-m deep`` and ``tests/fuzz/deep.py``); the finds they made are fixed
inputs in the fast suite (``test_signed_home_finds.py``).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from goalkeeper.errors import CorruptStateError, GoalkeeperError

from .helpers import Outcome, invoke
from .strategies import json_values

pytestmark = pytest.mark.deep

DEEP_EXAMPLES = 25  # per round of tests/fuzz/deep.py (each example is costly)
DEEP = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

READ_COMMANDS = [["goal", "list"], ["goal", "list", "--json"], ["goal", "status", "{id}"],
                 ["goal", "status", "--json", "{id}"], ["goal", "show", "--json", "{id}"], ["goal", "logs", "{id}"],
                 ["goal", "logs", "--json", "{id}"], ["goal", "export", "{id}"]]
DROP = object()  # the key is removed instead of given a value
# Keys the properties leave alone while a find in them is open (none now; the non-ASCII "mac" and the
# seq that is no number were fixed in convergence/ledger.py, their inputs pinned in test_signed_home_finds.py).
OPEN_FIND: tuple[str, ...] = ()
SIGNED_OPEN_FIND: tuple[str, ...] = ()

hostile = (json_values | st.sampled_from(
    [10**400, 2**64, -1, 1e308, "", "\x00", "\ud800", "é", "[/]", "a" * 5000, "goal-other0001", "../../x",
     "2026-13-45T99:99:99Z", "converged", "active", [], {}, [None], {"": 1}]) | st.just(DROP))


@functools.cache
def base_home() -> tuple[Path, str, bytes]:
    """(home, goal id, key) of a goal that converged in two iterations, made once per process."""
    d = Path(tempfile.mkdtemp(prefix="gk-signed-home-"))
    keys = d / "keys"
    ws = d / "ws"
    ws.mkdir()
    (ws / "n").write_text("0\n")
    (ws / "check.sh").write_text('test "$(cat n)" -ge 2\n')
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    before = os.environ.get("GOALKEEPER_KEYS")
    os.environ["GOALKEEPER_KEYS"] = str(keys)
    try:
        made = invoke(d / "home", "goal", "new", "count to two", "--until", "sh check.sh", "--maker",
                      "sh -c 'echo $(($(cat n)+1)) > n'", "--sandbox", "none", "--max-iterations", "5", "--json",
                      cwd=ws)
        assert made.code == 0, made.text
        gid = json.loads(made.out)["goalId"]
        ran = invoke(d / "home", "goal", "run", gid, cwd=ws)
        assert ran.code == 0, ran.text
    finally:
        if before is None:
            os.environ.pop("GOALKEEPER_KEYS", None)
        else:
            os.environ["GOALKEEPER_KEYS"] = before
    (key,) = [p.read_bytes() for p in keys.iterdir()]
    return d / "home", gid, key


def copy_home(into: Path) -> tuple[Path, str, bytes]:
    """A copy of the base home under ``into`` with its key where goalkeeper looks for it (GOALKEEPER_KEYS)."""
    src, gid, key = base_home()
    into = Path(tempfile.mkdtemp(dir=into))  # one per example: tmp_path is shared by a property's examples
    home = into / "home"
    shutil.copytree(src, home, symlinks=True)
    keys = into / "keys"
    keys.mkdir(mode=0o700)
    name = hashlib.sha256(str(home.resolve()).encode()).hexdigest()[:24] + ".key"
    (keys / name).write_bytes(key)
    os.chmod(keys / name, 0o600)
    os.environ["GOALKEEPER_KEYS"] = str(keys)
    return home, gid, key


def paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path in ``obj`` (the root excluded)."""
    if prefix:
        yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths(v, (*prefix, i))


def put(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    node = obj
    for k in path[:-1]:
        node = node[k]
    if value is DROP:
        del node[path[-1]]
    else:
        node[path[-1]] = copy.deepcopy(value)


def pick(obj: Any, where: float, skip: tuple[str, ...] = ()) -> tuple[Any, ...]:
    every = [p for p in paths(obj) if p[0] not in skip]
    return every[min(int(where * len(every)), len(every) - 1)]


def text_of(obj: Any) -> bytes:
    return json.dumps(obj).encode("utf-8", errors="surrogatepass")


def clean(o: Outcome) -> None:
    assert o.exception is None, f"{type(o.exception).__name__}: {o.exception}"
    assert o.code in (0, 1, 2, 3, 4), (o.code, o.text)
    assert "Traceback" not in o.text and "internal error" not in o.text, o.text


def run_readers(home: Path, gid: str, d: Path) -> None:
    for cmd in READ_COMMANDS:
        clean(invoke(home, *[c.replace("{id}", gid) for c in cmd], cwd=d))


@DEEP
@given(where=st.floats(0, 1), value=hostile)
def test_an_unsigned_edit_of_the_goal_file_is_never_believed(tmp_path: Path, where: float, value: Any) -> None:
    from goalkeeper.convergence import load_goal
    from goalkeeper.convergence.persist import audited_goal

    home, gid, _ = copy_home(tmp_path)
    os.environ["GOALKEEPER_HOME"] = str(home)
    p = home / "goals" / f"{gid}.json"
    doc = json.loads(p.read_text())
    original = load_goal(gid).dump()
    path = pick(doc, where)
    put(doc, path, value)
    p.write_bytes(text_of(doc))
    try:
        edited = load_goal(gid).dump()
    except GoalkeeperError:
        edited = None
    assert edited in (None, original), f"an edit at {path} was believed"
    try:
        audited, _ = audited_goal(gid)
        assert audited.dump() == original, f"an edit at {path} passed the audit"
    except CorruptStateError:  # IntegrityError among them
        pass
    run_readers(home, gid, home.parent)


@DEEP
@given(where=st.floats(0, 1), line=st.floats(0, 1), value=hostile)
def test_an_unsigned_edit_of_the_event_log_is_caught(tmp_path: Path, where: float, line: float, value: Any) -> None:
    from goalkeeper.convergence.ledger import verify_chain

    home, gid, _ = copy_home(tmp_path)
    os.environ["GOALKEEPER_HOME"] = str(home)
    p = home / "goals" / f"{gid}.events.jsonl"
    recs = [json.loads(x) for x in p.read_text().splitlines()]
    i = min(int(line * len(recs)), len(recs) - 1)
    before = copy.deepcopy(recs[i])
    put(recs[i], pick(recs[i], where, skip=OPEN_FIND), value)
    if recs[i] == before:
        reject()
    p.write_bytes(b"\n".join(text_of(r) for r in recs) + b"\n")
    assert verify_chain(gid).problems, "an edited record passed the chain check"
    run_readers(home, gid, home.parent)


def _resign(recs: list[dict[str, Any]], start: int, key: bytes) -> None:
    from goalkeeper.convergence.ledger import line_hash, sign

    for j in range(start, len(recs)):
        if j > start:
            recs[j]["prev"] = line_hash(recs[j - 1])
        recs[j]["mac"] = sign(key, recs[j])


@DEEP
@given(where=st.floats(0, 1), line=st.floats(0, 1), value=hostile, in_goal=st.booleans())
def test_a_signed_odd_value_gets_a_message_from_every_reader(tmp_path: Path, where: float, line: float,
                                                              value: Any, in_goal: bool) -> None:
    from goalkeeper.convergence.ledger import sign
    from goalkeeper.convergence.persist import audited_goal

    home, gid, key = copy_home(tmp_path)
    os.environ["GOALKEEPER_HOME"] = str(home)
    try:
        if in_goal:
            p = home / "goals" / f"{gid}.json"
            doc = json.loads(p.read_text())
            put(doc, pick(doc, where, skip=("mac",)), value)
            doc["mac"] = sign(key, doc)
            p.write_bytes(text_of(doc))
        else:
            p = home / "goals" / f"{gid}.events.jsonl"
            recs = [json.loads(x) for x in p.read_text().splitlines()]
            i = min(int(line * len(recs)), len(recs) - 1)
            put(recs[i], pick(recs[i], where, skip=("mac", *SIGNED_OPEN_FIND)), value)
            _resign(recs, i, key)
            p.write_bytes(b"\n".join(text_of(r) for r in recs) + b"\n")
    except (TypeError, ValueError, KeyError, IndexError):
        reject()  # a value the signer itself cannot write (or a path the edit removed) is no forgery
    try:
        audited_goal(gid, repair=True)
    except GoalkeeperError as e:
        assert str(e)
    run_readers(home, gid, home.parent)
