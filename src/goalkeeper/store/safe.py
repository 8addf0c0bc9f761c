"""Files that may be hostile: bounded regular files, and no symbolic link below the home.

Every file goalkeeper reads goes through :func:`read_bounded`: it is opened with
``O_NONBLOCK`` (a FIFO never blocks), checked with ``fstat`` (a FIFO, device or
directory is refused) and read only up to a size cap (``/dev/zero`` or a 3 GB
file is refused before it is read).

Inside the home (``root``), every path component below the home is opened
with ``O_NOFOLLOW`` relative to its parent's descriptor, so a link that a maker
planted (``goals/<id>.lock -> ~/.bashrc``, ``runs -> /elsewhere``) is refused
with a clear error instead of being followed. The home itself may be a link:
the user chose it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import CorruptStateError, StoreError
from .home import ensure_home, home

__all__ = [
    "MAX_LOG_BYTES",
    "MAX_SPEC_BYTES",
    "MAX_STATE_BYTES",
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "USER_FILE",
    "Refuse",
    "append_bytes",
    "below",
    "is_regular",
    "open_below",
    "read_bounded",
    "read_tail",
    "remove_file",
    "write_bytes_atomic",
]

MAX_SPEC_BYTES = 16 << 20  # a 5,000-action spec is about 1 MB
MAX_STATE_BYTES = 64 << 20  # goal, run and triage files, heartbeat configs
MAX_LOG_BYTES = 256 << 20  # event logs (append-only, so they grow)

PRIVATE_FILE = 0o600  # everything goalkeeper keeps in its home
PRIVATE_DIR = 0o700
USER_FILE = 0o666  # outputs for the user (specs, builds, exports): their umask decides

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)

Refuse = Callable[[str], Exception]
"""Builds the error for a refused file from the problem text (without the path)."""


def _corrupt(path: str | Path) -> Refuse:
    return lambda problem: CorruptStateError(f"{path}: {problem}")


_LINK_FIX = "goalkeeper never follows links in its state folder; remove the link and restore the file"


def below(path: str | Path, root: str | Path) -> list[str] | None:
    """``path``'s components below ``root`` (lexically, no resolving), or None if it is not below."""
    p = os.path.abspath(os.fspath(path))
    r = os.path.abspath(os.fspath(root))
    if p == r or not p.startswith(r.rstrip(os.sep) + os.sep):
        return None
    parts = p[len(r.rstrip(os.sep)) + 1:].split(os.sep)
    return parts if all(parts) else None


def _home_parts(path: str | Path, root: str | Path | None) -> tuple[Path, list[str]] | None:
    """(home, components) when ``path`` lies in ``root`` (default: the current home)."""
    if root is None:
        root = home()
    parts = below(path, root)
    return (Path(root), parts) if parts else None


def _open_dir(name: str, dfd: int | None, shown: Path, refuse: Refuse, make: bool) -> int:
    flags = os.O_RDONLY | _DIRECTORY | _CLOEXEC | _NOFOLLOW
    for _ in range(2):
        try:
            return os.open(name, flags, dir_fd=dfd)
        except FileNotFoundError:
            if not make:
                raise
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, PRIVATE_DIR, dir_fd=dfd)
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                kind = "a symbolic link" if os.path.islink(shown) else "not a folder"
                raise refuse(f"{shown} is {kind}; {_LINK_FIX}") from None
            raise
    return os.open(name, flags, dir_fd=dfd)


def open_below(
    root: str | Path, parts: list[str], flags: int, mode: int = PRIVATE_FILE, *,
    make_dirs: bool = False, refuse: Refuse | None = None,
) -> int:
    """Open ``root/parts...`` following no link below ``root``; returns the descriptor.

    Missing folders are created (mode 0700) with ``make_dirs``; ``root`` itself
    is created as a home (see :func:`goalkeeper.store.home.ensure_home`).
    """
    refuse = refuse or _corrupt(Path(root, *parts))
    if make_dirs:
        dfd = _walk_dirs(Path(root), parts[:-1], refuse)
    else:
        dfd = _walk_dirs_existing(Path(root), parts[:-1], refuse)
    try:
        try:
            return os.open(parts[-1], flags | _NOFOLLOW | _CLOEXEC, mode, dir_fd=dfd)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise refuse(f"is a symbolic link; {_LINK_FIX}") from None
            if e.errno == errno.ENXIO:  # O_WRONLY|O_NONBLOCK on a FIFO nobody reads
                raise refuse("is not a regular file (a FIFO); remove it") from None
            raise
    finally:
        os.close(dfd)


