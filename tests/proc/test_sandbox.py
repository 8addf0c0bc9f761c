"""The sandbox's read-only paths: bound over the writable ones, so a folder inside stays read-only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from goalkeeper.proc import bwrap_path, run_argv
from goalkeeper.proc.sandbox import Sandbox, bwrap_argv

PY = sys.executable
needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap not installed (apt-get install bubblewrap)")


def test_readonly_paths_are_bound_after_the_writable_ones(tmp_path: Path) -> None:
    ro = tmp_path / "ws" / "ro"
    ro.mkdir(parents=True)
    argv = bwrap_argv("bwrap", Sandbox(writable=(tmp_path / "ws",), readonly=(ro, tmp_path / "missing")),
                      tmp_path / "ws", ["true"])
    rw_at = argv.index("--bind")
    ro_at = max(i for i, a in enumerate(argv) if a == "--ro-bind" and argv[i + 1] == str(ro))
    assert rw_at < ro_at and str(tmp_path / "missing") not in argv


@needs_bwrap
def test_a_readonly_folder_under_a_private_tmp_is_shown_but_cannot_be_written(tmp_path: Path) -> None:
    ws, helpers = tmp_path / "ws", tmp_path / "helpers"
    ws.mkdir()
    helpers.mkdir()
    (helpers / "tool.py").write_text("print('helper ran')\n")
    script = (f"import runpy; runpy.run_path({str(helpers / 'tool.py')!r})\n"
              f"try:\n    open({str(helpers / 'planted.py')!r}, 'w').write('x')\n"
              "except OSError as e:\n    print('refused', e.errno)\n")
    box = Sandbox(writable=(ws,), readonly=(helpers,))
    res = run_argv([PY, "-c", script], cwd=ws, sandbox=box, timeout=30)
    assert res.exit_code == 0, res.output
    assert "helper ran" in res.stdout and "refused 30" in res.stdout  # EROFS
    assert not (helpers / "planted.py").exists()
