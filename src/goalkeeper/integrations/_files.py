"""Reading a settings file the user owns: never followed out of place, never blocking, never unbounded.

``integrate`` rewrites such files atomically (a new file renamed over the
old), so a link would be replaced by a regular file and the user's link (into
a dotfiles checkout, say) lost; a FIFO or device would block or read for
ever. Each is refused with its path before anything is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import ConfigError

__all__ = ["MAX_SETTINGS_FILE", "read_settings_file"]

MAX_SETTINGS_FILE = 4 << 20  # far above any real settings file; a bigger one is not what we merge into


def read_settings_file(path: Path, what: str, fix: str) -> str | None:
    """The text of ``path`` (UTF-8), None when nothing is there; ConfigError naming the path and ``fix``.

    ``what`` names the file for a person ("a Claude Code settings file").
    """
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ConfigError(f"{path}: cannot be read ({e.strerror}); {fix}") from None
    if stat.S_ISLNK(st.st_mode):
        target = os.readlink(path)
        state = "a link" if path.exists() else "a dangling link"
        raise ConfigError(f"{path}: {state} (to {target}), not a regular file; goalkeeper does not write "
                          f"through links, which would replace yours with a file; {fix}")
    if not stat.S_ISREG(st.st_mode):
        raise ConfigError(f"{path}: not a regular file; {fix}")
    try:  # O_NOFOLLOW | O_NONBLOCK: swapped for a link or a FIFO since the lstat, the open fails or returns
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise ConfigError(f"{path}: cannot be read ({e.strerror}); {fix}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"{path}: not a regular file; {fix}")
        if st.st_size > MAX_SETTINGS_FILE:
            raise ConfigError(f"{path}: larger than {MAX_SETTINGS_FILE} bytes, not {what}; left untouched")
        data = f.read(MAX_SETTINGS_FILE + 1)
    if len(data) > MAX_SETTINGS_FILE:
        raise ConfigError(f"{path}: larger than {MAX_SETTINGS_FILE} bytes, not {what}; left untouched")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte {e.start}); {what} is UTF-8; left untouched") from None