def _open_any(path: str | Path, flags: int, mode: int, *, root: str | Path | None, follow: bool,
              make_dirs: bool, refuse: Refuse) -> int:
    inside = None if follow else _home_parts(path, root)
    if inside is not None:
        return open_below(inside[0], inside[1], flags, mode, make_dirs=make_dirs, refuse=refuse)
    if make_dirs:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        return os.open(path, flags | _CLOEXEC | (0 if follow else _NOFOLLOW), mode)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow:
            raise refuse(f"is a symbolic link; {_LINK_FIX}") from None
        if e.errno == errno.ENXIO:
            raise refuse("is not a regular file (a FIFO); remove it") from None
        raise


def _kind(st: os.stat_result) -> str:
    m = st.st_mode
    if stat.S_ISDIR(m):
        return "a folder"
    if stat.S_ISFIFO(m):
        return "a FIFO"
    if stat.S_ISCHR(m) or stat.S_ISBLK(m):
        return "a device"
    if stat.S_ISSOCK(m):
        return "a socket"
    return "not a regular file"


def _check_regular(fd: int, refuse: Refuse) -> os.stat_result:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise refuse(f"is {_kind(st)}, not a regular file; replace it with the file it should be, or remove it")
    return st


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.0f} MiB" if n >= 1 << 20 else f"{n} bytes"


def _open_read(path: str | Path, root: str | Path | None, follow: bool, refuse: Refuse) -> int:
    """A descriptor to read ``path`` as :func:`read_bounded` and :func:`read_tail` read it."""
    try:
        return _open_any(path, os.O_RDONLY | _NONBLOCK, 0, root=root, follow=follow, make_dirs=False,
                         refuse=refuse)
    except FileNotFoundError:
        raise
    except OSError as e:
        if e.errno == errno.ENOTDIR:
            raise FileNotFoundError(errno.ENOENT, "not found", str(path)) from None
        raise refuse(f"cannot read: {e.strerror or e}") from None


