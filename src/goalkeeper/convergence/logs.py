"""What each phase printed, kept per iteration (bounded): the maker's output and every check's.

``<home>/goals/<goalId>.logs/iteration-0003.maker.log``, ``...checks-1.log``;
each file holds at most the last :data:`LOG_BYTES` of the output. Read by
``goal logs``, ``goal show -v`` and the MCP ``goal_logs`` tool.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ..errors import StoreError
from ..store import goals as gstore
from ..store.atomic import write_text_atomic
from ..store.safe import read_tail

__all__ = ["LOG_BYTES", "log_dir", "read_logs", "write_log"]

LOG_BYTES = 64_000
_NAME = re.compile(r"^iteration-(\d{4,})\.([a-z]+)(?:-(\d+))?\.log$")


def log_dir(goal_id: str, root: Path | None = None) -> Path:
    return gstore.goals_dir(root) / f"{goal_id}.logs"


def write_log(goal_id: str, iteration: int, phase: str, text: str, root: Path | None = None,
              index: int | None = None) -> Path:
    name = f"iteration-{iteration:04d}.{phase}" + (f"-{index}" if index is not None else "") + ".log"
    body = text if len(text) <= LOG_BYTES else "[... earlier output cut ...]\n" + text[-LOG_BYTES:]
    p = log_dir(goal_id, root) / name
    write_text_atomic(p, body)  # a home file: store.atomic redacts it
    return p


def read_logs(goal_id: str, iteration: int | None = None, root: Path | None = None) -> list[dict[str, Any]]:
    """``[{iteration, phase, index, text}]`` in order; ``iteration`` picks one."""
    d = log_dir(goal_id, root)
    if os.path.islink(d) or not d.is_dir():
        return []  # a linked folder is no log of ours (writes refuse it too)
    out = []
    for p in sorted(d.iterdir()):
        m = _NAME.match(p.name)
        if not m or (iteration is not None and int(m.group(1)) != iteration):
            continue
        try:  # the tail only, no link followed, a FIFO never waited on
            text = read_tail(p, limit=LOG_BYTES * 2, root=root).decode("utf-8", "replace")
        except (OSError, StoreError):
            continue
        out.append({"iteration": int(m.group(1)), "phase": m.group(2),
                    "index": int(m.group(3)) if m.group(3) else None, "text": text})
    return out
