"""The public entry points ``goalkeeper.run`` and ``goalkeeper.converge``, on any engine.

Both are thin: they turn Python values into what the :class:`~goalkeeper.engines.Engine`
protocol takes (a spec on disk, a goal persisted before anything runs), then ask
the engine, so a script gets exactly what ``goalkeeper run`` and
``goalkeeper goal new`` + ``goal run`` would do, with the same state on disk.
See docs/api.md.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError
from .model import Spec, spec_from_data

if TYPE_CHECKING:
    from .convergence.goal import Goal, MakerSpec, StoppingCondition
    from .engines.base import Engine, EventSink
    from .runtime.state import RunState

__all__ = ["converge", "run"]

SpecLike = str | os.PathLike[str] | Spec | Mapping[str, Any]


def _engine(engine: str | Engine, root: Path | None) -> Engine:
    from .engines import Engine as EngineProtocol
    from .engines import make_engine

    if isinstance(engine, str):
        return make_engine(engine, root=root)
    if isinstance(engine, EngineProtocol):
        return engine
    raise ConfigError(f"engine={engine!r}: pass an engine name ('local', 'temporal') or an object made by "
                      "goalkeeper.engines.make_engine")


def spec_file(spec: SpecLike, workdir: str | os.PathLike[str] | None = None) -> Path:
    """The spec as a file an engine can run and resume: a path as given, a dict or Spec saved in ``workdir``.

    A run records its spec's path and digest and runs its commands in the spec's
    directory, so an in-memory spec is written (validated first, content-addressed,
    atomically) as ``<workdir>/.goalkeeper-spec-<digest>.json``; ``workdir``
    defaults to the current directory.
    """
    if isinstance(spec, str | os.PathLike):
        if workdir is not None:
            raise ConfigError("workdir= applies to a dict or Spec; a spec file's commands run in its own directory")
        path = Path(spec)
        if not path.is_file():
            raise ConfigError(f"spec {str(path)!r} is not a file; pass a path to a .yaml/.json spec, a dict or a Spec")
        return path
    if isinstance(spec, Spec):
        data: Any = spec.model_dump(mode="json", by_alias=True, exclude_unset=True)
    elif isinstance(spec, Mapping):
        data = dict(spec)
    else:
        raise ConfigError(f"spec must be a path, a dict or a goalkeeper.Spec, not {type(spec).__name__}")
    try:
        text = json.dumps(data, indent=2, sort_keys=True, allow_nan=False) + "\n"
    except (TypeError, ValueError) as e:
        raise ConfigError(f"spec is not plain JSON data ({e}); use str, int, float, bool, None, lists and dicts") from None
    spec_from_data(json.loads(text), source="<spec dict>")  # raises SpecError naming every problem
    base = Path(workdir) if workdir is not None else Path.cwd()
    if not base.is_dir():
        raise ConfigError(f"workdir {str(base)!r} is not a directory")
    path = base / f".goalkeeper-spec-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
    try:
        if not (path.is_file() and path.read_text(encoding="utf-8") == text):
            from .store.atomic import USER_FILE, write_text_atomic

            write_text_atomic(path, text, mode=USER_FILE)  # the user's spec: their umask decides
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot save the spec as {str(path)!r} ({e}); pass workdir= a writable directory") from None
    return path


def run(
    spec: SpecLike,
    *,
    workdir: str | os.PathLike[str] | None = None,
    search: str = "astar",
    max_ticks: int | None = None,
    yes: bool = False,
    confirm: Callable[[str], bool] | None = None,
    env: Mapping[str, str] | None = None,
    max_dollars: float | None = None,
    on_event: EventSink | None = None,
    root: str | os.PathLike[str] | None = None,
    engine: str | Engine = "local",
    wait: bool = True,
) -> RunState:
    """Run a GOAP spec to its goal (or an escalation) and return the final :class:`RunState`.

    ``spec`` is a path, a dict or a :class:`Spec`; ``root`` is the state home
    (default ``$GOALKEEPER_HOME`` or ``./.goalkeeper``). A run that escalates is
    returned, not raised: read ``state.status`` and ``state.escalation``.
    """
    from .runtime.driver import RunOptions
    from .runtime.progress import null_reporter

    home = Path(root) if root is not None else None
    eng = _engine(engine, home)  # an unknown engine fails before anything is written
    path = spec_file(spec, workdir)
    options = RunOptions(search=search, max_ticks=max_ticks, yes=yes, confirm=confirm, env=env, root=home,
                         reporter=on_event or null_reporter, max_dollars=max_dollars)
    return eng.start_run(path, options, wait=wait)


def _conditions(until: str | Sequence[str | Mapping[str, Any] | StoppingCondition]) -> list[StoppingCondition]:
    from pydantic import ValidationError

    from .convergence.goal import StoppingCondition
    from .convergence.lifecycle import infer_type

    if isinstance(until, str):
        until = [until]
    out: list[StoppingCondition] = []
    for i, c in enumerate(until):
        try:
            if isinstance(c, StoppingCondition):
                out.append(c)
            elif isinstance(c, str):
                out.append(StoppingCondition.model_validate({"type": infer_type(c), "command": c}))
            elif isinstance(c, Mapping):
                out.append(StoppingCondition.model_validate(c))
            else:
                raise ConfigError(f"until[{i}]: a command string, a dict or a StoppingCondition, "
                                  f"not {type(c).__name__}")
        except ValidationError as e:
            raise ConfigError(_first_error(f"until[{i}]", e)) from None
    if not out:
        raise ConfigError("until=[] is empty; give at least one command that passes when the goal is met")
    return out


def _maker(maker: Sequence[str] | Mapping[str, Any] | MakerSpec | None, maker_type: str,
           maker_model: str | None, maker_timeout: str | float | None, sandbox: str) -> MakerSpec:
    from pydantic import ValidationError

    from .convergence.goal import MakerSpec

    if isinstance(maker, MakerSpec):
        return maker
    try:
        if isinstance(maker, Mapping):
            return MakerSpec.model_validate(maker)
        if isinstance(maker, str):
            raise ConfigError(f"maker={maker!r} is a string; pass an argv list such as "
                              "['my-agent', '{objective}', '{hint}'] (no shell runs)")
        argv = list(maker or [])
        if not all(isinstance(a, str) for a in argv):
            raise ConfigError("maker= must be a list of strings (an argv)")
        spec = MakerSpec.model_validate({"type": maker_type, "argv": argv, "model": maker_model,
                                         "timeout": maker_timeout, "sandbox": sandbox})
    except ValidationError as e:
        raise ConfigError(_first_error("maker", e)) from None
    if not spec.argv and spec.type == "command":
        raise ConfigError("maker= is missing; pass the maker's argv, e.g. maker=['my-agent', '{objective}', '{hint}']")
    return spec


def _first_error(where: str, e: Any) -> str:
    err = e.errors()[0]
    loc = ".".join(str(x) for x in err["loc"])
    return f"{where}{'.' + loc if loc else ''}: {err['msg']}"


def converge(
    objective: str,
    *,
    until: str | Sequence[str | Mapping[str, Any] | StoppingCondition],
    maker: Sequence[str] | Mapping[str, Any] | MakerSpec | None = None,
    maker_type: str = "command",
    maker_model: str | None = None,
    maker_timeout: str | float | None = "30m",
    max_iterations: int | None = 15,
    max_duration: str | float | None = "2h",
    max_dollars: float | None = 10.0,
    oracle: str = "deterministic",
    workspace: str | os.PathLike[str] | None = None,
    protect: Sequence[str] = (),
    allow_edit: Sequence[str] = (),
    sandbox: str = "auto",
    on_event: EventSink | None = None,
    root: str | os.PathLike[str] | None = None,
    engine: str | Engine = "local",
    wait: bool = True,
) -> Goal:
    """Create a goal and iterate its maker until the ``until`` commands pass and the oracle agrees.

    Returns the final :class:`Goal` (``goal.state`` is ``converged``, ``escalated``,
    ``paused`` or ``failed``; ``goal.history`` holds every iteration). Budgets are
    checked before every maker run; ``None`` means unlimited, but some limit on
    iterations or time must remain. The goal is on disk before the maker starts,
    so ``goalkeeper goal show ID`` and ``goal resume ID`` work on it.
    """
    from pydantic import ValidationError

    from .convergence.goal import Budget, Guards, OracleConfig
    from .convergence.lifecycle import create_goal

    if not isinstance(objective, str) or not objective.strip():
        raise ConfigError("objective must be a non-empty string saying what done means")
    home = Path(root) if root is not None else None
    eng = _engine(engine, home)  # an unknown engine fails before the goal exists
    try:
        budget = Budget(max_iterations=max_iterations, max_duration=max_duration, max_dollars=max_dollars)
    except ValidationError as e:
        raise ConfigError(_first_error("budget", e)) from None
    try:
        guards = Guards(protected_paths=list(protect), allow_edit=list(allow_edit))
    except ValidationError as e:
        raise ConfigError(_first_error("guards", e)) from None
    spec = _maker(maker, maker_type, maker_model, maker_timeout, sandbox)
    from .convergence.contracts import maker_types

    if spec.type not in maker_types():  # refused before a goal exists, not after
        raise ConfigError(f"maker type {spec.type!r} is not registered (known: {', '.join(maker_types())}); "
                          "register yours with goalkeeper.convergence.register_maker(name, factory)")
    goal = create_goal(objective, _conditions(until), budget=budget, maker=spec,
                       oracle=OracleConfig(model=oracle), guards=guards,
                       workspace=Path(workspace) if workspace is not None else None, root=home,
                       source={"api": "goalkeeper.converge"})
    return eng.run_goal(goal.goal_id, on_event=on_event, wait=wait)
