"""Observers: command, file, http, python. Failures become unknown (None) with a reason."""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from goalkeeper.model.loader import spec_from_data
from goalkeeper.model.spec import Spec
from goalkeeper.runtime.observers import (
    OBSERVERS,
    Observation,
    ObserveContext,
    observe_all,
    observe_fact,
)

from .helpers import PY


def make_spec(facts: dict[str, Any], observe_timeout: float = 60) -> Spec:
    """A spec holding ``facts`` plus a goal fact; observers are what is under test."""
    return spec_from_data({
        "goalkeeper": 1,
        "goal": {"goal_fact": True},
        "facts": {"goal_fact": {"observe": {"file": "never"}}, **facts},
        "policy": {"observe_timeout": observe_timeout},
    })


def observe(tmp_path: Path, fdef: dict[str, Any], env: dict[str, str] | None = None) -> Observation:
    spec = make_spec({"f": fdef})
    ctx = ObserveContext(base_dir=tmp_path, env={**os.environ, **(env or {})})
    return observe_fact(spec, "f", ctx)


def assert_unknown(o: Observation, *needles: str) -> None:
    assert o.value is None and not o.known
    assert o.error
    assert "Traceback" not in o.error
    for n in needles:
        assert n in o.error, o.error


# -- command ----------------------------------------------------------------------


@pytest.mark.parametrize(("code", "want"), [(0, True), (1, False), (42, False)])
def test_command_exit_code_is_the_bool(tmp_path: Path, code: int, want: bool) -> None:
    o = observe(tmp_path, {"observe": {"command": f"exit {code}"}})
    assert o.value is want and o.error is None


def test_command_exit_code_for_an_int_fact(tmp_path: Path) -> None:
    o = observe(tmp_path, {"type": "int", "observe": {"command": "exit 3", "parse": "exit_code"}})
    assert o.value == 3


def test_command_number_from_stdout(tmp_path: Path) -> None:
    o = observe(tmp_path, {"type": "int", "observe": {"command": "echo 'open issues: 12'"}})
    assert o.value == 12
    o = observe(tmp_path, {"type": "float", "observe": {"command": [PY, "-c", "print(0.25)"],
                                                        "parse": "number"}})
    assert o.value == 0.25


def test_command_json_path(tmp_path: Path) -> None:
    cmd = [PY, "-c", "import json; print(json.dumps({'a': {'b': [0, {'ok': True}]}}))"]
    o = observe(tmp_path, {"observe": {"command": cmd, "parse": "json", "path": "a.b[1].ok"}})
    assert o.value is True


def test_command_regex(tmp_path: Path) -> None:
    o = observe(tmp_path, {"type": "int", "observe": {
        "command": "echo '5 passed, 2 failed'", "parse": "regex", "pattern": r"(\d+) failed"}})
    assert o.value == 2
    o = observe(tmp_path, {"observe": {"command": "echo 'all 5 passed'", "parse": "regex",
                                        "pattern": "passed"}})
    assert o.value is True


def test_command_str_text(tmp_path: Path) -> None:
    o = observe(tmp_path, {"type": "str", "observe": {"command": "printf '  main \\n'"}})
    assert o.value == "main"


@pytest.mark.parametrize(
    ("fdef", "needle"),
    [
        ({"type": "int", "observe": {"command": "echo 'no digits at all'"}}, "no number"),
        ({"type": "int", "observe": {"command": "echo '{oops'", "parse": "json"}}, "not JSON"),
        ({"observe": {"command": "echo '<html>'", "parse": "json", "path": "a"}}, "not JSON"),
        ({"observe": {"command": "echo '{\"a\": 1}'", "parse": "json", "path": "b"}}, "not found"),
        ({"type": "int", "observe": {"command": "echo nope", "parse": "regex", "pattern": r"(\d+)"}},
         "not found"),
        ({"observe": {"command": "echo maybe", "parse": "text"}}, "true/false"),
    ],
)
def test_command_garbage_output_is_unknown_with_reason(tmp_path: Path, fdef: dict[str, Any],
                                                       needle: str) -> None:
    assert_unknown(observe(tmp_path, fdef), needle)


