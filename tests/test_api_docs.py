"""Every python block of docs/api.md runs, as written, in an empty directory of its own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def blocks() -> list[tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _BLOCK.finditer(text)]


def test_the_doc_has_examples_of_every_entry_point() -> None:
    code = "\n".join(src for _, src in blocks())
    for call in ("goalkeeper.plan(", "goalkeeper.run(", "goalkeeper.converge(", "make_engine(", "register_maker("):
        assert call in code, call


@pytest.mark.parametrize(("line", "source"), blocks(), ids=[f"api.md:{n}" for n, _ in blocks()])
def test_doc_block_runs(line: int, source: str, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    out = subprocess.run([sys.executable, "-c", source], cwd=work, capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1"}, timeout=300, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, f"docs/api.md block at line {line} failed:\n{out.stdout}\n{out.stderr}"
