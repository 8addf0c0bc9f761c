"""Compatibility name: redaction lives in :mod:`goalkeeper.store.redact`, where every home write applies it."""

from ..store.redact import MASK, redact, redact_obj, secret_values

__all__ = ["MASK", "redact", "redact_obj", "secret_values"]