def test_command_nonzero_exit_with_a_text_parser_is_unknown(tmp_path: Path) -> None:
    o = observe(tmp_path, {"type": "int", "observe": {"command": "echo 5; echo broken >&2; exit 2"}})
    assert_unknown(o, "exit 2", "broken")


def test_command_not_found_is_unknown(tmp_path: Path) -> None:
    o = observe(tmp_path, {"observe": {"command": ["gk-no-such-observer-xyz"]}})
    assert_unknown(o, "command not found")


def test_command_killed_is_unknown_not_false(tmp_path: Path) -> None:
    o = observe(tmp_path, {"observe": {"command": "kill -9 $$"}})
    assert_unknown(o, "killed by SIGKILL")


def test_hung_command_times_out_to_unknown(tmp_path: Path) -> None:
    o = observe(tmp_path, {"observe": {"command": ["sleep", "60"], "timeout": 1}})
    assert_unknown(o, "timed out")


def test_policy_observe_timeout_applies_without_a_per_observer_timeout(tmp_path: Path) -> None:
    spec = make_spec({"f": {"observe": {"command": ["sleep", "60"]}}}, observe_timeout=0.5)
    o = observe_fact(spec, "f", ObserveContext(base_dir=tmp_path))
    assert_unknown(o, "timed out")


def test_command_cwd_and_env(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "marker").write_text("")
    o = observe(tmp_path, {"observe": {"command": "test -f marker", "cwd": "sub"}})
    assert o.value is True
    o = observe(tmp_path, {"type": "str", "observe": {
        "command": "echo \"$GK_OBS\"", "env": {"GK_OBS": "${GK_BASE}-x"}}}, env={"GK_BASE": "base"})
    assert o.value == "base-x"


# -- file -------------------------------------------------------------------------


def test_file_exists(tmp_path: Path) -> None:
    assert observe(tmp_path, {"observe": {"file": "flag"}}).value is False
    (tmp_path / "flag").write_text("")
    assert observe(tmp_path, {"observe": {"file": "flag"}}).value is True


def test_file_path_expands_env(tmp_path: Path) -> None:
    world = tmp_path / "world"
    world.mkdir()
    (world / "flag").write_text("")
    o = observe(tmp_path, {"observe": {"file": "${GK_WORLD}/flag"}}, env={"GK_WORLD": str(world)})
    assert o.value is True


def test_file_contents(tmp_path: Path) -> None:
    (tmp_path / "count.txt").write_text("total: 17\n")
    (tmp_path / "status.json").write_text('{"deploy": {"ready": true, "version": "1.4"}}')
    (tmp_path / "branch").write_text("main\n")
    assert observe(tmp_path, {"type": "int", "observe": {"file": "count.txt"}}).value == 17
    assert observe(tmp_path, {"observe": {"file": "status.json", "parse": "json",
                                          "path": "deploy.ready"}}).value is True
    assert observe(tmp_path, {"type": "str", "observe": {"file": "status.json", "parse": "json",
                                                         "path": "deploy.version"}}).value == "1.4"
    assert observe(tmp_path, {"type": "str", "observe": {"file": "branch"}}).value == "main"


def test_file_missing_or_garbage_is_unknown(tmp_path: Path) -> None:
    assert_unknown(observe(tmp_path, {"type": "int", "observe": {"file": "absent.txt"}}),
                   "file not found")
    (tmp_path / "g.json").write_text("not json {")
    assert_unknown(observe(tmp_path, {"observe": {"file": "g.json", "parse": "json", "path": "a"}}),
                   "not JSON")
    (tmp_path / "dir").mkdir()
    assert_unknown(observe(tmp_path, {"type": "str", "observe": {"file": "dir"}}), "cannot read")


# -- http -------------------------------------------------------------------------


