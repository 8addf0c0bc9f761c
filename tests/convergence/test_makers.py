from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from goalkeeper.adapters import CommandMaker, MakerRequest, get_maker
from goalkeeper.adapters.makers import parse_report
from goalkeeper.convergence import MakerSpec
from goalkeeper.errors import ConfigError

ECHO = "import json,os,sys; print(json.dumps({'argv': sys.argv[1:], 'hint': os.environ['GOALKEEPER_HINT']}))"


def _req(tmp_path: Path, hint: str | None = None, timeout: float | None = None) -> MakerRequest:
    return MakerRequest("goal-abcd1234", "fix; rm -rf / $(x)", hint, 1, tmp_path, timeout)


def test_values_are_whole_arguments_never_a_shell(tmp_path: Path) -> None:
    m = CommandMaker([sys.executable, "-c", ECHO, "{objective}", "{hint}"])
    res = m.make(_req(tmp_path, hint="it's `broken` \"here\""))
    out = json.loads(res.output_tail.strip().splitlines()[-1])
    assert out["argv"] == ["fix; rm -rf / $(x)", "it's `broken` \"here\""]
    assert out["hint"] == "it's `broken` \"here\""


def test_last_line_json_reports_cost_and_summary(tmp_path: Path) -> None:
    code = "print('working'); print('{\"costDollars\": 0.25, \"summary\": \"fixed parse()\"}')"
    res = CommandMaker([sys.executable, "-c", code]).make(_req(tmp_path))
    assert res.cost_dollars == 0.25 and res.summary == "fixed parse()"
    assert parse_report("no json here") == {}


def test_timeout_kills_the_maker(tmp_path: Path) -> None:
    res = CommandMaker([sys.executable, "-c", "import time; time.sleep(30)"]).make(_req(tmp_path, timeout=0.5))
    assert res.timed_out and res.exit_code is None and "timed out" in res.summary


def test_failing_maker_summary_quotes_stderr(tmp_path: Path) -> None:
    res = CommandMaker([sys.executable, "-c", "import sys; sys.exit('boom')"]).make(_req(tmp_path))
    assert res.exit_code == 1 and "boom" in res.summary


def test_registry() -> None:
    assert isinstance(get_maker(MakerSpec(argv=["true"])), CommandMaker)
    with pytest.raises(ConfigError, match="not registered"):
        get_maker(MakerSpec(type="no-such-maker", argv=[]))
    with pytest.raises(ConfigError, match="--maker"):
        get_maker(MakerSpec(argv=[]))
