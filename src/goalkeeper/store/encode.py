"""Values made safe to write as JSON: the one rule every goalkeeper output follows.

Lower than the CLI so the MCP server, the hooks and the reports share it without
importing the command line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["json_safe"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def json_safe(obj: Any) -> Any:
    """``obj`` with every string free of lone surrogates, NaN/inf as null, keys as strings."""
    if isinstance(obj, str):
        return _SURROGATE.sub("\ufffd", obj)
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, Mapping):
        return {json_safe(k if isinstance(k, str) else str(k)): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    if obj is None or isinstance(obj, bool | int):
        return obj
    return json_safe(str(obj))
