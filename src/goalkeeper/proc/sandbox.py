"""A bubblewrap sandbox for makers and checks: the workspace writable, everything else read-only.

What the sandboxed command sees:

* ``/`` bound read-only, so it cannot edit the interpreter, the toolchain
  outside the workspace, or the user's files;
* the workspace (and any extra writable paths, e.g. a coding agent's own
  config dir) bound read-write;
* goalkeeper's state, keys and checkpoints replaced by empty tmpfs mounts:
  the maker cannot read or forge them;
* a private ``/tmp`` and ``/run`` (and ``$XDG_RUNTIME_DIR``): the sockets of
  services that would run a command for it outside its tree (a tmux server,
  dbus, systemd, a docker daemon, ssh-agent) are not there; paths it was
  given under ``/tmp`` (its own script, say) are bound back read-only;
* exact read-only paths (``readonly``), bound after the writable ones, so a
  folder of goalkeeper's inside them stays read-only;
* a private writable ``TMPDIR``, its own ``/proc`` and a new PID namespace
  (it cannot see or signal goalkeeper), a new session (no terminal
  injection), and ``--die-with-parent``.

The network is shared unless ``share_net`` is False (agent CLIs need their API).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["IPC_ENV", "Sandbox", "bwrap_argv", "listening_sockets"]

# Variables that point a process at a service that would run commands for it outside its tree.
IPC_ENV = ("TMUX", "TMUX_PANE", "STY", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS", "SSH_AUTH_SOCK",
           "SSH_AGENT_PID", "GPG_AGENT_INFO", "DOCKER_HOST", "CONTAINER_HOST", "XDG_RUNTIME_DIR", "DISPLAY",
           "WAYLAND_DISPLAY", "KRB5CCNAME", "SYSTEMD_EXEC_PID", "INVOCATION_ID", "TERMUX_", "ZELLIJ", "ZELLIJ_SESSION_NAME")


def listening_sockets() -> list[str]:
    """Path names of the host's listening unix sockets (from /proc/net/unix)."""
    out = []
    try:
        with open("/proc/net/unix", encoding="utf-8", errors="replace") as f:
            next(f, None)
            for line in f:
                parts = line.split()
                if len(parts) >= 8 and parts[5] == "01" and parts[7].startswith("/"):
                    out.append(parts[7])
    except OSError:
        return []
    return sorted(set(out))


@dataclass(frozen=True, slots=True)
class Sandbox:
    writable: tuple[Path, ...]
    hidden: tuple[Path, ...] = ()
    share_net: bool = True
    tmpdir: Path | None = field(default=None)
    expose: tuple[Path, ...] = field(default=())
    # exact paths bound read-only over whatever the binds above made of them (a folder of
    # goalkeeper's own under /tmp that a check reads but must not write)
    readonly: tuple[Path, ...] = field(default=())


def _top(p: Path) -> str | None:
    """``/tmp/x`` for ``/tmp/x/y/z`` (None for /tmp itself)."""
    parts = Path(os.path.abspath(p)).parts
    return str(Path(*parts[:3])) if len(parts) >= 3 else None


def bwrap_argv(exe: str, box: Sandbox, cwd: Path, argv: Sequence[str]) -> list[str]:
    out = [exe, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--new-session",
           "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run"]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime) and not runtime.startswith(("/tmp/", "/run/")):
        out += ["--tmpfs", runtime]
    if not box.share_net:
        out.append("--unshare-net")
    # /tmp and /run are private; a program or script that lives there (a project cloned into /tmp,
    # its venv, the maker's own script) is shown read-only with the whole top-level folder it sits
    # in, as the rest of the disk is: a venv needs its pyvenv.cfg and site-packages, a script the
    # modules beside it.
    candidates = (*box.expose, *([Path(argv[0])] if argv and argv[0].startswith("/") else []))
    exposed = sorted({t for e in candidates if str(e).startswith(("/tmp/", "/run/")) and e.exists()
                      for t in [_top(e)] if t is not None})
    for top in exposed:
        out += ["--ro-bind", top, top]
    for w in box.writable:
        out += ["--bind", str(w), str(w)]
    for r in box.readonly:
        if r.exists():
            out += ["--ro-bind", str(r), str(r)]
    if box.tmpdir is not None:
        out += ["--bind", str(box.tmpdir), str(box.tmpdir)]
        for var in ("TMPDIR", "TEMP", "TMP"):
            out += ["--setenv", var, str(box.tmpdir)]
    for h in box.hidden:
        if h.exists():
            out += ["--tmpfs", str(h)]
    # a socket of a service outside (a tmux server under $HOME, say) is replaced by an empty file
    shadowed = ("/tmp/", "/run/", *(str(w) + "/" for w in box.writable), *(str(h) + "/" for h in box.hidden))
    if runtime:
        shadowed = (*shadowed, runtime.rstrip("/") + "/")
    shown = tuple(t + "/" for t in exposed)  # inside a folder shown from /tmp: still shadowed
    for sock in listening_sockets():
        if (sock.startswith(shown) or not sock.startswith(shadowed)) and os.path.exists(sock):
            out += ["--ro-bind", "/dev/null", sock]
    for var in IPC_ENV:
        out += ["--unsetenv", var]
    out += ["--chdir", str(cwd), "--", *argv]
    return out
