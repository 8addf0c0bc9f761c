"""Where state lives: ``$GOALKEEPER_HOME`` or ``./.goalkeeper``."""

from __future__ import annotations

import os
import secrets
import string
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["home", "new_id", "now_iso"]

_ALPHABET = string.ascii_lowercase + string.digits


def home() -> Path:
    env = os.environ.get("GOALKEEPER_HOME")
    return Path(env) if env else Path.cwd() / ".goalkeeper"


def new_id(prefix: str, n: int = 8) -> str:
    return f"{prefix}-" + "".join(secrets.choice(_ALPHABET) for _ in range(n))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
