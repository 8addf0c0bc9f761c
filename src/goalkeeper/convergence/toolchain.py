"""What the checks execute, resolved once and fingerprinted, so a maker cannot swap it.

For every stopping condition we resolve the program it starts (``pytest``
on PATH, ``.venv/bin/pytest``, ``python -m pytest`` ...) to a real file, find
the Python interpreter behind it (a console script's shebang), and ask that
interpreter where its code lives. The fingerprint is the stat signature
(inode, size, mtime, ctime, mode) of every file there, except bytecode
caches (the checks run with a private pycache, so those are never read), plus
the executables themselves, wherever they are: inside a workspace ``.venv`` or
outside the workspace. ctime cannot be set from user space, so an edited
``pytest`` or an appended ``.pth`` shows even with its mtime restored.

The places are the interpreter's own (sysconfig), every folder on its real
``sys.path`` (a venv made with ``--system-site-packages`` reads the system's),
and its user site (a ``.pth`` there runs in every check that does not turn the
user site off). Files in the user's home that the tools read as configuration
(git's global config and ignore file, which ruff honours; ruff's user config)
are fingerprinted too, present or missing: a maker without a sandbox can
write them, and each one changes what a check sees without touching the tree.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .protect import SEAL_NAMES

__all__ = ["Fingerprint", "Resolved", "changed_paths", "fingerprint", "interpreter_info", "resolve_command",
           "user_configs"]

_PY = re.compile(r"^python(?:\d+(?:\.\d+)?)?$")
_ENV_BINS = (".venv/bin", "venv/bin", ".env/bin", "env/bin")


@dataclass(frozen=True, slots=True)
class Resolved:
    """A condition's argv made concrete: ``tool`` is pytest/coverage/ruff/... or None."""

    argv: list[str]
    executable: str | None
    interpreter: str | None = None
    tool: str | None = None
    tool_args: list[str] = field(default_factory=list)
    problem: str | None = None


def _shebang(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0].decode(errors="replace").strip().split()
    if not line:
        return None
    if Path(line[0]).name == "env" and len(line) > 1:
        return shutil.which(line[1])
    return line[0]


def _which(exe: str, ws: Path, path_env: str | None, env_bins: Sequence[str] = _ENV_BINS) -> str | None:
    if os.sep in exe:
        p = Path(exe) if os.path.isabs(exe) else ws / exe
        return str(p) if p.is_file() and os.access(p, os.X_OK) else None
    # "." or empty PATH entries would let the workspace shadow any program: dropped
    safe = os.pathsep.join(d for d in (path_env or os.defpath).split(os.pathsep) if d and os.path.isabs(d))
    found = shutil.which(exe, path=safe)
    if found:
        return found
    for d in env_bins:  # a project venv the user did not activate
        cand = ws / d / exe
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    return None


KNOWN_TOOLS = {"pytest": "pytest", "py.test": "pytest", "coverage": "coverage", "ruff": "ruff", "mypy": "mypy"}


def _sibling_python(exe: str, tool: str) -> str | None:
    """The interpreter next to a console script that is not a Python script (a pyenv shim, say)."""
    for name in ("python3", "python"):
        cand = Path(exe).parent / name
        if cand.is_file() and os.access(cand, os.X_OK):
            try:
                ok = subprocess.run([str(cand), "-I", "-c", f"import {tool}"], capture_output=True, timeout=30,
                                    stdin=subprocess.DEVNULL).returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                ok = False
            if ok:
                return str(cand)
    return None


def resolve_command(argv: Sequence[str], ws: Path, env: Mapping[str, str], fallback_python: str,
                    env_dirs: Sequence[str] | None = None) -> Resolved:
    """Resolve ``argv[0]`` without ever running anything from the workspace by accident.

    ``tool`` is set when the command runs a tool goalkeeper can instrument
    (pytest, coverage, ruff, mypy), with ``interpreter`` the Python that runs it. With
    ``env_dirs`` (the project environments the baseline found), only those are searched after
    PATH: a ``venv/bin/pytest`` the maker made is never what a check runs.
    """
    args = list(argv)
    if not args:
        return Resolved(args, None, problem="empty command")
    exe_name = args[0]
    base = Path(exe_name).name
    bins = _ENV_BINS if env_dirs is None else tuple(b for b in _ENV_BINS if b.split("/")[0] in env_dirs)
    exe = _which(exe_name, ws, env.get("PATH"), bins)
    if exe is None and (base in KNOWN_TOOLS or _PY.match(base)):
        exe = fallback_python  # goalkeeper's own interpreter, with a safe path (never the workspace's)
        args = [fallback_python, *(["-m", KNOWN_TOOLS[base]] if base in KNOWN_TOOLS else []), *args[1:]]
        base = Path(fallback_python).name
    if exe is None:
        return Resolved(args, None, problem=f"cannot run {exe_name!r}: not found on PATH or in a project venv")
    real = os.path.realpath(exe)
    if _PY.match(base) or _PY.match(Path(real).name):
        if len(args) >= 3 and args[1] == "-m":
            return Resolved([exe, *args[1:]], exe, exe, args[2].split(".")[0], args[3:])
        return Resolved([exe, *args[1:]], exe, exe)
    tool = KNOWN_TOOLS.get(base)
    if tool is None:
        return Resolved([exe, *args[1:]], exe)
    bang = _shebang(real)
    interp = bang if bang and _PY.match(Path(bang).name) else None
    if interp is None and tool != "ruff":
        interp = _sibling_python(exe, tool)
    return Resolved([exe, *args[1:]], exe, interp, tool, args[1:])


