"""The standalone ``runner.py`` (``build --target code``) fed damaged files: a state, a proposal or an action
table that is not what it should be gets one line naming the file and what is wrong (exit 1 or 2), never a
Python traceback. The runner ships to places without goalkeeper, so its own messages are all a user sees."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from goalkeeper.build import build, write_build
from goalkeeper.model.loader import load_spec

SPECS = Path(__file__).parent.parent / "model" / "specs"


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("agent")
    write_build(build(load_spec(SPECS / "minimal.yaml"), "code"), out)
    return out


def _table(agent: Path) -> dict[str, object]:
    return json.loads((agent / "actions.json").read_text())  # type: ignore[no-any-return]


def _damaged_tables(agent: Path) -> dict[str, str]:
    no_facts = _table(agent)
    del no_facts["facts"]
    short_pre = _table(agent)
    short_pre["actions"][0]["pre"] = [["done"]]  # type: ignore[index]
    return {"not-json": "nope", "a-list": "[1]", "no-facts": json.dumps(no_facts),
            "short-condition": json.dumps(short_pre)}


def _run(agent: Path, work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", str(agent / "runner.py"), "--workdir", str(work), *args],
                          capture_output=True, text=True, timeout=60, cwd=work)


def _assert_clean(r: subprocess.CompletedProcess[str], *needles: str) -> None:
    text = r.stdout + r.stderr
    assert r.returncode in (1, 2), (r.returncode, text)
    assert "Traceback" not in text, text[-600:]
    for n in needles:
        assert n in text, text[-600:]


# wrong-type: planned on as if "yes" were a value of a bool fact (exit 3, "unreachable")
STATES = {"not-json": "nope", "a-list": "[1]", "wrong-type": '{"done": "yes"}'}


@pytest.mark.parametrize("name", list(STATES))
def test_a_damaged_state_file_is_named(agent: Path, tmp_path: Path, name: str) -> None:
    (tmp_path / "st.json").write_text(STATES[name])
    _assert_clean(_run(agent, tmp_path, "plan", "--state", "st.json"), "st.json")


def test_a_missing_state_file_is_named(agent: Path, tmp_path: Path) -> None:
    _assert_clean(_run(agent, tmp_path, "plan", "--state", "missing.json"), "missing.json")


@pytest.mark.parametrize("text", ["nope", "[]"], ids=["not-json", "a-list"])
def test_a_damaged_proposal_is_named(agent: Path, tmp_path: Path, text: str) -> None:
    (tmp_path / "proposal.json").write_text(text)
    (tmp_path / "st.json").write_text('{"done": false}')
    _assert_clean(_run(agent, tmp_path, "check", "proposal.json", "--state", "st.json"), "proposal.json")


@pytest.mark.parametrize("mode", ["plan", "run"])
@pytest.mark.parametrize("name", ["not-json", "a-list", "no-facts", "short-condition"])
def test_a_damaged_action_table_is_named(agent: Path, tmp_path: Path, mode: str, name: str) -> None:
    (tmp_path / "t.json").write_text(_damaged_tables(agent)[name])
    _assert_clean(_run(agent, tmp_path, mode, "--table", "t.json"), "t.json")


def test_a_table_of_a_format_the_runner_does_not_know_is_refused(agent: Path, tmp_path: Path) -> None:
    # read today as if it were format 1, and run
    table = _table(agent)
    table["format"] = "goalkeeper-action-table/99"
    (tmp_path / "t.json").write_text(json.dumps(table))
    r = _run(agent, tmp_path, "run", "--table", "t.json")
    _assert_clean(r, "t.json", "format")
    assert not (tmp_path / "done.flag").exists()  # nothing ran
