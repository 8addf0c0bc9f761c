"""Which iteration last changed each line a failing test's traceback points at.

Tells the maker (and the reader of ``goal show``) whether a failure is in code it
wrote or in code it inherited from the baseline (iteration 0).
"""

from __future__ import annotations

from ..errors import GoalkeeperError
from .checkpoints import Checkpoint
from .goal import Goal, Iteration
from .seal import Seal

__all__ = ["blame_failures"]

_MAX_FILES = 50  # one git blame per file: bounded, a traceback can name hundreds


def blame_failures(seal: Seal, goal: Goal, rec: Iteration) -> None:
    """Set ``changedIn`` on every frame of every failure in ``rec`` (None where unknown)."""
    if not (rec.checkpoint and rec.checkpoint_tree) or not any(c.failures for c in rec.condition_results):
        return
    owner = {h.checkpoint: h.iteration for h in goal.history if h.checkpoint}
    base = seal.baseline_checkpoint
    if base is not None:
        owner[base.commit] = 0
    cp = Checkpoint(rec.checkpoint, rec.checkpoint_tree)
    wanted: dict[str, set[int]] = {}
    for c in rec.condition_results:
        for f in c.failures:
            for fr in f.get("frames", []):
                wanted.setdefault(str(fr.get("path")), set()).add(int(fr.get("line") or 0))
    found: dict[tuple[str, int], int | None] = {}
    for path, lines in list(wanted.items())[:_MAX_FILES]:
        try:
            for line, commit in seal.store.blame(cp, path, lines).items():
                found[(path, line)] = owner.get(commit)
        except (OSError, GoalkeeperError):
            continue
    for c in rec.condition_results:
        new = []
        for f in c.failures:
            frames = [{**fr, "changedIn": found.get((str(fr.get("path")), int(fr.get("line") or 0)))}
                      for fr in f.get("frames", [])]
            new.append({**f, "frames": frames})
        c.failures = new
