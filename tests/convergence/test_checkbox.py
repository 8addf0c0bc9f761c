"""The checks run the code under test: in a box (bubblewrap) it cannot write outside the workspace,
reach goalkeeper's state or environment, or change goalkeeper's own helpers; without one, every
step still gets fresh helpers and a write to them is caught."""

from __future__ import annotations

import os
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.convergence.checkbox import Box, box_mode, lock, new_step, unexpected
from goalkeeper.convergence.conditions import run_sealed
from goalkeeper.convergence.goal import StoppingCondition
from goalkeeper.errors import ConfigError
from goalkeeper.proc import bwrap_path

PY = sys.executable
PYTEST = StoppingCondition(type="test_pass", command=[PY, "-m", "pytest", "-q", "-p", "no:randomly"])
needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap cannot run here")

# The code under test tries everything a check could do to the next check or to goalkeeper; each
# attempt is reported to a file in the workspace (writable), and the test asserts the outcome.
PROBE_ALL = textwrap.dedent("""
    import glob, json, os, sys
    from pathlib import Path

    def _try(fn):
        try:
            fn()
            return "ok"
        except OSError as e:
            return type(e).__name__

    here = Path(__file__).resolve().parent
    seen = {}
    home = Path(os.environ["HOME"])
    seen["home_write"] = _try(lambda: (home / "planted.txt").write_text("x"))
    seen["home_read"] = (home / "readme.txt").read_text() if (home / "readme.txt").exists() else None
    helpers = os.path.dirname(sys.modules["gk_probe"].__file__)
    seen["helpers_write"] = _try(lambda: Path(helpers, "gk_extra.py").write_text("x"))
    seen["state_visible"] = sorted(os.listdir(os.environ["GK_TEST_STATE"])) if os.path.isdir(
        os.environ["GK_TEST_STATE"]) else None
    marks = []
    for env in glob.glob("/proc/[0-9]*/environ"):
        try:
            if b"GK_TEST_OUTSIDE_MARK=" in open(env, "rb").read():
                marks.append(env)
        except OSError:
            pass
    seen["outside_env"] = marks
    seen["tmpdir"] = os.environ.get("TMPDIR")
    seen["tmp_write"] = _try(lambda: Path(os.environ["GK_TEST_TMP_FILE"]).write_text("x"))
    (here / "seen.json").write_text(json.dumps(seen))

    def add(a, b):
        return a + b
""")
TESTS = "from app import add\n\ndef test_add():\n    assert add(2, 2) == 4\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "ws"
    (w / "tests").mkdir(parents=True)
    (w / "app.py").write_text(PROBE_ALL)
    (w / "tests" / "test_app.py").write_text(TESTS)
    (w / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    return w


def _env(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    home = tmp_path / "user-home"
    home.mkdir()
    (home / "readme.txt").write_text("readable")
    state = tmp_path / "gk-state"
    (state / "checkpoints").mkdir(parents=True)
    # a name in the real /tmp (its own per test): the box must keep the write in its private /tmp
    env = {**os.environ, "HOME": str(home), "GK_TEST_STATE": str(state),
           "GK_TEST_TMP_FILE": f"/tmp/gk-box-test-{os.getpid()}-{tmp_path.name}"}
    return env, home, state


@needs_bwrap
def test_in_the_box_the_checks_write_only_the_workspace_and_see_nothing_of_goalkeeper(
        ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    env, home, state = _env(tmp_path)
    monkeypatch.setenv("GK_TEST_OUTSIDE_MARK", "1")  # in goalkeeper's own environment, not the check's
    run = run_sealed([PYTEST], ws, base_env=env, box=Box("bwrap", (state,)))
    assert run.results[0].passed, run.results[0].summary
    seen = json.loads((ws / "seen.json").read_text())
    assert seen["home_write"] != "ok" and not (home / "planted.txt").exists()
    assert seen["home_read"] == "readable"  # HOME stays readable (tool caches)
    assert seen["helpers_write"] != "ok" and run.tampered == []
    assert seen["state_visible"] == []  # goalkeeper's state: an empty folder in the box
    assert seen["outside_env"] == []  # no process outside the box is visible in its /proc
    assert seen["tmpdir"] and not Path(seen["tmpdir"]).exists()  # a private TMPDIR, gone afterwards
    assert seen["tmp_write"] == "ok" and not Path(env["GK_TEST_TMP_FILE"]).exists()  # a private /tmp


@needs_bwrap
@pytest.mark.deep  # four sealed runs; the honest red-team case runs boxed in the suite
def test_boxed_and_unboxed_runs_agree_on_honest_code(ws: Path, tmp_path: Path) -> None:
    pytest.importorskip("coverage")
    (ws / "app.py").write_text("def add(a, b):\n    return a + b\n\ndef unused(x):\n    return x\n")
    conds = [PYTEST, StoppingCondition(type="coverage_threshold", threshold=50, command=[
        PY, "-m", "coverage", "run", "--source=app", "-m", "pytest", "-q", "-p", "no:randomly"])]
    boxed = run_sealed(conds, ws, box=Box("bwrap", ()))
    plain = run_sealed(conds, ws)
    assert [r.summary for r in boxed.results] == [r.summary for r in plain.results]
    assert all(r.passed for r in boxed.results) and "coverage 75.00%" in boxed.results[1].summary


def test_without_a_box_a_write_to_goalkeepers_helpers_is_caught(ws: Path, tmp_path: Path) -> None:
    import json

    env, home, _ = _env(tmp_path)
    run = run_sealed([PYTEST], ws, base_env=env, box=Box())
    Path(env["GK_TEST_TMP_FILE"]).unlink(missing_ok=True)  # unboxed, it did land in the real /tmp
    seen = json.loads((ws / "seen.json").read_text())
    if seen["helpers_write"] == "ok":  # root ignores the folder's 0555: the write is caught afterwards
        assert run.tampered and "private check folder was written: gk_extra.py" in run.tampered[0]
    else:
        assert seen["helpers_write"] == "PermissionError" and run.tampered == []


@pytest.mark.parametrize("boxed", [pytest.param(True, marks=needs_bwrap), False], ids=["bwrap", "none"])
def test_a_planted_probe_package_never_reaches_goalkeepers_coverage_step(ws: Path, boxed: bool) -> None:
    """The code under test drops ``gk_probe/`` beside its own bootstrap; goalkeeper's ``coverage json``
    runs from a folder made after the check ended, so the plant is never imported."""
    pytest.importorskip("coverage")
    (ws / "app.py").write_text(textwrap.dedent("""
        import os, sys
        here = os.path.dirname(sys.modules["gk_probe"].__file__)
        for root in {here, os.path.dirname(here)}:
            for d in [root, *[os.path.join(root, n) for n in os.listdir(root)]]:
                try:
                    os.makedirs(os.path.join(d, "gk_probe"), exist_ok=True)
                    with open(os.path.join(d, "gk_probe", "__init__.py"), "w") as f:
                        f.write("import json, sys, os\\n"
                                "a = sys.argv\\n"
                                "if '-o' in a: json.dump({'totals': {'percent_covered': 100.0}}, "
                                "open(a[a.index('-o') + 1], 'w'))\\n"
                                "os._exit(0)\\n")
                except OSError:
                    pass

        def add(a, b):
            return a + b

        def unused(x):
            if x:
                return 1
            return 2
    """))
    cond = StoppingCondition(type="coverage_threshold", threshold=90, command=[
        PY, "-m", "coverage", "run", "--source=app", "-m", "pytest", "-q", "-p", "no:randomly"])
    run = run_sealed([cond], ws, box=Box("bwrap", ()) if boxed else Box())
    assert not run.results[0].passed and "coverage 100" not in run.results[0].summary, run.results[0].summary


def test_a_helper_folder_must_hold_exactly_what_goalkeeper_put_there(tmp_path: Path) -> None:
    step = new_step(tmp_path, "c0")
    assert step.helpers != step.out and step.helpers.parent == tmp_path
    (step.helpers / "bootstrap.py").write_bytes(b"boot")
    lock(step.helpers)
    assert unexpected(step.helpers, {"bootstrap.py": b"boot"}) == []
    assert oct(step.helpers.stat().st_mode & 0o777) == "0o555"
    os.chmod(step.helpers, 0o755)
    (step.helpers / "gk_probe").mkdir()
    assert unexpected(step.helpers, {"bootstrap.py": b"boot"}) == ["gk_probe (not goalkeeper's)"]
    os.chmod(step.helpers / "bootstrap.py", 0o644)
    (step.helpers / "bootstrap.py").write_bytes(b"other")
    assert "bootstrap.py (changed or missing)" in unexpected(step.helpers, {"bootstrap.py": b"boot"})


def test_the_box_follows_the_goals_sandbox_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    import goalkeeper.convergence.checkbox as cb

    assert box_mode("none") == "none"
    monkeypatch.setattr(cb, "bwrap_path", lambda: None)
    assert box_mode("auto") == "none"
    with pytest.raises(ConfigError, match="apt-get install bubblewrap"):
        box_mode("bwrap")
    monkeypatch.setattr(cb, "bwrap_path", lambda: "/usr/bin/bwrap")
    assert box_mode("auto") == box_mode("bwrap") == "bwrap"


@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_the_baseline_records_the_box_and_later_runs_keep_it(
        make_repo: Callable[..., Path], goalkeeper_home: Path, monkeypatch: pytest.MonkeyPatch, sandbox: str) -> None:
    import goalkeeper.convergence.seal as seal_mod
    from goalkeeper.convergence.goal import MakerSpec
    from goalkeeper.convergence.lifecycle import create_goal
    from goalkeeper.convergence.seal import Seal

    ws = make_repo({"app.py": "def add(a, b):\n    return a + b\n", "tests/test_app.py": TESTS,
                    "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["."]\n'})
    goal = create_goal("o", [PYTEST], workspace=ws, maker=MakerSpec(argv=["true"], sandbox=sandbox))
    seal = Seal(goal, ws, goalkeeper_home)
    info = seal.take_baseline()
    want = "bwrap" if sandbox == "auto" and bwrap_path() is not None else "none"
    assert info["checksBox"] == want and seal.box().mode == want
    if want == "bwrap":
        assert goalkeeper_home in seal.box().hidden
    monkeypatch.setattr(seal_mod, "bwrap_path", lambda: None)  # bubblewrap gone since the baseline
    if want == "bwrap":
        with pytest.raises(ConfigError, match="baseline checks ran in bubblewrap"):
            seal.run_checks()
    else:
        assert seal.run_checks().results[0].passed


def test_the_toolchains_folders_under_tmp_are_shown_in_the_box(tmp_path: Path) -> None:
    # a tools venv under /tmp whose .pth leads to another /tmp folder (a project cloned into /tmp):
    # both must be visible in the box, or the check cannot import pytest (an honest goal failed so)
    from goalkeeper.convergence.checkbox import step_policy
    from goalkeeper.proc.sandbox import bwrap_argv

    shared = Path(tempfile.mkdtemp(prefix="gk-shared-", dir="/tmp"))
    try:
        step = new_step(tmp_path, "c0")
        box = Box("bwrap", (), (shared / "lib" / "site-packages",))
        (shared / "lib" / "site-packages").mkdir(parents=True)
        pol = step_policy(box, step, tmp_path, {"PATH": "/usr/bin:/bin"}, owner=None, programs=["/usr/bin/true"])
        assert pol is not None and pol.sandbox is not None
        argv = bwrap_argv("bwrap", pol.sandbox, tmp_path, ["/usr/bin/true"])
        i = argv.index(str(shared))
        assert argv[i - 1] == "--ro-bind" and argv[i + 1] == str(shared)
    finally:
        import shutil

        shutil.rmtree(shared, ignore_errors=True)
