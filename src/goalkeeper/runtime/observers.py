"""Observers: how a fact's value is read from the world. One registry, four kinds.

An observer that hangs, crashes or prints garbage yields an *unknown* value with
a reason; it never raises into the loop and never blocks past its timeout.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.error
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..model.spec import Observer, Spec
from .deadline_http import http_get
from .parse import coerce, parse_output
from .process import expand_env, run_command

__all__ = ["OBSERVERS", "Observation", "ObserveContext", "observe_all", "observe_fact", "register_observer"]


@dataclass(frozen=True, slots=True)
class Observation:
    fact: str
    value: Any  # None = unknown
    error: str | None = None
    detail: str = ""
    seconds: float = 0.0

    @property
    def known(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class ObserveContext:
    base_dir: Path
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    timeout: float = 10.0


class ObservationFailed(Exception):
    """The observer could not produce a value; the message says why."""


ObserverFn = Callable[[Observer, str, ObserveContext, float], tuple[Any, str]]
OBSERVERS: dict[str, ObserverFn] = {}


def register_observer(kind: str) -> Callable[[ObserverFn], ObserverFn]:
    def deco(fn: ObserverFn) -> ObserverFn:
        OBSERVERS[kind] = fn
        return fn

    return deco


def _cwd(obs: Observer, ctx: ObserveContext) -> Path:
    return ctx.base_dir / obs.cwd if obs.cwd else ctx.base_dir


def _env(obs: Observer, ctx: ObserveContext) -> dict[str, str]:
    env = dict(ctx.env)
    if obs.env:
        env.update({k: expand_env(v, ctx.env) for k, v in obs.env.items()})
    return env


@register_observer("command")
def _command(obs: Observer, ftype: str, ctx: ObserveContext, timeout: float) -> tuple[Any, str]:
    assert obs.command is not None
    res = run_command(obs.command, cwd=_cwd(obs, ctx), env=_env(obs, ctx), timeout=timeout)
    if res.error or res.timed_out or (res.returncode is not None and res.returncode < 0):
        raise ObservationFailed(res.describe())
    parse = obs.parse or {"bool": "exit_code", "str": "text"}.get(ftype, "number")
    if parse == "exit_code":
        if ftype != "bool":
            return coerce(ftype, res.returncode), res.describe()
        return res.returncode == 0, res.describe()
    if res.returncode != 0:
        raise ObservationFailed(f"{res.describe()}: {res.stderr.strip()[-200:] or 'no output'}")
    try:
        return parse_output(ftype, parse, res.stdout, path=obs.path, pattern=obs.pattern), res.describe()
    except ValueError as e:
        raise ObservationFailed(str(e)) from None


@register_observer("file")
def _file(obs: Observer, ftype: str, ctx: ObserveContext, timeout: float) -> tuple[Any, str]:
    assert obs.file is not None
    path = _cwd(obs, ctx) / expand_env(obs.file, ctx.env)
    parse = obs.parse or ("exists" if ftype == "bool" else "text")
    if parse == "exists":
        return path.exists(), "exists" if path.exists() else "missing"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise ObservationFailed(f"file not found: {path}") from None
    except OSError as e:
        raise ObservationFailed(f"cannot read {path}: {e.strerror}") from None
    try:
        return parse_output(ftype, parse, text, path=obs.path, pattern=obs.pattern), f"read {path.name}"
    except ValueError as e:
        raise ObservationFailed(str(e)) from None


@register_observer("http")
def _http(obs: Observer, ftype: str, ctx: ObserveContext, timeout: float) -> tuple[Any, str]:
    assert obs.http is not None
    url = expand_env(obs.http, ctx.env)
    if urlparse(url).scheme not in ("http", "https"):
        raise ObservationFailed(f"not an http(s) URL: {url}")
    parse = obs.parse or ("status" if ftype == "bool" else "number" if ftype in ("int", "float") else "text")
    try:
        status, body = http_get(url, timeout)  # one deadline for connect, headers and body together
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        if isinstance(reason, TimeoutError):
            raise ObservationFailed(f"GET {url} failed: timed out after {timeout:g}s "
                                    "(connect, headers and body together)") from None
        if ftype == "bool" and parse == "status":
            return False, f"unreachable ({reason})"  # nothing serving: a definite "not healthy"
        raise ObservationFailed(f"GET {url} failed: {reason}") from None
    detail = f"HTTP {status}"
    if parse == "status":
        if ftype == "bool":
            return (status == obs.expect_status if obs.expect_status else 200 <= status < 300), detail
        return coerce(ftype, status), detail
    if parse == "exit_code":
        raise ObservationFailed("parse: exit_code does not apply to http; use status")
    try:
        return parse_output(ftype, parse, body, path=obs.path, pattern=obs.pattern), detail
    except ValueError as e:
        raise ObservationFailed(f"{detail}: {e}") from None


_PY_SHIM = (  # prints from the callable go to stderr; stdout carries only the JSON value
    "import importlib,json,sys\n"
    "out,sys.stdout=sys.stdout,sys.stderr\n"
    "mod,_,fn=sys.argv[1].partition(':')\n"
    "v=getattr(importlib.import_module(mod),fn)()\n"
    "out.write(json.dumps(v))\n"
)


@register_observer("python")
def _python(obs: Observer, ftype: str, ctx: ObserveContext, timeout: float) -> tuple[Any, str]:
    # A child process, so a hung or crashing callable cannot take the loop with it.
    assert obs.python is not None
    if ":" not in obs.python:
        raise ObservationFailed(f"python observer {obs.python!r} must look like 'module:function'")
    env = _env(obs, ctx)
    cwd = _cwd(obs, ctx)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(cwd), env.get("PYTHONPATH", "")) if p)
    res = run_command([sys.executable, "-c", _PY_SHIM, obs.python], cwd=cwd, env=env, timeout=timeout)
    if not res.ok:
        last = (res.stderr.strip().splitlines() or [res.describe()])[-1]
        raise ObservationFailed(f"{obs.python} failed: {last[:200]}")
    try:
        value = json.loads(res.stdout)
    except json.JSONDecodeError:
        raise ObservationFailed(f"{obs.python} returned something that is not JSON") from None
    try:
        return coerce(ftype, value), "returned"
    except ValueError as e:
        raise ObservationFailed(str(e)) from None


def observe_fact(spec: Spec, fact: str, ctx: ObserveContext) -> Observation:
    fdef = spec.facts[fact]
    obs = fdef.observe
    start = time.monotonic()
    if obs is None:
        return Observation(fact, None, "no observer")
    timeout = obs.timeout or spec.policy.observe_timeout
    try:
        value, detail = OBSERVERS[obs.kind](obs, fdef.type, ctx, timeout)
    except ObservationFailed as e:
        return Observation(fact, None, str(e), "", time.monotonic() - start)
    except Exception as e:  # an observer bug must not take the run down
        return Observation(fact, None, f"observer crashed: {type(e).__name__}: {e}", "", time.monotonic() - start)
    return Observation(fact, value, None, detail, time.monotonic() - start)


def observe_all(spec: Spec, facts: Iterable[str], ctx: ObserveContext) -> dict[str, Observation]:
    """Observe facts concurrently; total time is about the slowest observer, not the sum."""
    names = list(facts)
    if not names:
        return {}
    with ThreadPoolExecutor(max_workers=min(32, len(names)), thread_name_prefix="observe") as pool:
        results = list(pool.map(lambda f: observe_fact(spec, f, ctx), names))
    return {o.fact: o for o in results}
