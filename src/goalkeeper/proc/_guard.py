"""The containment guard: runs ONE command and makes sure nothing it started outlives it.

This file is executed as a script (``python -I -S _guard.py ...``), never
imported by goalkeeper, so it uses the standard library only and starts fast.

    _guard.py MODE GRACE OWNER REPORT_FD PARENT -- ARGV...

MODE is how descendants are contained:

``pidns``
    unshare(CLONE_NEWPID) (with a user namespace when not root) and fork: the
    child is init (pid 1) of a fresh PID namespace and starts the command.
    When the command exits, init kills everything left in the namespace
    (``kill(-1)`` from pid 1 only reaches the namespace), so a daemon that
    double-forked and called setsid dies with it. Signals from inside the
    namespace cannot kill its init, and init dies (taking the namespace with
    it) when this guard dies.
``reaper``
    No namespace available: the guard becomes a child subreaper, so orphaned
    descendants are re-parented to it, and kills every descendant it can see
    in /proc when the command ends.
``plain``
    The command is already contained by its wrapper (bubblewrap with
    --unshare-pid --die-with-parent); the guard only ties it to goalkeeper.
``scoped``
    As ``plain``, and the guard first puts itself (and so the command) in a
    Landlock domain scoped against abstract unix sockets and signals (Linux
    6.12+): the sandbox cannot reach a service listening on an abstract
    socket outside it, nor signal a process outside it.

In every mode the guard dies with goalkeeper (``PR_SET_PDEATHSIG``), and a
SIGTERM to the guard (a timeout) becomes SIGTERM to the whole tree, then
SIGKILL after GRACE seconds. The guard exits with the command's status (a
command killed by signal N makes the guard exit 128 + N and say so on
REPORT_FD, a pipe only the guard holds; -1 for none). OWNER is put in the command's environment as
GOALKEEPER_PROC_OWNER so a later goalkeeper can find leftovers of a crash.
PARENT is goalkeeper's pid: a guard that finds another parent when it starts
(goalkeeper died while it was starting) runs nothing.
"""

import contextlib
import ctypes
import errno
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
WATCH = (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

_libc = ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, arg: int) -> None:
    _libc.prctl(option, arg, 0, 0, 0)


REPORT = [-1]


def _report(text: str) -> None:
    if REPORT[0] < 0:
        return
    with contextlib.suppress(OSError):
        os.write(REPORT[0], (text + "\n").encode())


