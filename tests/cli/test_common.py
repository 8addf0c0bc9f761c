"""cli._common: output that cannot crash or take over the terminal; JSON that always parses."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from goalkeeper.cli._common import clean, esc, json_safe

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.parametrize(("raw", "shown"), [
    ("a\x1b[2Jb", "a\\x1b[2Jb"),  # ESC: no screen clearing from a spec or a maker
    ("bell\x07", "bell\\x07"),
    ("x\ud800y", "x\ufffdy"),  # a lone surrogate cannot be encoded: shown as U+FFFD
    ("rtl\u202eevil", "rtl\\u202eevil"),  # bidi override
    ("keep\nlines\tand tabs", "keep\nlines\tand tabs"),
    ("\x9b31m", "\\x9b31m"),  # C1 control (CSI)
])
def test_clean(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_esc_escapes_markup_after_cleaning() -> None:
    assert esc("[bold red]x[/]") == "\\[bold red]x\\[/]"
    assert esc(None) == "None"


def test_json_safe_output_always_parses() -> None:
    data = {"s": "a\ud800", 1: float("nan"), "l": [float("inf"), "\udfff"], "o": Path("/x")}
    text = json.dumps(json_safe(data), allow_nan=False)
    assert text.isascii()
    assert json.loads(text) == {"s": "a\ufffd", "1": None, "l": [None, "\ufffd"], "o": "/x"}


HOSTILE = '"\\ud800\\u001b[31m[bold]x"'  # JSON escapes: a lone surrogate, ESC and markup in a key


def test_validate_with_a_lone_surrogate_and_escapes_in_the_spec(run_cli: Run, tmp_path: Path) -> None:
    p = tmp_path / "spec.json"
    p.write_text(f'{{"goalkeeper": 1, "goal": {{{HOSTILE}: true}}, "facts": {{"a": {{"observe": {{"file": "a"}}}}}}}}')
    r = run_cli("validate", p)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr + r.stdout
    assert "\x1b" not in r.stderr and "\\x1b[31m" in r.stderr and "unknown fact" in r.stderr
    j = run_cli("validate", "--json", p)
    assert j.returncode == 1 and "Traceback" not in j.stderr
    out = json.loads(j.stdout)
    assert out["valid"] is False and out["issues"][0]["path"].startswith("goal.\ufffd")
