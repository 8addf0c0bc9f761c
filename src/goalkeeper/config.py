"""Defaults for ``goal new`` from configuration files, so a team states them once.

Precedence, highest first: command-line flags > ``[tool.goalkeeper.goal]`` in the
workspace's ``pyproject.toml`` > ``[goal]`` in ``$GOALKEEPER_HOME/config.toml``
(the state home, wherever it was found) > goalkeeper's built-in defaults. A key
set in a higher layer replaces the lower one's value, lists included; the three
``KEY = VALUE`` tables (``maker-option``, ``oracle-option``, ``check-env``) merge
key by key instead.

Keys are the ``goal new`` flags without their dashes (``max-iterations``,
``allow-edit``, ``maker-option``...); ``default-protect = false`` is
``--no-default-protect``. A bad file is a :class:`~goalkeeper.errors.ConfigError`
that names the file, the line when it can be found, the key and the fix.

Example ``pyproject.toml``::

    [tool.goalkeeper.goal]
    maker-type = "claude-code"
    oracle = "openai:gpt-4.1-mini"
    max-dollars = 5
    allow-edit = ["pyproject.toml"]
"""

from __future__ import annotations

import difflib
import json
import math
import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .convergence.goal import LONGEST_SECONDS, parse_duration
from .errors import ConfigError
from .store.home import home, workspace_root
from .store.safe import read_bounded

__all__ = [
    "CONFIG_NAME",
    "ConfigFile",
    "GoalDefaults",
    "Layer",
    "config_json_schema",
    "config_schema_text",
    "goal_defaults",
    "load_layers",
]

CONFIG_NAME = "config.toml"
_MAX_BYTES = 1 << 20
Scalar = str | int | float | bool


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class GoalDefaults(BaseModel):
    """Defaults for ``goal new``; every key is the flag of the same name."""

    model_config = ConfigDict(alias_generator=_kebab, populate_by_name=False, extra="forbid")

    maker: str | list[str] | None = Field(default=None, description="the maker command (--maker)")
    maker_type: str | None = Field(default=None, description="command, host, or a coding-agent CLI (--maker-type)")
    maker_model: str | None = Field(default=None, description="the maker's model (--maker-model)")
    maker_timeout: str | float | None = Field(default=None, description="per-iteration timeout, '30m' (--maker-timeout)")
    maker_option: dict[str, Scalar | list[str]] | None = Field(
        default=None, description="coding-agent maker settings (--maker-option KEY=VALUE)")
    oracle: str | None = Field(default=None, description="deterministic, openai:MODEL, ... (--oracle)")
    oracle_option: dict[str, Scalar | list[str]] | None = Field(
        default=None, description="oracle provider settings (--oracle-option KEY=VALUE)")
    max_iterations: int | Literal["none"] | None = Field(default=None, description="a number, or \"none\"")
    max_duration: str | float | None = Field(default=None, description="'2h', '30m', seconds, or \"none\"")
    max_dollars: float | Literal["none"] | None = Field(default=None, description="a number, or \"none\"")
    protect: list[str] | None = Field(default=None, description="extra sealed globs (--protect)")
    allow_edit: list[str] | None = Field(default=None, description="protected globs the maker may change (--allow-edit)")
    default_protect: bool | None = Field(default=None, description="false = --no-default-protect")
    check_output: list[str] | None = Field(default=None, description="files the checks create (--check-output)")
    check_env: dict[str, str] | None = Field(default=None, description="variables the checks run with (--check-env)")
    sandbox: Literal["auto", "bwrap", "none"] | None = Field(default=None, description="--sandbox")
    no_progress: int | None = Field(default=None, ge=1, description="iterations without change before no_progress")

    @field_validator("max_iterations", "max_dollars", "no_progress", "max_duration", "maker_timeout", mode="before")
    @classmethod
    def _not_a_boolean(cls, v: object) -> object:
        if isinstance(v, bool):  # TOML true would otherwise be read as the number 1
            raise ValueError("expected a number, not true/false")
        return v

    @field_validator("max_iterations")
    @classmethod
    def _positive(cls, v: int | str | None) -> int | str | None:
        if isinstance(v, int) and v < 1:
            raise ValueError("must be at least 1, or \"none\"")
        return v

    @field_validator("max_dollars")
    @classmethod
    def _dollars(cls, v: float | str | None) -> float | str | None:
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError("must be a finite number of dollars, or \"none\"")
        if isinstance(v, float) and v < 0:
            raise ValueError("must be 0 or more, or \"none\"")
        return v

    @field_validator("maker")
    @classmethod
    def _command(cls, v: str | list[str] | None) -> str | list[str] | None:
        if isinstance(v, str):
            try:
                shlex.split(v)
            except ValueError as e:
                raise ValueError(f"cannot split {v!r} into words ({e}); close the quote, or write an argv list") from None
        return v

    @field_validator("check_env")
    @classmethod
    def _env(cls, v: dict[str, str] | None) -> dict[str, str] | None:
        for k, x in (v or {}).items():
            if not k or "=" in k or "\0" in k:
                raise ValueError(f"{k!r} is no variable name a process can have (empty, or with = or NUL)")
            if "\0" in x:
                raise ValueError(f"the value of {k} holds a NUL byte, which no environment can carry")
        return v

    @field_validator("max_duration", "maker_timeout")
    @classmethod
    def _duration(cls, v: str | float | None) -> str | float | None:
        if v is None or (isinstance(v, str) and v.lower() in ("none", "unlimited")):
            return v
        try:
            seconds = parse_duration(v)
        except ConfigError as e:
            raise ValueError(str(e)) from None
        if seconds is None or seconds <= 0 or not math.isfinite(seconds):
            raise ValueError("a duration must be positive and finite")
        if seconds > LONGEST_SECONDS:
            raise ValueError("a duration must be at most ten years ('3650d')")
        return v

    def set_keys(self) -> dict[str, Any]:
        """The keys this file sets (kebab-case), with their values."""
        return self.model_dump(by_alias=True, exclude_none=True)


