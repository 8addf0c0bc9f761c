"""A cheating maker that swaps a file the goal lets it edit (``--allow-edit pyproject.toml``, the documented
example) for a FIFO or a link to ``/dev/zero``: the seal must reject it as it does anywhere else, never block
or exhaust memory reading it.

Today ``Seal._allowed_but_sealed`` compares the sealed sections of an allowed pyproject.toml with
``Path.read_text()``, which blocks for ever on a FIFO (``goal check``, and so the Stop hook, hangs with the
goal's lock held) and follows a link to ``/dev/zero`` until memory runs out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..fuzz.helpers import invoke


@pytest.mark.parametrize("swap", ["fifo", "link-to-dev-zero"])
def test_a_special_file_in_place_of_an_allowed_pyproject_is_rejected_not_read(goalkeeper_home: Path,
                                                                               tmp_path: Path, swap: str) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    (ws / "pyproject.toml").write_text('[project]\nname = "x"\n')
    o = invoke(goalkeeper_home, "goal", "new", "x", "--maker-type", "host", "--until", "true",
               "--allow-edit", "pyproject.toml", cwd=ws)
    assert o.code == 0, o.text
    gid = o.out.strip()
    (ws / "pyproject.toml").unlink()  # the maker's move
    if swap == "fifo":
        os.mkfifo(ws / "pyproject.toml")
    else:
        (ws / "pyproject.toml").symlink_to("/dev/zero")
    env = {**os.environ, "NO_COLOR": "1", "GOALKEEPER_HOME": str(goalkeeper_home)}
    capped = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
              "from goalkeeper.cli import cli; sys.argv[0] = 'goalkeeper'; cli()")  # a failing run cannot OOM the box
    try:
        r = subprocess.run([sys.executable, "-c", capped, "goal", "check", gid], cwd=ws, env=env,
                           capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"goal check blocked reading the {swap} the maker put in place of an --allow-edit file")
    assert r.returncode == 4, (r.returncode, r.stdout, r.stderr[-400:])  # judged: not done
    assert "rejected" in r.stdout and "pyproject.toml" in r.stdout
