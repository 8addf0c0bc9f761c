"""State the maker cannot forge: a keyed hash chain of events and a sealed goal file.

Every goal event carries ``seq``, ``prev`` (the SHA-256 of the previous
line) and ``mac`` (an HMAC-SHA256 of the record under a key kept outside the
state home, ``$GOALKEEPER_KEYS`` or ``~/.local/state/goalkeeper/keys``, mode
0600, hidden from sandboxed makers). The goal file carries a ``mac`` too,
and pause/abandon requests are MAC'd, so a process without the key can
neither write a verdict, nor truncate or edit the log, nor pause a goal.

Events are appended before the state that depends on them. Each phase's
event holds the full iteration record, so a goal file that fails its check
(forged, or from before a crash) is rebuilt by replaying the log
(:func:`replay`): the file is never trusted over the chain.

Honest limit: without the sandbox, a maker running as the same user can
read the key like any of your files; the chain stops edits by anything that
does not know to look for it, and the sandbox (``--sandbox bwrap``) hides it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CorruptStateError
from ..store import goals as gstore
from ..store.atomic import append_jsonl, read_jsonl
from ..store.home import home, now_iso

__all__ = [
    "Chain",
    "append",
    "public",
    "goal_mac",
    "key_for",
    "macs_equal",
    "keys_dir",
    "read_request",
    "evidence_gaps",
    "line_hash",
    "rebuild",
    "replay_history",
    "sign",
    "verify_chain",
    "write_request",
]


def keys_dir() -> Path:
    env = os.environ.get("GOALKEEPER_KEYS")
    if env:
        return Path(env)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "goalkeeper" / "keys"


def key_for(root: Path | None = None) -> bytes:
    """The MAC key of a state home, created on first use (32 random bytes, 0600)."""
    where = str((root or home()).resolve())
    d = keys_dir()
    path = d / (hashlib.sha256(where.encode()).hexdigest()[:24] + ".key")
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except FileNotFoundError:
        pass
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, key)
    finally:
        os.close(fd)
    return key


def _canon(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str).encode()


def sign(key: bytes, obj: Mapping[str, Any]) -> str:
    body = {k: v for k, v in obj.items() if k != "mac"}
    return hmac.new(key, _canon(body), hashlib.sha256).hexdigest()


def goal_mac(key: bytes, data: Mapping[str, Any]) -> str:
    return sign(key, data)


def line_hash(rec: Mapping[str, Any]) -> str:
    return hashlib.sha256(_canon(rec)).hexdigest()


def _events_path(goal_id: str, root: Path | None) -> Path:
    return gstore.goals_dir(root) / f"{goal_id}.events.jsonl"


@dataclass(frozen=True, slots=True)
class Chain:
    records: list[dict[str, Any]]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def head(self) -> tuple[int, str]:
        if not self.records:
            return 0, ""
        last = self.records[-1]
        return int(last.get("seq", 0)), line_hash(last)


def macs_equal(given: object, expected: str) -> bool:
    """A signature as read from a file against the one computed: anything but the same hex text
    (a number, a list, non-ASCII text, which ``hmac.compare_digest`` refuses) is no match."""
    if not isinstance(given, str) or not given.isascii():
        return False
    return hmac.compare_digest(given, expected)


def verify_chain(goal_id: str, root: Path | None = None, key: bytes | None = None) -> Chain:
    """Every record in order, unbroken and signed; ``problems`` names the first breaks."""
    key = key or key_for(root)
    recs: list[dict[str, Any]] = []
    problems: list[str] = []
    prev, seq = "", 0
    for rec in read_jsonl(_events_path(goal_id, root)):
        if "mac" not in rec:
            problems.append(f"event {rec.get('event')!r} at {rec.get('ts')} carries no signature")
            continue
        if not macs_equal(rec.get("mac"), sign(key, rec)):
            problems.append(f"event {rec.get('event')!r} (seq {rec.get('seq')}) has a bad signature")
            continue
        got = rec.get("seq")
        if type(got) is not int:  # signed, yet no sequence number: written by no goalkeeper of this format
            problems.append(f"event {rec.get('event')!r} carries no sequence number (seq {got!r})")
            continue
        if got != seq + 1 or rec.get("prev") != prev:
            problems.append(f"the chain breaks before seq {got} (expected {seq + 1})")
        seq, prev = got, line_hash(rec)
        recs.append(rec)
    return Chain(recs, problems[:20])


# path -> (file size, seq, hash) after our last append: the next append need not re-read the log
_HEADS: dict[str, tuple[int, int, str]] = {}


def append(goal_id: str, event: str, root: Path | None = None, **fields: Any) -> dict[str, Any]:
    """Append one signed, chained event (the caller holds the goal lock, or the log is new)."""
    key = key_for(root)
    path = _events_path(goal_id, root)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        size = 0
    cached = _HEADS.get(str(path))
    if cached is not None and cached[0] == size:
        seq, prev = cached[1], cached[2]
    else:
        seq, prev = verify_chain(goal_id, root, key).head
    from ..store.redact import redact_obj

    rec: dict[str, Any] = {"ts": now_iso(), "goalId": goal_id, "event": event, **redact_obj(fields),
                           "seq": seq + 1, "prev": prev}
    rec["mac"] = sign(key, rec)
    append_jsonl(path, rec)
    try:
        _HEADS[str(path)] = (path.stat().st_size, seq + 1, line_hash(rec))
    except OSError:
        _HEADS.pop(str(path), None)
    return rec


_PRIVATE = ("record", "goalFields", "mac", "prev", "config")


def public(rec: Mapping[str, Any]) -> dict[str, Any]:
    """An event as shown to users and event sinks: without the replay payload and the signature."""
    return {k: v for k, v in rec.items() if k not in _PRIVATE}


# --- control requests: only goalkeeper's CLI can make one ------------------------------------

def write_request(goal_id: str, request: str, root: Path | None = None) -> Path:
    from ..store.atomic import write_text_atomic

    body = {"goalId": goal_id, "request": request, "at": now_iso()}
    body["mac"] = sign(key_for(root), body)
    p = gstore.goals_dir(root) / f"{goal_id}.request"
    write_text_atomic(p, json.dumps(body) + "\n")
    return p


def read_request(goal_id: str, root: Path | None = None) -> str | None:
    """A valid request, or None (a forged or unreadable request file is ignored)."""
    p = gstore.goals_dir(root) / f"{goal_id}.request"
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("goalId") != goal_id:
        return None
    if not macs_equal(data.get("mac", ""), sign(key_for(root), data)):
        return None
    req = data.get("request")
    return req if req in ("pause", "abandon") else None


# --- rebuilding a goal from its log -------------------------------------------------------------

def replay_history(records: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The goal config from ``goal.created`` and each iteration's last recorded state."""
    config: dict[str, Any] | None = None
    its: dict[int, dict[str, Any]] = {}
    for r in records:
        if r.get("event") == "goal.created" and isinstance(r.get("config"), dict):
            config = dict(r["config"])
        rec = r.get("record")
        if isinstance(rec, dict) and isinstance(rec.get("iteration"), int):
            its[rec["iteration"]] = dict(rec)
        fields = r.get("goalFields")
        if config is not None and isinstance(fields, dict):
            config.update(fields)
    return config, [its[k] for k in sorted(its)]