@pytest.mark.parametrize(("route", "want"), [("/ok", True), ("/missing", False), ("/boom", False)])
def test_http_status_as_bool(tmp_path: Path, http_url: str, route: str, want: bool) -> None:
    o = observe(tmp_path, {"observe": {"http": http_url + route}})
    assert o.value is want
    assert o.detail.startswith("HTTP ")


def test_http_expect_status(tmp_path: Path, http_url: str) -> None:
    o = observe(tmp_path, {"observe": {"http": http_url + "/missing", "expect_status": 404}})
    assert o.value is True
    o = observe(tmp_path, {"observe": {"http": http_url + "/ok", "expect_status": 404}})
    assert o.value is False


def test_http_status_as_int(tmp_path: Path, http_url: str) -> None:
    o = observe(tmp_path, {"type": "int", "observe": {"http": http_url + "/boom", "parse": "status"}})
    assert o.value == 500


def test_http_json_body_with_path(tmp_path: Path, http_url: str) -> None:
    url = http_url + "/ok"
    assert observe(tmp_path, {"observe": {"http": url, "parse": "json",
                                          "path": "data.items[1].ok"}}).value is True
    assert observe(tmp_path, {"type": "int", "observe": {"http": url, "parse": "json",
                                                         "path": "data.count"}}).value == 7
    # a JSON body of an error response is still parsed
    assert observe(tmp_path, {"type": "str", "observe": {"http": http_url + "/missing", "parse": "json",
                                                         "path": "error"}}).value == "not found"


def test_http_number_and_url_from_env(tmp_path: Path, http_url: str) -> None:
    o = observe(tmp_path, {"type": "int", "observe": {"http": "${GK_URL}/text"}}, env={"GK_URL": http_url})
    assert o.value == 38


def test_http_garbage_json_is_unknown(tmp_path: Path, http_url: str) -> None:
    o = observe(tmp_path, {"observe": {"http": http_url + "/garbage", "parse": "json", "path": "ok"}})
    assert_unknown(o, "not JSON")


def test_http_connection_refused_is_false_for_a_health_bool(tmp_path: Path, closed_port: int) -> None:
    o = observe(tmp_path, {"observe": {"http": f"http://127.0.0.1:{closed_port}/health"}})
    assert o.value is False
    assert o.error is None
    assert "unreachable" in o.detail


def test_http_connection_refused_is_unknown_for_a_number(tmp_path: Path, closed_port: int) -> None:
    o = observe(tmp_path, {"type": "int", "observe": {"http": f"http://127.0.0.1:{closed_port}/n"}})
    assert_unknown(o, "failed")


def test_http_slow_endpoint_times_out_to_unknown_not_false(tmp_path: Path, http_url: str) -> None:
    o = observe(tmp_path, {"observe": {"http": http_url + "/slow", "timeout": 0.5}})
    assert_unknown(o, "timed out")


@pytest.mark.parametrize("route", ["/headers", "/body"])
@pytest.mark.parametrize("ftype", ["bool", "int"])
def test_http_timeout_is_one_deadline_for_the_whole_request(
        tmp_path: Path, dripping_url: str, route: str, ftype: str) -> None:
    # A byte every 0.2 s keeps each socket read inside a 1 s timeout; the request as a
    # whole must still end at the deadline, as unknown (never false, never a hang).
    start = time.monotonic()
    o = observe(tmp_path, {"type": ftype, "observe": {"http": dripping_url + route, "timeout": 1}})
    assert_unknown(o, "timed out after 1s", "connect, headers and body together")
    assert time.monotonic() - start < 30  # generous: the server would drip for a minute


def test_http_non_http_url_is_unknown(tmp_path: Path) -> None:
    # A literal file:// URL is refused when the spec loads; one built from ${VAR} is only known now.
    o = observe(tmp_path, {"observe": {"http": "${GK_URL}"}}, env={"GK_URL": "file:///etc/passwd"})
    assert_unknown(o, "not an http(s) URL")


# -- python -----------------------------------------------------------------------