_INFO = (
    "import json, site, sys, sysconfig\n"
    "p = sysconfig.get_paths()\n"
    "u = site.getusersitepackages()\n"  # -I turns the user site off here; the checks may not
    "print(json.dumps({'executable': sys.executable, 'stdlib': p['stdlib'], 'platstdlib': p['platstdlib'],"
    " 'purelib': p['purelib'], 'platlib': p['platlib'], 'scripts': p['scripts'], 'user': u,"
    " 'path': [x for x in sys.path if x], 'version': list(sys.version_info[:2])}))\n"
)


def interpreter_info(python: str) -> dict[str, object] | None:
    """Where an interpreter keeps its code (run with -I: nothing of the caller steers it)."""
    try:
        env = {"PATH": os.environ.get("PATH", os.defpath)}
        if os.environ.get("HOME"):
            env["HOME"] = os.environ["HOME"]  # where the user site is
        res = subprocess.run([python, "-I", "-c", _INFO], capture_output=True, text=True, timeout=30,
                             stdin=subprocess.DEVNULL, env=env)
        data = json.loads(res.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    return data if isinstance(data, dict) else None


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """Stat signatures of what the checks execute; ``refresh`` re-reads the same places."""

    digest: str
    files: Mapping[str, str]
    roots: tuple[str, ...] = ()
    top_roots: tuple[str, ...] = ()
    executables: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    configs: tuple[str, ...] = ()  # user-level config files the tools read, present or not

    def dump(self) -> dict[str, object]:
        return {"digest": self.digest, "roots": list(self.roots), "topRoots": list(self.top_roots),
                "executables": list(self.executables), "modules": list(self.modules),
                "configs": list(self.configs), "files": dict(self.files)}

    @classmethod
    def load(cls, data: Mapping[str, object]) -> Fingerprint:
        def strs(key: str) -> tuple[str, ...]:
            v = data.get(key)
            return tuple(str(x) for x in v) if isinstance(v, list) else ()

        files = data.get("files")
        return cls(str(data.get("digest", "")), {str(k): str(v) for k, v in files.items()} if isinstance(files, dict)
                   else {}, strs("roots"), strs("topRoots"), strs("executables"), strs("modules"),
                   strs("configs"))

    def refresh(self) -> Fingerprint:
        files: dict[str, str] = {}
        _exes(self.executables, files)
        _exes(self.configs, files)
        for r in self.roots:
            _walk_root(r, files)
        for r in self.top_roots:
            _walk_root(r, files, top_only=True)
        return Fingerprint(_total(files), dict(sorted(files.items())), self.roots, self.top_roots,
                           self.executables, self.modules, self.configs)


def _total(files: Mapping[str, str]) -> str:
    total = hashlib.sha256()
    for p in sorted(files):
        total.update(p.encode(errors="surrogateescape") + b"\0" + files[p].encode() + b"\n")
    return total.hexdigest()


def _exes(executables: Iterable[str], files: dict[str, str]) -> None:
    for exe in executables:
        for p in {exe, os.path.realpath(exe)}:
            try:
                files[p] = _sig(os.stat(p))
            except OSError:
                files[p] = "missing"


def _sig(st: os.stat_result) -> str:
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_mode:o}"


def _walk_root(root: str, files: dict[str, str], top_only: bool = False) -> None:
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                if not top_only and e.name != "__pycache__":
                    stack.append(e.path)
                continue
            files[e.path] = _sig(st)


def _top_modules(site_dirs: Iterable[str]) -> set[str]:
    mods = set()
    for d in site_dirs:
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for n in names:
            if n.endswith((".dist-info", ".egg-info", ".pth", ".data")) or n.startswith(("_distutils", "__")):
                continue
            mods.add(n[:-3] if n.endswith(".py") else n.split(".")[0])
    return mods


