"""The spec loader under fuzzing: a Spec or a SpecError naming the place, nothing else, ever.

Bounded (derandomized, a few hundred examples per test) so the normal suite stays
fast; ``tests/fuzz/deep.py`` runs the same strategies for as long as asked.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goalkeeper.errors import SpecError
from goalkeeper.model import load_spec, parse_spec_text
from goalkeeper.model.lint import lint
from goalkeeper.model.vars import unset_variables

from .strategies import (
    VALID_JSON,
    VALID_YAML,
    binary_blobs,
    bombs,
    deep_texts,
    mutated,
    structured_specs,
)

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def check(path: Path) -> None:
    """What every command does with a spec file: load, lint, look for unset variables."""
    try:
        spec = load_spec(path)
    except SpecError as e:
        assert e.issues, "a SpecError lists at least one issue"
        for i in e.issues:
            assert isinstance(i.path, str) and i.message
            assert "Traceback" not in i.message
            i.format(str(path))
            json.dumps(i.to_dict())
        return
    lint(spec)
    unset_variables(spec, {})


def write(tmp: Path, name: str, data: str | bytes) -> Path:
    p = tmp / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass"))
    return p


@FAST
@given(text=mutated(VALID_YAML))
def test_mutated_yaml(tmp_path: Path, text: str) -> None:
    check(write(tmp_path, "spec.yaml", text))


@FAST
@given(text=mutated(VALID_JSON))
def test_mutated_json(tmp_path: Path, text: str) -> None:
    check(write(tmp_path, "spec.json", text))


@FAST
@given(spec=structured_specs, as_json=st.booleans())
def test_hostile_values_in_every_slot(tmp_path: Path, spec: dict[str, Any], as_json: bool) -> None:
    if as_json:
        check(write(tmp_path, "spec.json", json.dumps(spec)))
    else:
        try:
            text = yaml.safe_dump(spec, allow_unicode=True)
        except yaml.YAMLError:
            return  # a value PyYAML cannot write is no spec anyone has
        check(write(tmp_path, "spec.yaml", text))


@settings(FAST, max_examples=40)
@given(case=deep_texts)
def test_deep_nesting(tmp_path: Path, case: tuple[str, str]) -> None:
    text, fmt = case
    check(write(tmp_path, f"spec.{fmt}", text))


@settings(FAST, max_examples=40)
@given(text=bombs)
def test_alias_bombs_and_recursive_aliases(tmp_path: Path, text: str) -> None:
    check(write(tmp_path, "spec.yaml", text))


@FAST
@given(blob=binary_blobs, suffix=st.sampled_from(["yaml", "json"]))
def test_binary_files(tmp_path: Path, blob: bytes, suffix: str) -> None:
    check(write(tmp_path, f"spec.{suffix}", blob))


@FAST
@given(text=st.text(max_size=300))
def test_text_without_a_file(text: str) -> None:
    for as_json in (False, True):
        with contextlib.suppress(SpecError):
            parse_spec_text(text, json_format=as_json)


def test_not_a_regular_file(tmp_path: Path) -> None:
    for p in (tmp_path, Path("/dev/null")):
        link = tmp_path / f"link-{abs(hash(str(p)))}.yaml"
        link.symlink_to(p)
        check(link)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    check(zero)
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(64 << 20)
    check(huge)


def test_a_fifo_spec_or_goal_file_never_blocks_the_cli(tmp_path: Path) -> None:
    # Real subprocesses with a timeout: a blocking open() would hang here, not pass.
    home = tmp_path / "home"
    (home / "goals").mkdir(parents=True)
    os.mkfifo(home / "goals" / "goal-fifo0001.json")
    os.mkfifo(tmp_path / "spec.yaml")
    env = {**os.environ, "GOALKEEPER_HOME": str(home)}
    for args, needle in ((["validate", str(tmp_path / "spec.yaml")], "is a FIFO"),
                         (["plan", str(tmp_path / "spec.yaml")], "is a FIFO"),
                         (["goal", "status", "goal-fifo0001"], "is a FIFO"),
                         (["goal", "list"], "goal-fifo0001: damaged, skipped")):
        r = subprocess.run([sys.executable, "-m", "goalkeeper", *args], capture_output=True, text=True,
                           timeout=60, env=env)
        assert needle in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
