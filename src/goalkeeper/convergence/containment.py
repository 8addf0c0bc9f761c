"""How a maker is contained: its sandbox (when bubblewrap is there) and its process policy.

Everything the maker starts belongs to one owner, so it can be ended when the
phase ends; the sandbox hides goalkeeper's home and the signing keys and lets it
write only the workspace; ``GOALKEEPER_*`` variables are dropped but for the few
a maker is told.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError
from ..proc import Policy, bwrap_path
from ..proc.sandbox import Sandbox
from . import ledger
from .goal import Goal

__all__ = ["KEEP_ENV", "maker_policy", "sandbox_mode"]

KEEP_ENV = ("GOALKEEPER_OBJECTIVE", "GOALKEEPER_HINT", "GOALKEEPER_ITERATION", "GOALKEEPER_GOAL_ID",
            "GOALKEEPER_WORKSPACE")


def sandbox_mode(goal: Goal) -> str:
    """``bwrap``, ``none``, or ``none (bubblewrap not installed)`` (when ``auto`` found none)."""
    want = goal.maker.sandbox
    if want == "none" or (want == "auto" and goal.maker.type != "command"):
        return "none"
    if bwrap_path() is None:
        if want == "bwrap":
            raise ConfigError("this goal asks for --sandbox bwrap but bubblewrap is not available here; "
                              "install it (apt-get install bubblewrap) or use --sandbox none")
        return "none (bubblewrap not installed)"
    return "bwrap"


def maker_policy(goal: Goal, ws: Path, *, owner: str, home: Path, tmp: Path) -> Policy:
    """The policy one maker call runs under (``tmp`` is its private temporary folder)."""
    box = None
    if sandbox_mode(goal) == "bwrap":
        given = tuple(Path(a) for a in goal.maker.argv if a.startswith("/"))
        box = Sandbox(writable=(ws,), hidden=(home, ledger.keys_dir()), tmpdir=tmp, expose=given)
    return Policy(owner=owner, strict=True, sandbox=box, drop_env_prefixes=("GOALKEEPER_",), keep_env=KEEP_ENV)