def user_configs(env: Mapping[str, str]) -> list[str]:
    """The user-level files the checks' tools read as configuration (see the module docstring)."""
    home = env.get("HOME") or os.path.expanduser("~")
    xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    out = [os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config"), os.path.join(xdg, "git", "ignore"),
           os.path.join(xdg, "git", "attributes"), os.path.join(xdg, "ruff", "ruff.toml"),
           os.path.join(xdg, "ruff", ".ruff.toml"), os.path.join(xdg, "ruff", "pyproject.toml")]
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"):
        if env.get(name):
            out.append(env[name])
    try:  # core.excludesFile may name any file
        res = subprocess.run(["git", "config", "--global", "--path", "--get", "core.excludesFile"],
                             capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL,
                             env={k: v for k, v in env.items() if k in ("PATH", "HOME", "XDG_CONFIG_HOME",
                                                                        "GIT_CONFIG_GLOBAL")})
        if res.returncode == 0 and res.stdout.strip():
            out.append(os.path.expanduser(res.stdout.strip()))
    except (OSError, subprocess.TimeoutExpired):
        pass
    return sorted(set(out))


def ancestor_configs(workspace: str) -> list[str]:
    """Config files in the folders above the workspace, present or not: ruff honours ``.ignore`` and
    ``.gitignore`` in every parent folder, pytest and coverage look upwards for their ini files, and
    a repository around the workspace brings its ``.git/info/exclude``."""
    out: list[str] = []
    d = os.path.dirname(os.path.abspath(workspace).rstrip(os.sep))
    while True:
        out.extend(os.path.join(d, n) for n in sorted(SEAL_NAMES))
        out.extend((os.path.join(d, ".git", "info", "exclude"), os.path.join(d, ".git", "config")))
        parent = os.path.dirname(d)
        if parent == d:
            return out
        d = parent


def fingerprint(executables: Iterable[str], interpreters: Iterable[str],
                env: Mapping[str, str] | None = None, *, exclude: str | None = None) -> Fingerprint:
    """Fingerprint the executables, every interpreter's library directories and the user's
    tool configuration; ``exclude`` (the workspace) is never a root: the tree walk covers it."""
    exes = set(executables)
    roots: list[str] = []
    top: list[str] = []
    site: list[str] = []
    missing: list[str] = []
    for py in sorted(set(interpreters)):
        exes.add(py)
        # A venv's pyvenv.cfg names its base interpreter (``home``): moved to a look-alike base with a
        # sitecustomize.py, the same interpreter path runs another standard library.
        bindir = os.path.dirname(os.path.abspath(py))
        missing += [os.path.join(bindir, "pyvenv.cfg"), os.path.join(os.path.dirname(bindir), "pyvenv.cfg")]
        info = interpreter_info(py)
        if info is None:
            continue
        exes.add(os.path.realpath(str(info["executable"])))
        for key in ("purelib", "platlib", "user", "scripts"):
            d = info.get(key)
            if isinstance(d, str) and os.path.isdir(d) and d not in roots:
                roots.append(d)
                if key != "scripts":
                    site.append(d)
            elif key == "user" and isinstance(d, str):
                missing.append(d)  # creating it later (to plant a .pth) changes the fingerprint
        for key in ("stdlib", "platstdlib"):  # sitecustomize.py and .pth can sit at its top
            d = info.get(key)
            if isinstance(d, str) and os.path.isdir(d) and d not in top and d not in roots:
                top.append(d)
        path = info.get("path")
        for d in path if isinstance(path, list) else []:
            d = str(d)
            if os.path.isfile(d):  # a zipped stdlib
                exes.add(d)
            elif (os.path.isdir(d) and d not in roots and d not in top
                  and not (exclude and (d + os.sep).startswith(exclude.rstrip(os.sep) + os.sep))):
                under = any((d + os.sep).startswith(t.rstrip(os.sep) + os.sep) for t in top)
                if d.endswith(("site-packages", "dist-packages")) or not under:
                    roots.append(d)
                    site.append(d)
    base = Fingerprint("", {}, tuple(roots), tuple(top), tuple(sorted(exes)), tuple(sorted(_top_modules(site))),
                       tuple(sorted({*user_configs(env if env is not None else os.environ), *missing,
                                     *(ancestor_configs(exclude) if exclude else ())})))
    return base.refresh()


def changed_paths(before: Fingerprint, after: Fingerprint) -> list[str]:
    a, b = before.files, after.files
    return sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))
