"""Secrets never reach disk: credential values and well-known key shapes are masked.

Applied by ``store.atomic`` to everything goalkeeper writes under its home
(events, goal files, run state, triage items, logs, reports). Two sources of secrets:

* the **values** of environment variables whose names look like credentials
  (``*KEY*``, ``*TOKEN*``, ``*SECRET*``, ``*PASSWORD*``, ``*CREDENTIAL*``, the
  provider keys, ...), at least 8 characters long;
* well-known **shapes**: ``sk-...`` API keys, GitHub, GitLab, Slack, AWS and
  Google keys, JWTs, ``Authorization: Bearer ...`` headers, PEM private keys.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["MASK", "is_secret_name", "redact", "redact_obj", "secret_names", "secret_values"]

MASK = "[redacted]"
_NAMES = re.compile(r"KEY|TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|(?:^|_)PAT(?:$|_)", re.I)
_NOT_SECRET = frozenset({"GOALKEEPER_KEYS", "SSH_AUTH_SOCK", "XAUTHORITY", "KEYTIMEOUT", "GPG_AGENT_INFO"})
_SHAPES = re.compile(
    # A key without its END line stops at a quote: the text may be serialised JSON.
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|(?=\")|\Z)"
    r"|\b(?:sk|rk|pk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{16,}"
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bglpat-[A-Za-z0-9_\-]{16,}"
    r"|\bxox[abposr]-[A-Za-z0-9\-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_\-]{30,}"
    r"|\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"
    r"|(?i:(?<=authorization: )(?:bearer|basic|token) [^\s\"',;]{8,})"
    r"|(?i:(?<=x-api-key: )[^\s\"',;]{8,})"
    r"|(?<=://)[^/\s:@\"']+:[^/\s@\"']+(?=@)"  # user:password in a URL
)


def is_secret_name(name: str) -> bool:
    """A variable whose value is masked wherever goalkeeper writes (``*TOKEN*``, ``*KEY*`` ...)."""
    return bool(_NAMES.search(name)) and name not in _NOT_SECRET


def secret_names(env: Mapping[str, str]) -> list[str]:
    """The credential-like names in ``env`` that carry a value worth masking (see the module docstring).

    Such a value given *to* goalkeeper (``--check-env MY_TOKEN=...``) would have to be stored
    with the goal, in the state home, so callers refuse it: export it instead, and the checks
    inherit it from the environment, masked in every file.
    """
    return sorted(k for k, v in env.items() if (is_secret_name(k) and len(v) >= 8) or _SHAPES.search(v))


def secret_values(env: Mapping[str, str] | None = None) -> list[str]:
    """Values of credential-like variables, longest first (so a value inside another is not half-masked)."""
    env = os.environ if env is None else env
    vals = {v for k, v in env.items() if _NAMES.search(k) and k not in _NOT_SECRET and len(v) >= 8}
    return sorted(vals, key=len, reverse=True)


def redact(text: str, env: Mapping[str, str] | None = None) -> str:
    if not text:
        return text
    for v in secret_values(env):
        if v in text:
            text = text.replace(v, MASK)
    return _SHAPES.sub(MASK, text)


def redact_obj(obj: Any, env: Mapping[str, str] | None = None) -> Any:
    """``redact`` on every string inside a JSON-like value (keys included)."""
    secrets = secret_values(env)

    def walk(x: Any) -> Any:
        if isinstance(x, str):
            for v in secrets:
                if v in x:
                    x = x.replace(v, MASK)
            return _SHAPES.sub(MASK, x)
        if isinstance(x, dict):
            return {walk(k): walk(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [walk(v) for v in x]
        return x

    return walk(obj)
