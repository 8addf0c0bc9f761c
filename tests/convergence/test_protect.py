"""A new conftest.py beside new tests may share fixtures; one that hooks pytest stays sealed."""

from __future__ import annotations

from pathlib import Path

import pytest

from goalkeeper.convergence.protect import protected_findings
from goalkeeper.convergence.tree import walk

FIXTURE = "import pytest\n\n\n@pytest.fixture\ndef items():\n    return [1, 2]\n"


def _findings(tmp_path: Path, rel: str, text: str) -> list[str]:
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "tests" / "test_old.py").write_text("def test_old():\n    assert True\n")
    base = walk(ws)
    (ws / rel).parent.mkdir(parents=True, exist_ok=True)
    (ws / rel).write_text(text)
    return [f.text() for f in protected_findings(base, walk(ws), read=lambda r: (ws / r).read_bytes())]


def test_a_fixture_only_conftest_for_new_tests_is_allowed(tmp_path: Path) -> None:
    assert _findings(tmp_path, "tests/receipt/conftest.py", FIXTURE) == []


@pytest.mark.parametrize("text", [
    FIXTURE + "\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n",
    FIXTURE + "pytest_plugins = ['evil']\n",
    FIXTURE + "collect_ignore = ['test_x.py']\n",
    FIXTURE + "globals()['pytest_' + 'configure'] = print\n",
    "def broken(:\n",
])
def test_a_conftest_that_hooks_pytest_is_sealed(tmp_path: Path, text: str) -> None:
    assert any("conftest.py" in f for f in _findings(tmp_path, "tests/receipt/conftest.py", text))


def test_a_new_conftest_above_baseline_tests_is_sealed(tmp_path: Path) -> None:
    assert any("conftest.py" in f for f in _findings(tmp_path, "tests/conftest.py", FIXTURE))
    assert any("conftest.py" in f for f in _findings(tmp_path / "root", "conftest.py", FIXTURE))


def test_a_report_folder_that_ignores_itself_is_allowed(tmp_path: Path) -> None:
    assert _findings(tmp_path, "htmlcov/.gitignore", "# Created by coverage.py\n*\n") == []


def test_an_ignore_file_over_code_is_sealed(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "gen").mkdir(parents=True)
    base = walk(ws)
    (ws / "gen" / ".gitignore").write_text("*\n")
    (ws / "gen" / "hidden.py").write_text("import os\n")
    assert [f.path for f in protected_findings(base, walk(ws))] == ["gen/.gitignore"]
    assert any("tests/.gitignore" in f for f in _findings(tmp_path / "t", "tests/.gitignore", "*\n"))


@pytest.mark.parametrize("text", [
    # the hook's name split where no piece starts with "pytest_"
    FIXTURE + "globals()['pyt' + 'est_collection_modifyitems'] = lambda items: items.clear()\n",
    FIXTURE + "globals()['_'.join(['pytest', 'configure'])] = print\n",
    # a plugin registered from a fixture: its hook is a method whose name is built at run time
    FIXTURE + "\n\nclass P:\n    pass\n\n\nsetattr(P, 'pyt' + 'est_runtest_logreport', lambda self, report: None)\n\n\n"
              "@pytest.fixture(autouse=True, scope='session')\ndef _plug(request):\n"
              "    request.config.pluginmanager.register(P())\n",
])
def test_round7_a_conftest_hook_named_in_pieces_is_sealed(tmp_path: Path, text: str) -> None:
    assert any("conftest.py" in f for f in _findings(tmp_path, "tests/receipt/conftest.py", text))
