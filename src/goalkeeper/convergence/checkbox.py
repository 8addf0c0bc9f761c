"""Where a check runs: fresh folders for each step, and a box around the code under test.

The checks execute the code under test (pytest imports it, coverage traces it), and they
run as the user, so without a box that code can write what the next check reads (the
user's git ignore file, a ``.pth`` in the user site), reach goalkeeper's state (a checkpoint
store named in goalkeeper's environment, read through ``/proc``) and goalkeeper's own helper
folder. With bubblewrap every step (the checks and goalkeeper's own ``coverage json``) runs
in the maker's kind of sandbox:

* ``/`` read-only, HOME included (tool caches stay readable, nothing can be planted there);
* the workspace writable (what the checks write there is found by the tree walk after them)
  and one scratch folder per step (coverage data, the probe's report, tool caches);
* goalkeeper's home and signing keys hidden; a private ``/tmp`` and ``TMPDIR``; its own
  ``/proc`` and PID namespace (goalkeeper's environment cannot be read);
* the step's helper folder (bootstrap, probe, their inputs) bound read-only.

Every step gets folders made for it alone (``mkdtemp``), so nothing an earlier step ran can
have touched what a later one imports; the helper folder is checked for unexpected entries
after its step. Without bubblewrap (``--sandbox none``, or not installed) the helper folder
is made ``0555`` with ``0444`` files: that stops the code under test when it runs as an
ordinary user, not as root (root ignores modes), where only the fresh folders protect
goalkeeper's own steps, and HOME, the user site and goalkeeper's state stay writable: the
goal's start notes this.

The choice follows the goal's ``--sandbox``: ``auto`` boxes the checks when bubblewrap can
run here, ``bwrap`` insists on it, ``none`` never boxes. The baseline records the choice and
every later run uses it, so outcomes are compared under the same conditions.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from ..proc import Policy, Sandbox, bwrap_path

__all__ = ["NO_BOX_NOTICE", "Box", "Step", "box_mode", "lock", "new_step", "step_policy", "unexpected"]

NO_BOX_NOTICE = ("the checks run without a sandbox (bubblewrap is not available or --sandbox none): "
                 "the code under test runs as you and can write outside the workspace")


def box_mode(want: str) -> str:
    """``bwrap`` or ``none`` for the goal's sandbox setting (``auto``, ``bwrap``, ``none``)."""
    if want == "none":
        return "none"
    if bwrap_path() is None:
        if want == "bwrap":
            raise ConfigError("this goal asks for --sandbox bwrap but bubblewrap is not available here; "
                              "install it (apt-get install bubblewrap) or use --sandbox none")
        return "none"
    return "bwrap"


@dataclass(frozen=True, slots=True)
class Box:
    """How the checks of one goal are contained: ``mode`` and what they must not see."""

    mode: str = "none"
    hidden: tuple[Path, ...] = ()
    expose: tuple[Path, ...] = ()  # the toolchain's folders: shown read-only even under the private /tmp


@dataclass(frozen=True, slots=True)
class Step:
    """The folders of one step: ``helpers`` read-only to it, ``out`` and ``tmp`` writable."""

    helpers: Path
    out: Path
    tmp: Path


def new_step(root: Path, label: str) -> Step:
    """Fresh folders for one step under ``root`` (names nobody can guess or have made before)."""
    made = [Path(tempfile.mkdtemp(prefix=f"{label}-{kind}-", dir=root)) for kind in ("h", "o", "t")]
    return Step(*made)


def lock(d: Path) -> None:
    """Make ``d`` and its files read-only (a check that runs as an ordinary user cannot write them)."""
    for name in os.listdir(d):
        os.chmod(d / name, 0o444)
    os.chmod(d, 0o555)


def unexpected(d: Path, expected: Mapping[str, bytes]) -> list[str]:
    """What in ``d`` is not exactly ``expected`` (name -> bytes): extra entries, links, changed bytes."""
    found = []
    try:
        names = set(os.listdir(d))
    except OSError as e:
        return [f"{d}: {e.strerror}"]
    for name in sorted(names - set(expected)):
        found.append(f"{name} (not goalkeeper's)")
    for name, data in sorted(expected.items()):
        p = d / name
        try:
            st = p.lstat()
            same = stat.S_ISREG(st.st_mode) and st.st_size == len(data) and p.read_bytes() == data
        except OSError:
            same = False
        if not same:
            found.append(f"{name} (changed or missing)")
    return found


def step_policy(box: Box, step: Step, ws: Path, env: Mapping[str, str], *, owner: str | None,
                programs: Sequence[str] = (), writable: Sequence[Path] = (), readonly: Sequence[Path] = ()
                ) -> Policy | None:
    """The policy one step runs under (None: no box, the runner's own containment only)."""
    if box.mode != "bwrap":
        return None
    shown_ro = [step.helpers, *readonly]
    home = env.get("HOME")
    if home and os.path.isabs(home) and not _inside(Path(home), ws):
        shown_ro.append(Path(home))  # a HOME under /tmp is shown read-only, as the rest of the disk is
    # programs and files under /tmp (a venv there, on PATH, or a script the command names) are shown
    # read-only, as the rest of the disk is
    shown = [Path(p) for p in (*programs, *env.get("PATH", "").split(os.pathsep)) if p and os.path.isabs(p)]
    shown += box.expose  # a venv under /tmp whose .pth leads to another folder there needs that one too
    sandbox = Sandbox(writable=(ws, step.out, *writable), hidden=box.hidden, tmpdir=step.tmp,
                      expose=tuple(shown), readonly=tuple(shown_ro))
    return Policy(owner=owner, strict=True, sandbox=sandbox)


def _inside(p: Path, root: Path) -> bool:
    try:
        Path(os.path.abspath(p)).relative_to(os.path.abspath(root))
    except ValueError:
        return False
    return True
