"""The examples in the docs, as data: fenced blocks with their file and line, inline commands,
and the shell commands in a block (continuations joined, comments dropped, ``&&`` chains split)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "examples").glob("*/README.md")])
_FENCE = re.compile(r"^(`{3,})([\w+-]*)\s*$")
_INLINE = re.compile(r"`(goalkeeper [^`]+)`")
SHELL_LANGS = {"sh", "bash", "shell", "console"}
# An unlabeled block is shell when it starts with one of these (the Layout tree, say, does not).
_PROGRAMS = ("goalkeeper", "pip", "python", "python3", "temporal", "cd", "cp", "git", ".venv/")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the first line inside the fence
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> Iterator[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(1), m.group(2).lower()
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        yield Block(path, i + 2, lang, "\n".join(lines[i + 1:j]) + "\n")
        i = j + 1


def all_blocks() -> list[Block]:
    return [b for p in DOCS for b in blocks(p)]


def is_shell(b: Block) -> bool:
    if b.lang in SHELL_LANGS:
        return True
    if b.lang:
        return False
    first = next((ln.strip() for ln in b.text.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")
    return first.startswith(_PROGRAMS)


def inline_commands(path: Path) -> Iterator[tuple[int, str]]:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in _INLINE.finditer(line):
            yield n, m.group(1).replace("\\|", "|")


@dataclass(frozen=True)
class Command:
    where: str
    env: dict[str, str]
    argv: list[str]
    chain: int  # position in its `a && b && c` line (0 first); a `cd` earlier in the chain moves it


def commands(b: Block) -> list[list[Command]]:
    """Each logical line of a shell block as its ``&&`` chain of simple commands."""
    logical: list[tuple[int, str]] = []
    cur, start = "", 0
    for n, raw in enumerate(b.text.splitlines(), b.line):
        if not cur:
            start = n
        if raw.rstrip().endswith("\\"):
            cur += raw.rstrip()[:-1] + " "
            continue
        cur += raw
        if cur.strip():
            logical.append((start, cur))
        cur = ""
    out = []
    for n, text in logical:
        words = shlex.split(text, comments=True)
        if not words:
            continue
        chain: list[Command] = []
        part: list[str] = []
        for w in [*words, "&&"]:
            if w != "&&":
                part.append(w)
                continue
            env = {}
            while part and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", part[0]):
                k, v = part.pop(0).split("=", 1)
                env[k] = v
            chain.append(Command(f"{b.path.relative_to(ROOT)}:{n}", env, part, len(chain)))
            part = []
        out.append(chain)
    return out