class ConfigFile(BaseModel):
    """``config.toml`` in the state home; ``[tool.goalkeeper]`` in pyproject.toml has the same shape."""

    model_config = ConfigDict(extra="forbid")

    goal: GoalDefaults = Field(default_factory=GoalDefaults, description="defaults for `goalkeeper goal new`")


@dataclass(frozen=True, slots=True)
class Layer:
    """One configuration file that applies: where it is, how to name a key in it, what it sets."""

    path: Path
    prefix: str  # "goal" or "tool.goalkeeper.goal": how a key path is written in this file
    values: dict[str, Any]

    def where(self, key: str) -> str:
        return f"{self.path}: {self.prefix}.{key}"


def config_json_schema() -> dict[str, Any]:
    schema = ConfigFile.model_json_schema(mode="validation", by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://goalkeeper.dev/schemas/config.schema.json"
    schema["title"] = "goalkeeper configuration"
    schema["description"] = (
        "$GOALKEEPER_HOME/config.toml, or [tool.goalkeeper] in a workspace's pyproject.toml (same shape). "
        "Precedence: flags > pyproject.toml > config.toml > built-in defaults."
    )
    return schema


def config_schema_text() -> str:
    return json.dumps(config_json_schema(), indent=2, sort_keys=True) + "\n"


def _read_toml(path: Path) -> tuple[dict[str, Any], str] | None:
    try:
        raw = read_bounded(path, limit=_MAX_BYTES, follow_symlinks=True,
                           refuse=lambda problem: ConfigError(f"{path}: cannot read it: it {problem}"))
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}; fix the file (https://toml.io)") from None
    except RecursionError:  # tomllib nests by recursion: a few thousand brackets
        raise ConfigError(f"{path}: arrays or tables nested too deeply to read; no goalkeeper setting nests "
                          "more than two levels") from None


def _line_of(text: str, key: str) -> int | None:
    """The first line that assigns ``key`` (a good enough pointer for an error message)."""
    pat = re.compile(r"^\s*(?:[\w.-]+\.)?" + re.escape(key) + r"\s*=")
    for n, line in enumerate(text.splitlines(), 1):
        if pat.match(line):
            return n
    return None


_EXPECT = {
    "max-iterations": 'a whole number of at least 1, or "none"',
    "max-dollars": 'a number of dollars, or "none"',
    "max-duration": "a duration like '2h', '30m' or a number of seconds",
    "maker-timeout": "a duration like '30m' or a number of seconds",
    "maker": "a command line (text) or an argv list of strings",
    "maker-option": "a table of KEY = VALUE",
    "oracle-option": "a table of KEY = VALUE",
}
_KNOWN = sorted(_kebab(n) for n in GoalDefaults.model_fields)


def _refuse(path: Path, text: str, prefix: str, err: ValidationError) -> ConfigError:
    first = err.errors()[0]
    loc = [str(x) for x in first["loc"]][:2]  # deeper parts name union branches, not keys
    key = ".".join(loc)
    top = loc[0] if loc else ""
    leaf = loc[1] if len(loc) > 1 and loc[0] == "goal" else top
    line = _line_of(text, leaf) if leaf else None
    at = f"{path}:{line}" if line else str(path)
    shown = f"{prefix.rsplit('.', 1)[0]}.{key}" if prefix != "goal" else key
    if first["type"] == "extra_forbidden":
        if len(loc) == 1:
            return ConfigError(f"{at}: {shown}: unknown section; the only section is "
                               f"[{'tool.goalkeeper.' if prefix != 'goal' else ''}goal] (defaults for `goal new`)")
        close = difflib.get_close_matches(leaf, _KNOWN, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return ConfigError(f"{at}: {shown}: unknown key{hint}; known keys: {', '.join(_KNOWN)}")
    msg = str(first["msg"]).removeprefix("Value error, ")
    if len(first["loc"]) > 2 and leaf in _EXPECT:
        msg = f"expected {_EXPECT[leaf]}"
    got = first.get("input")
    value = f" (got {json.dumps(got, default=str)[:60]})" if got is not None and not isinstance(got, dict) else ""
    return ConfigError(f"{at}: {shown}: {msg}{value}; fix the value or remove the key")


def _layer(path: Path, data: dict[str, Any], text: str, prefix: str) -> Layer:
    try:
        cfg = ConfigFile.model_validate(data)
    except ValidationError as e:
        raise _refuse(path, text, prefix, e) from None
    return Layer(path, prefix, cfg.goal.set_keys())


def _pyproject(workspace: Path) -> Path | None:
    """The nearest pyproject.toml from the workspace up to its repository's top level."""
    top = workspace_root(workspace)
    here = workspace.absolute()
    for d in (here, *here.parents):
        if (d / "pyproject.toml").is_file():
            return d / "pyproject.toml"
        if d == top:
            break
    return None


def load_layers(workspace: str | Path | None = None, root: Path | None = None) -> list[Layer]:
    """The configuration files that apply, lowest precedence first (home config, then pyproject)."""
    out: list[Layer] = []
    home_cfg = (root or home()) / CONFIG_NAME
    got = _read_toml(home_cfg)
    if got is not None:
        out.append(_layer(home_cfg, got[0], got[1], "goal"))
    py = _pyproject(Path(workspace) if workspace else Path.cwd())
    if py is not None:
        got = _read_toml(py)
        tool = got[0].get("tool", {}) if got else {}
        section = tool.get("goalkeeper") if isinstance(tool, dict) else None
        if got is not None and section is not None:
            if not isinstance(section, dict):
                raise ConfigError(f"{py}: tool.goalkeeper must be a table ([tool.goalkeeper.goal])")
            out.append(_layer(py, section, got[1], "tool.goalkeeper.goal"))
    return out


_TABLES = ("maker-option", "oracle-option", "check-env")


def goal_defaults(workspace: str | Path | None = None, root: Path | None = None) -> dict[str, tuple[Any, Layer]]:
    """Every key some file sets, merged by precedence: ``key -> (value, the layer it came from)``.

    The ``KEY = VALUE`` tables merge key by key (the higher layer wins per key).
    """
    merged: dict[str, tuple[Any, Layer]] = {}
    for layer in load_layers(workspace, root):
        for key, value in layer.values.items():
            if key in _TABLES and key in merged:
                value = {**merged[key][0], **value}
            merged[key] = (value, layer)
    return merged
