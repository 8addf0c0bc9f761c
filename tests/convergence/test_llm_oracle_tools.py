"""The oracle's read-only tools: confinement (.., absolute, symlinks), caps, git read-only."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.convergence.oracle_tools import OracleTools, iteration_diff
from goalkeeper.convergence.tree import walk as snapshot

from .helpers import git


@pytest.fixture
def ws(make_repo: Callable[..., Path], tmp_path: Path) -> Path:
    ws = make_repo({"src/app.py": "def add(a, b):\n    return a - b\n", "README.md": "hello\n"})
    (tmp_path / "secret.txt").write_text("TOP SECRET\n")
    os.symlink(tmp_path / "secret.txt", ws / "leak.txt")
    os.symlink(tmp_path, ws / "outside")
    os.symlink(ws / "README.md", ws / "readme-link.md")
    return ws


def test_read_file_numbers_lines(ws: Path) -> None:
    out = OracleTools(ws).call("read_file", {"path": "src/app.py"})
    assert "    1  def add(a, b):" in out and "return a - b" in out
    assert "hello" in OracleTools(ws).call("read_file", {"path": "readme-link.md"})  # inside: fine


@pytest.mark.parametrize("path", ["../secret.txt", "src/../../secret.txt", "/etc/passwd", "leak.txt",
                                  "outside/secret.txt", ".git/config", ""])
def test_escapes_are_refused(ws: Path, path: str) -> None:
    out = OracleTools(ws).call("read_file", {"path": path})
    assert out.startswith("refused:") and "TOP SECRET" not in out


def test_list_and_grep_do_not_follow_links_out(ws: Path) -> None:
    t = OracleTools(ws)
    listing = t.call("list_dir", {"path": "."})
    assert "src/" in listing and ".git" not in listing and "leak.txt -> (outside the workspace)" in listing
    assert t.call("list_dir", {"path": "outside"}).startswith("refused:")
    hits = t.call("grep", {"pattern": "SECRET|return"})
    assert "src/app.py:2:" in hits and "SECRET" not in hits
    assert t.call("grep", {"pattern": "return", "glob": "*.md"}) == "(no matches)"
    assert t.call("grep", {"pattern": "("}).startswith("refused: bad regex")


def test_git_tools_and_bad_refs(ws: Path) -> None:
    (ws / "src/app.py").write_text("def add(a, b):\n    return a + b\n")
    t = OracleTools(ws)
    diff = t.call("git_diff", {})
    assert "-    return a - b" in diff and "+    return a + b" in diff
    assert "init" in t.call("git_log", {"n": 5})
    assert t.call("git_diff", {"ref": "--output=/tmp/x"}).startswith("refused:")
    assert t.call("git_diff", {"path": "../x"}).startswith("refused:")


def test_tools_write_nothing(ws: Path) -> None:
    (ws / "src/app.py").write_text("changed\n")
    before = snapshot(ws)
    index = (ws / ".git" / "index").read_bytes()
    t = OracleTools(ws)
    for name, args in [("git_diff", {}), ("git_log", {}), ("grep", {"pattern": "x"}), ("list_dir", {}),
                       ("read_file", {"path": "README.md"})]:
        t.call(name, args)
    assert snapshot(ws).digest == before.digest and (ws / ".git" / "index").read_bytes() == index


def test_allowed_tools_filter(ws: Path) -> None:
    t = OracleTools(ws, allowed=["Grep"])
    assert t.enabled == ["grep"]
    assert t.call("read_file", {"path": "README.md"}).startswith("refused: tool 'read_file' is not available")
    assert t.call("read_file", {"nope": 1}).startswith("refused")
    assert OracleTools(ws, allowed=["Read"]).enabled == ["git_diff", "git_log", "read_file"]


def test_bad_arguments_are_text_not_exceptions(ws: Path) -> None:
    assert OracleTools(ws).call("read_file", {"path": "README.md", "bogus": 1}).startswith("refused: bad arguments")


def test_output_is_capped(ws: Path) -> None:
    (ws / "big.txt").write_text("line\n" * 50_000)
    out = OracleTools(ws).call("grep", {"pattern": "line", "max_matches": 10_000})
    assert "stopped at 500 matches" in out


def test_iteration_diff_shows_the_sealed_change_since_the_baseline(ws: Path) -> None:
    from goalkeeper.adapters.scripted import ScriptedMaker
    from goalkeeper.convergence import Budget, StoppingCondition, create_goal, run_goal

    def fix(req: object) -> str:
        (ws / "src/app.py").write_text("def add(a, b):\n    return a + b\n")
        return "fixed"

    g = create_goal("o", [StoppingCondition(command=["false"])], workspace=ws, budget=Budget(max_iterations=1))
    run_goal(g.goal_id, maker=ScriptedMaker([fix]))
    (ws / "README.md").write_text("later change, not part of iteration 1\n")
    d = iteration_diff(ws, g.goal_id, 1)
    assert "+    return a + b" in d and "later change" not in d
    assert iteration_diff(ws, g.goal_id, 7) == "(no changes since the baseline)"
    assert "no diff available" in iteration_diff(ws, "goal-nosuch00", 1)


def test_iteration_diff_outside_git(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert iteration_diff(plain, "goal-aaaaaaaa", 1).startswith("(no diff available")
    git(plain, "init", "-q")


def test_planted_git_config_runs_nothing_during_the_oracles_git_tools(ws: Path, tmp_path: Path) -> None:
    """A maker plants every git hook into the workspace's config; the oracle's git_diff/git_log run none."""
    ran = tmp_path / "ran"
    probe = tmp_path / "probe.sh"
    probe.write_text(f"#!/bin/sh\necho \"$0 $*\" >> {ran}\ncat\n")
    probe.chmod(0o755)
    (ws / ".gitattributes").write_text("*.py filter=evil diff=evil\n")
    for key, value in [("filter.evil.clean", str(probe)), ("filter.evil.smudge", str(probe)),
                       ("filter.evil.process", str(probe)), ("diff.evil.textconv", str(probe)),
                       ("diff.external", str(probe)), ("core.fsmonitor", str(probe)), ("core.pager", str(probe)),
                       ("core.hooksPath", str(tmp_path)), ("pager.log", str(probe)), ("log.showSignature", "true"),
                       ("gpg.program", str(probe)), ("alias.log", f"!{probe}"), ("core.sshCommand", str(probe))]:
        git(ws, "config", key, value)
    (tmp_path / "post-index-change").write_text(f"#!/bin/sh\necho hook >> {ran}\n")
    (tmp_path / "post-index-change").chmod(0o755)
    (ws / "src/app.py").write_text("def add(a, b):\n    return a + b\n")
    t = OracleTools(ws)
    diff = t.call("git_diff", {})
    log = t.call("git_log", {"n": 3, "path": "src/app.py"})
    assert "+    return a + b" in diff and "init" in log
    assert not ran.exists(), ran.read_text()


@pytest.mark.parametrize("path", [":(top)", ":/", ":!README.md", ":(glob)**/*", ":(icase)SRC", "*", "src/*.py"])
def test_pathspec_magic_is_literal(ws: Path, path: str) -> None:
    """Paths are literal: magic and globs name no file, so they show nothing rather than more."""
    (ws / "src/app.py").write_text("def add(a, b):\n    return a + b\n")
    out = OracleTools(ws).call("git_diff", {"path": path})
    assert "return a + b" not in out


def test_a_hard_link_to_a_file_outside_is_refused(ws: Path, tmp_path: Path) -> None:
    os.link(tmp_path / "secret.txt", ws / "notes.txt")
    t = OracleTools(ws)
    assert t.call("read_file", {"path": "notes.txt"}).startswith("refused:")
    assert "TOP SECRET" not in t.call("grep", {"pattern": "SECRET"})