def _children_of(pid: int) -> list[int]:
    """Direct children of ``pid``: every task's ``children`` file, or a /proc scan without them."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
        for tid in tids:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(int(x) for x in f.read().split())
        return out
    except (OSError, ValueError):
        out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(name))
        except (OSError, ValueError, IndexError):
            continue
    return out


def _descendants(pid: int) -> list[int]:
    seen: list[int] = []
    todo = [pid]
    while todo:
        for c in _children_of(todo.pop()):
            if c not in seen:
                seen.append(c)
                todo.append(c)
    return seen


def _signal_all(sig: int, pidns: bool) -> int:
    """Send ``sig`` to everything the guard contains; returns how many were found."""
    if pidns:
        try:
            os.kill(-1, sig)  # from pid 1: every process of this namespace
        except ProcessLookupError:
            return 0
        return 1
    victims = _descendants(os.getpid())
    for p in victims:
        with contextlib.suppress(OSError):
            os.kill(p, sig)
    return len(victims)


def _reap(main_pid: int, status: list[int]) -> bool:
    """Collect every exited child; True once ``main_pid`` is among them."""
    done = False
    while True:
        try:
            pid, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            return done
        if pid == main_pid:
            status.append(st)
            done = True


def _end_all(pidns: bool, grace: float) -> None:
    """SIGSTOP (so nothing forks while we look), SIGTERM, then SIGKILL after ``grace``."""
    if _signal_all(signal.SIGTERM, pidns) and grace > 0:
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            _reap(-1, [])
            if not (_descendants(os.getpid()) if not pidns else _any_child()):
                return
            signal.sigtimedwait([signal.SIGCHLD], 0.05)
    for _ in range(50):
        if pidns:
            _signal_all(signal.SIGKILL, True)
        else:
            _signal_all(signal.SIGSTOP, False)
            _signal_all(signal.SIGKILL, False)
        _reap(-1, [])
        if not (_any_child() if pidns else _descendants(os.getpid())):
            return
        signal.sigtimedwait([signal.SIGCHLD], 0.02)


def _any_child() -> bool:
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return False
    return True if pid == 0 else _any_child()


def _exit_code(st: int) -> int:
    if os.WIFSIGNALED(st):
        _report(f"signal {os.WTERMSIG(st)}")
        return 128 + os.WTERMSIG(st)
    return os.waitstatus_to_exitcode(st)


def _supervise(argv: list[str], env: dict[str, str], grace: float, pidns: bool, parent: int) -> int:
    """Start ``argv``, wait for it (or for a stop signal), then end everything it left."""
    try:
        main = os.posix_spawnp(argv[0], argv, env, setsid=True, setsigmask=())
    except OSError as e:
        _report(f"spawn {e.errno} {e.strerror}")
        sys.stderr.write(f"cannot run {argv[0]!r}: {e.strerror}\n")
        return 127
    status: list[int] = []
    stopping = False
    while True:
        sig = signal.sigtimedwait(WATCH, 0.5)
        if _reap(main, status):
            break
        if sig is not None and sig.si_signo != signal.SIGCHLD and not stopping:
            stopping = True
            with contextlib.suppress(OSError):
                os.killpg(main, signal.SIGTERM)
            _end_all(pidns, grace)
            _reap(main, status)
            break
        if parent and os.getppid() != parent:  # goalkeeper died and PDEATHSIG was lost
            _end_all(pidns, 0)
            _reap(main, status)
            break
    _end_all(pidns, 0 if not stopping else grace)
    return _exit_code(status[0]) if status else 137


def _landlock_scope() -> bool:
    """Scope this process against abstract unix sockets and signals outside it (Landlock ABI 6)."""
    class Attr(ctypes.Structure):
        _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]

    syscall = _libc.syscall
    syscall.restype = ctypes.c_long
    abi = syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))  # LANDLOCK_CREATE_RULESET_VERSION
    if abi < 6:
        return False
    attr = Attr(0, 0, 0b11)  # LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL
    fd = syscall(444, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), ctypes.c_uint32(0))
    if fd < 0:
        return False
    try:
        if _libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            return False
        return syscall(446, ctypes.c_int(fd), ctypes.c_uint32(0)) == 0
    finally:
        os.close(fd)


def _enter_pidns() -> bool:
    flags = CLONE_NEWPID if os.geteuid() == 0 else CLONE_NEWPID | CLONE_NEWUSER
    uid, gid = os.getuid(), os.getgid()
    if _libc.unshare(flags) != 0:
        return False
    if flags & CLONE_NEWUSER:  # keep our own uid inside: files stay ours, tools see no fake root
        try:
            with open("/proc/self/setgroups", "w") as f:
                f.write("deny")
            with open("/proc/self/uid_map", "w") as f:
                f.write(f"{uid} {uid} 1")
            with open("/proc/self/gid_map", "w") as f:
                f.write(f"{gid} {gid} 1")
        except OSError:
            return False
    return True


def _as_init(argv: list[str], env: dict[str, str], grace: float) -> None:
    """pid 1 of the new namespace: die with the guard, supervise, exit with the command's code."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    for sig in WATCH:  # init only receives signals it has a handler for
        signal.signal(sig, lambda *_: None)
    code = _supervise(argv, env, grace, True, 0)
    os._exit(code)


def _outer(init: int, parent: int) -> int:
    """Wait for init; a stop request or goalkeeper's death is passed on to it."""
    status: list[int] = []
    while True:
        sig = signal.sigtimedwait(WATCH, 0.5)
        if _reap(init, status):
            break
        if os.getppid() != parent:
            os.kill(init, signal.SIGKILL)  # the namespace dies with its init
        elif sig is not None and sig.si_signo != signal.SIGCHLD:
            with contextlib.suppress(OSError):
                os.kill(init, signal.SIGTERM)  # init turns it into TERM, wait, KILL for all
    st = status[0] if status else 0
    return os.waitstatus_to_exitcode(st) if status and not os.WIFSIGNALED(st) else 137


def main() -> int:
    mode, grace, owner, REPORT[0] = sys.argv[1], float(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    parent = int(sys.argv[5])
    argv = sys.argv[7:]
    if REPORT[0] >= 0:
        try:
            os.set_inheritable(REPORT[0], False)  # the report pipe is ours, not the command's
        except OSError:
            REPORT[0] = -1
    env = dict(os.environ)
    env["GOALKEEPER_PROC_OWNER"] = owner
    signal.pthread_sigmask(signal.SIG_BLOCK, WATCH)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # goalkeeper died before we could tie ourselves to it (or while we started)
        return 137
    if mode == "pidns" and _enter_pidns():
        init = os.fork()
        if init == 0:
            _as_init(argv, env, grace)
        _report("contained pidns")
        return _outer(init, parent)
    if mode == "scoped":
        _report("contained scoped" if _landlock_scope() else "contained plain")
    elif mode == "plain":
        _report("contained plain")
    else:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
        _report("contained reaper")
    return _supervise(argv, env, grace, False, parent)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except OSError as e:  # never a traceback from the guard itself
        if e.errno != errno.EINTR:
            sys.stderr.write(f"goalkeeper guard: {e}\n")
        sys.exit(125)
