"""Where the Temporal cluster is and how to reach it: flags, then env vars, then a TOML file.

Precedence, highest first: command-line flags; ``GOALKEEPER_TEMPORAL_*`` env
vars (``TEMPORAL_ADDRESS``/``TEMPORAL_NAMESPACE``/``TEMPORAL_API_KEY`` as used
by the ``temporal`` CLI also work); the ``[temporal]`` table of
``$GOALKEEPER_TEMPORAL_CONFIG`` or ``$GOALKEEPER_HOME/config.toml``; defaults.
An API key (Temporal Cloud) turns TLS on unless ``tls = false`` is explicit.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import ConfigError, MissingExtraError
from ...store.home import home

if TYPE_CHECKING:
    from temporalio.client import Client

__all__ = ["ENV_PREFIX", "TemporalConfig", "connect", "load_config", "require_temporalio"]

ENV_PREFIX = "GOALKEEPER_TEMPORAL_"
_ALIASES = {"address": "TEMPORAL_ADDRESS", "namespace": "TEMPORAL_NAMESPACE", "api_key": "TEMPORAL_API_KEY"}
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True, slots=True, kw_only=True)
class TemporalConfig:
    """Connection and routing settings; ``heartbeat_seconds`` bounds how fast a dead worker is noticed."""

    address: str = "127.0.0.1:7233"
    namespace: str = "default"
    task_queue: str = "goalkeeper"
    tls: bool | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_ca: str | None = None
    tls_server_name: str | None = None
    api_key: str | None = None
    heartbeat_seconds: float = 20.0
    sticky_timeout_seconds: float = 5.0

    def redacted(self) -> dict[str, Any]:
        """For logs and ``--json`` output: never print the API key."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        if out["api_key"]:
            out["api_key"] = "***"
        return out


def _coerce(name: str, value: Any, where: str) -> Any:
    kind = {f.name: f.type for f in fields(TemporalConfig)}[name]
    if value is None:
        return None
    if "bool" in str(kind):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise ConfigError(f"{where}: {name} must be true or false, not {value!r}")
    if "float" in str(kind):
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: {name} must be a number of seconds, not {value!r}") from None
        if not seconds > 0 or seconds == float("inf"):
            raise ConfigError(f"{where}: {name} must be a positive number of seconds, not {value!r}")
        return seconds
    return str(value)


def _file_values(env: Mapping[str, str]) -> tuple[dict[str, Any], str]:
    explicit = env.get("GOALKEEPER_TEMPORAL_CONFIG")
    path = Path(explicit) if explicit else home() / "config.toml"
    if not path.exists():
        if explicit:
            raise ConfigError(f"GOALKEEPER_TEMPORAL_CONFIG points at {path}, which does not exist")
        return {}, str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML ({e})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read the config file ({e})") from None
    table = data.get("temporal", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [temporal] must be a table")
    known = {f.name for f in fields(TemporalConfig)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{path}: [temporal] has unknown keys {unknown}; known: {sorted(known)}")
    return dict(table), str(path)


def load_config(
    flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
) -> TemporalConfig:
    """Merge defaults < config file < env vars < flags (``None`` flags are ignored)."""
    env = os.environ if env is None else env
    cfg = TemporalConfig()
    values, path = _file_values(env)
    cfg = replace(cfg, **{k: _coerce(k, v, path) for k, v in values.items()})
    for f in fields(TemporalConfig):
        raw = env.get(ENV_PREFIX + f.name.upper())
        if raw is None and f.name in _ALIASES:
            raw = env.get(_ALIASES[f.name])
        if raw is not None and raw != "":
            cfg = replace(cfg, **{f.name: _coerce(f.name, raw, ENV_PREFIX + f.name.upper())})
    for k, v in (flags or {}).items():
        if v is not None:
            cfg = replace(cfg, **{k: _coerce(k, v, f"--{k.replace('_', '-')}")})
    if bool(cfg.tls_cert) != bool(cfg.tls_key):
        raise ConfigError("mTLS needs both tls_cert and tls_key (GOALKEEPER_TEMPORAL_TLS_CERT/_KEY)")
    return cfg


def require_temporalio() -> None:
    """Raise the install line when the ``temporal`` extra is missing."""
    try:
        import temporalio  # noqa: F401
    except ImportError:
        raise MissingExtraError("temporalio", "temporal") from None


def _read(path: str | None, what: str) -> bytes | None:
    if path is None:
        return None
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise ConfigError(f"cannot read the {what} {path}: {e.strerror}") from None


async def connect(cfg: TemporalConfig) -> Client:
    """A client for ``cfg``; a cluster that is not there is a ConfigError naming the address."""
    require_temporalio()
    from temporalio.client import Client
    from temporalio.service import TLSConfig

    tls: bool | TLSConfig = bool(cfg.tls) if cfg.tls is not None else bool(cfg.api_key)
    if cfg.tls_cert or cfg.tls_ca or cfg.tls_server_name:
        tls = TLSConfig(
            server_root_ca_cert=_read(cfg.tls_ca, "CA certificate"),
            client_cert=_read(cfg.tls_cert, "client certificate"),
            client_private_key=_read(cfg.tls_key, "client key"),
            domain=cfg.tls_server_name,
        )
    try:
        return await Client.connect(
            cfg.address, namespace=cfg.namespace, api_key=cfg.api_key, tls=tls,
            connect_timeout=timedelta(seconds=10),
        )
    except (RuntimeError, ValueError) as e:
        raise ConfigError(
            f"cannot reach Temporal at {cfg.address} (namespace {cfg.namespace}): {e}; "
            "start one with `temporal server start-dev` or pass --address HOST:PORT"
        ) from None