def evidence_gaps(history: Iterable[Mapping[str, Any]], records: Iterable[Mapping[str, Any]]) -> list[str]:
    """Verdicts in ``history`` that their own events do not back (a converged iteration needs its
    ``conditions.finished`` and ``oracle.finished``, a rejection its ``iteration.rejected``)."""
    seen: dict[tuple[str, int], Mapping[str, Any]] = {}
    for r in records:
        it = r.get("iteration")
        if isinstance(it, int):
            seen[(str(r.get("event")), it)] = r
    gaps = []
    for h in history:
        n, verdict = h.get("iteration"), h.get("oracleVerdict")
        if not isinstance(n, int) or h.get("phase") != "done":
            continue
        if h.get("rejected"):
            if ("iteration.rejected", n) not in seen:
                gaps.append(f"iteration {n} is marked rejected but no iteration.rejected event backs it")
            continue
        if verdict == "void":
            if ("iteration.voided", n) not in seen:
                gaps.append(f"iteration {n} is marked void but no iteration.voided event backs it")
            continue
        oracle = seen.get(("oracle.finished", n))
        if oracle is None or oracle.get("verdict") != verdict:
            gaps.append(f"iteration {n} says {verdict!r} but its oracle.finished event does not")
        if verdict == "converged":
            cond = seen.get(("conditions.finished", n))
            results = cond.get("results") if cond else None
            if not isinstance(results, list) or not all(isinstance(x, dict) and x.get("passed") for x in results):
                gaps.append(f"iteration {n} converged without a conditions.finished event where all passed")
    return gaps


def rebuild(goal_id: str, chain: Chain) -> dict[str, Any]:
    """The goal as its signed log says it is (the file is not consulted)."""
    config, history = replay_history(chain.records)
    if config is None:
        raise CorruptStateError(
            f"goal {goal_id}: its event log has no signed goal.created record, so it cannot be rebuilt; "
            "start the goal over with `goalkeeper goal new`"
        )
    data = dict(config)
    data["history"] = history
    data["ledgerSeq"] = chain.head[0]
    data["goalId"] = goal_id
    return data