def read_bounded(
    path: str | Path, *, limit: int, root: str | Path | None = None, follow_symlinks: bool = False,
    refuse: Refuse | None = None,
) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    ``FileNotFoundError`` passes through; any other problem is ``refuse(problem)``
    (default: :class:`CorruptStateError` naming the file). Without
    ``follow_symlinks``, a path under the home (``root``, default the current
    home) follows no link below the home, and any other path no final link.
    """
    refuse = refuse or _corrupt(path)
    fd = _open_read(path, root, follow_symlinks, refuse)
    try:
        st = _check_regular(fd, refuse)
        if st.st_size > limit:
            raise refuse(f"is {_mib(st.st_size)}, over the {_mib(limit)} limit for this file; "
                         "it is not a goalkeeper file or it is damaged — remove it")
        chunks: list[bytes] = []
        got = 0
        while True:  # st_size may lie (a growing file, /proc): stop one byte past the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if got > limit:
                raise refuse(f"is over the {_mib(limit)} limit for this file; remove it")
        return b"".join(chunks)
    except OSError as e:
        raise refuse(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)


def read_tail(path: str | Path, *, limit: int, root: str | Path | None = None,
              refuse: Refuse | None = None) -> bytes:
    """The last ``limit`` bytes of the regular file ``path`` (a log), opened as
    :func:`read_bounded` opens it: no link below the home, a FIFO never waited on."""
    refuse = refuse or _corrupt(path)
    fd = _open_read(path, root, False, refuse)
    try:
        st = _check_regular(fd, refuse)
        if st.st_size > limit:
            os.lseek(fd, st.st_size - limit, os.SEEK_SET)
        chunks: list[bytes] = []
        got = 0
        while got < limit and (chunk := os.read(fd, min(1 << 20, limit - got))):
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise refuse(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)


def is_regular(path: str | Path, root: str | Path | None = None) -> bool:
    """True if ``path`` is a regular file (a link below the home is not)."""
    inside = _home_parts(path, root)
    try:
        if inside is None:
            return stat.S_ISREG(os.lstat(path).st_mode)
        fd = open_below(inside[0], inside[1], os.O_RDONLY | _NONBLOCK)
    except (OSError, StoreError):
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def _tighten(fd: int, st: os.stat_result) -> None:
    # Files written by older versions (event logs were 0644) become private on next use.
    if st.st_mode & 0o077 and st.st_uid == os.geteuid():
        with contextlib.suppress(OSError):
            os.fchmod(fd, stat.S_IMODE(st.st_mode) & 0o700)


def open_private(path: str | Path, flags: int, *, root: str | Path | None = None,
                 refuse: Refuse | None = None) -> int:
    """Open (creating) a private file in the home for writing: regular, no links, mode 0600."""
    refuse = refuse or _corrupt(path)
    try:
        fd = _open_any(path, flags | os.O_CREAT | _NONBLOCK, PRIVATE_FILE, root=root, follow=False,
                       make_dirs=True, refuse=refuse)
    except StoreError:
        raise
    except OSError as e:
        raise StoreError(f"{path}: cannot open for writing: {e.strerror or e}") from None
    try:
        _tighten(fd, _check_regular(fd, refuse))
    except BaseException:
        os.close(fd)
        raise
    return fd


def append_bytes(path: str | Path, data: bytes, *, root: str | Path | None = None) -> None:
    """Append ``data`` as one line to a log, starting a new line after a torn one; fsynced."""
    fd = open_private(path, os.O_RDWR | os.O_APPEND, root=root)
    try:
        size = os.fstat(fd).st_size
        # A crash mid-append can leave a torn line without its newline: start a new line.
        if size > 0 and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def _parent_dir(path: Path, root: str | Path | None, mode: int) -> Iterator[tuple[int, str]]:
    """(descriptor of the parent folder, file name), the folder created if missing."""
    inside = _home_parts(path, root) if mode == PRIVATE_FILE else None
    if inside is not None:
        home, parts = inside
        dfd = _walk_dirs(home, parts[:-1])
        leaf = parts[-1]
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        dfd = os.open(path.parent, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        leaf = path.name
    try:
        yield dfd, leaf
    finally:
        os.close(dfd)


def _walk_dirs(root: Path, dirs: list[str], refuse: Refuse | None = None) -> int:
    """Descriptor of ``root/dirs...``, creating folders, following no link below ``root``."""
    ensure_home(root)
    refuse = refuse or _corrupt(Path(root, *dirs))
    dfd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    shown = root
    try:
        for name in dirs:
            shown = shown / name
            nfd = _open_dir(name, dfd, shown, refuse, True)
            os.close(dfd)
            dfd = nfd
    except BaseException:
        os.close(dfd)
        raise
    return dfd


def write_bytes_atomic(path: str | Path, data: bytes, *, mode: int = PRIVATE_FILE,
                       root: str | Path | None = None) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename, fsync the folder).

    ``mode`` is the creation mode, less the umask: 0600 (the default) for state
    in the home, :data:`USER_FILE` for outputs the user asked for. Under the
    home, no folder below the home may be a link; the rename itself never
    follows a link at ``path`` (it replaces the link).
    """
    p = Path(path)
    with _parent_dir(p, root, mode) as (dfd, leaf):
        tmp = fd = None
        for _ in range(100):
            tmp = f".{leaf[:200]}.{secrets.token_hex(4)}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, mode,
                             dir_fd=dfd)
                break
            except FileExistsError:
                continue
        if fd is None or tmp is None:
            raise StoreError(f"{p}: cannot create a temporary file next to it")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, leaf, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException as e:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dfd)
            if isinstance(e, IsADirectoryError):
                raise StoreError(f"{p}: is a folder, not a file; remove it or write elsewhere") from None
            raise
        with contextlib.suppress(OSError):
            os.fsync(dfd)


def remove_file(path: str | Path, *, root: str | Path | None = None) -> None:
    """Remove ``path`` (a link is removed, never its target); no folder below the home is a link.
    ``FileNotFoundError`` when it is not there."""
    inside = _home_parts(path, root)
    if inside is None:
        os.unlink(path)
        return
    home, parts = inside
    dfd = _walk_dirs_existing(home, parts[:-1])
    try:
        os.unlink(parts[-1], dir_fd=dfd)
    finally:
        os.close(dfd)


def _walk_dirs_existing(root: Path, dirs: list[str], refuse: Refuse | None = None) -> int:
    refuse = refuse or _corrupt(Path(root, *dirs))
    dfd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    shown = root
    try:
        for name in dirs:
            shown = shown / name
            nfd = _open_dir(name, dfd, shown, refuse, False)
            os.close(dfd)
            dfd = nfd
    except BaseException:
        os.close(dfd)
        raise
    return dfd
