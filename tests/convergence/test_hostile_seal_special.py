"""A cheating maker that swaps a file the goal lets it edit (``--allow-edit pyproject.toml``, the documented
example) for a FIFO: the seal must reject the special file as it does anywhere else, never block reading it.

Today ``Seal._allowed_but_sealed`` compares the sealed sections of an allowed pyproject.toml with
``Path.read_text()``, which blocks for ever on a FIFO: ``goal check`` (and so the Stop hook) hangs with the
goal's lock held."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..fuzz.helpers import invoke


def test_a_fifo_in_place_of_an_allowed_pyproject_is_rejected_not_read(goalkeeper_home: Path,
                                                                       tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    (ws / "pyproject.toml").write_text('[project]\nname = "x"\n')
    o = invoke(goalkeeper_home, "goal", "new", "x", "--maker-type", "host", "--until", "true",
               "--allow-edit", "pyproject.toml", cwd=ws)
    assert o.code == 0, o.text
    gid = o.out.strip()
    (ws / "pyproject.toml").unlink()  # the maker's move
    os.mkfifo(ws / "pyproject.toml")
    env = {**os.environ, "NO_COLOR": "1", "GOALKEEPER_HOME": str(goalkeeper_home)}
    try:
        r = subprocess.run([sys.executable, "-m", "goalkeeper", "goal", "check", gid], cwd=ws, env=env,
                           capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("goal check blocked reading a FIFO the maker put in place of an --allow-edit file")
    assert r.returncode == 4, (r.returncode, r.stdout, r.stderr)  # judged: not done
    assert "special file" in r.stdout and "pyproject.toml" in r.stdout