PROBES = '''
import time

def healthy():
    return True

def count():
    return 42

def text_flag():
    return "yes"

def boom():
    raise RuntimeError("probe exploded")

def hang():
    time.sleep(60)

def not_json():
    return {1, 2}

def nothing():
    return None
'''


@pytest.fixture
def probes(tmp_path: Path) -> Path:
    (tmp_path / "gk_probes.py").write_text(textwrap.dedent(PROBES))
    return tmp_path


@pytest.mark.parametrize(("fn", "ftype", "want"),
                         [("healthy", "bool", True), ("count", "int", 42), ("count", "float", 42.0),
                          ("text_flag", "bool", True)])
def test_python_callable_value(probes: Path, fn: str, ftype: str, want: Any) -> None:
    o = observe(probes, {"type": ftype, "observe": {"python": f"gk_probes:{fn}"}})
    assert o.value == want and type(o.value) is type(want)


def test_python_callable_that_raises_is_unknown(probes: Path) -> None:
    assert_unknown(observe(probes, {"observe": {"python": "gk_probes:boom"}}), "probe exploded")


def test_python_callable_that_hangs_is_unknown(probes: Path) -> None:
    o = observe(probes, {"observe": {"python": "gk_probes:hang", "timeout": 1}})
    assert_unknown(o, "gk_probes:hang")


@pytest.mark.parametrize("fn", ["not_json", "nothing"])
def test_python_callable_returning_non_json_or_null_is_unknown(probes: Path, fn: str) -> None:
    assert_unknown(observe(probes, {"observe": {"python": f"gk_probes:{fn}"}}))


@pytest.mark.parametrize("target", ["gk_no_such_module:f", "gk_probes:no_such_fn"])  # no colon: refused at load
def test_python_bad_target_is_unknown(probes: Path, target: str) -> None:
    assert_unknown(observe(probes, {"observe": {"python": target}}))


# -- the loop's guarantees --------------------------------------------------------


def test_fact_without_observer_is_unknown(tmp_path: Path) -> None:
    spec = make_spec({"f": {}})
    o = observe_fact(spec, "f", ObserveContext(base_dir=tmp_path))
    assert_unknown(o, "no observer")


def test_an_observer_bug_becomes_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any) -> tuple[Any, str]:
        raise KeyError("bug inside an observer")

    monkeypatch.setitem(OBSERVERS, "command", broken)
    o = observe(tmp_path, {"observe": {"command": "true"}})
    assert_unknown(o, "observer crashed", "KeyError")


def test_observers_run_concurrently(tmp_path: Path) -> None:
    # Each observer announces itself, then waits until all have: only possible if they
    # run at the same time. Run one after another, the first would wait until its timeout.
    n = 4
    script = ("import os, sys, time; n = sys.argv[1]; open('start_' + n, 'w').close()\n"
              "while len([f for f in os.listdir('.') if f.startswith('start_')]) < 4: time.sleep(0.01)\n")
    facts = {f"f{i}": {"observe": {"command": [PY, "-c", script, str(i)], "timeout": 60}} for i in range(n)}
    spec = make_spec(facts)
    got = observe_all(spec, list(facts), ObserveContext(base_dir=tmp_path))
    assert all(o.value is True for o in got.values()), got


def test_a_hung_observer_does_not_stop_the_others(tmp_path: Path) -> None:
    (tmp_path / "flag").write_text("")
    spec = make_spec({
        "hung": {"observe": {"command": ["sleep", "60"], "timeout": 1}},
        "garbage": {"type": "int", "observe": {"command": "echo '%%%'"}},
        "fine": {"observe": {"file": "flag"}},
    })
    got = observe_all(spec, ["hung", "garbage", "fine"], ObserveContext(base_dir=tmp_path))
    assert set(got) == {"hung", "garbage", "fine"}
    assert_unknown(got["hung"], "timed out")
    assert_unknown(got["garbage"], "no number")
    assert got["fine"].value is True


def test_observe_all_of_nothing() -> None:
    assert observe_all(make_spec({}), [], ObserveContext(base_dir=Path("."))) == {}
