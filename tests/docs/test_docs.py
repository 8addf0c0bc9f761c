"""Docs that cannot rot: every example block in README.md, docs/*.md and the examples' READMEs is
exercised. Spec blocks validate and plan; other YAML, TOML and JSON parse (a price table as a price
table); every `goalkeeper` command parses against the real CLI (subcommands, options, choices),
the ones that run offline run for real in a temp copy of the repo, and every file another command
names (a script, an extra, a directory to copy) exists."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import click
import pytest
import yaml

from .blocks import DOCS, ROOT, Block, Command, all_blocks, commands, inline_commands, is_shell

CLI = [sys.executable, "-m", "goalkeeper"]
BLOCKS = all_blocks()
SHELL = [b for b in BLOCKS if is_shell(b)]
YAML = [b for b in BLOCKS if b.lang in ("yaml", "yml")]
# Subcommands that need nothing but the repo: run for real. The rest need a server, an agent or a
# goal id that only exists after earlier commands; they are parsed, not run (see test_parse).
RUNNABLE = {"plan", "validate", "build", "schema", "observe", "run"}


def _gk(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    return subprocess.run([*CLI, *args], cwd=cwd, env=full, capture_output=True, text=True, timeout=120)


def _ids(items: list[Block]) -> list[str]:
    return [b.where for b in items]


def test_the_docs_have_examples_to_check() -> None:
    """The extractor is not blind: it finds the README's spec and quick start."""
    assert any(b.path.name == "README.md" and "goalkeeper: 1" in b.text for b in YAML)
    assert any("pip install" in b.text for b in SHELL) and len(SHELL) >= 5


@pytest.mark.parametrize("block", YAML, ids=_ids(YAML))
def test_yaml_blocks_are_valid(block: Block, tmp_path: Path) -> None:
    data = yaml.safe_load(block.text)
    if isinstance(data, dict) and "goalkeeper" in data:
        spec = tmp_path / "spec.yaml"
        spec.write_text(block.text)
        v = _gk("validate", str(spec), cwd=tmp_path)
        assert v.returncode == 0, f"{block.where}: validate failed:\n{v.stdout}{v.stderr}"
        assert "0 warning(s)" in v.stdout, f"{block.where}: a copied example should not warn:\n{v.stdout}"
        p = _gk("plan", str(spec), cwd=tmp_path)
        assert p.returncode == 0, f"{block.where}: plan failed:\n{p.stdout}{p.stderr}"
    elif "GOALKEEPER_PRICES" in block.text:
        from goalkeeper.llm._prices import _parse

        assert _parse(data, block.where)
    else:
        assert data is not None, f"{block.where}: empty YAML block"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang in ("toml", "json")],
                         ids=_ids([b for b in BLOCKS if b.lang in ("toml", "json")]))
def test_toml_and_json_blocks_parse(block: Block) -> None:
    if block.lang == "toml":
        tomllib.loads(block.text)
    else:
        json.loads(block.text)


# --- commands ----------------------------------------------------------------------------------

def _shell_commands() -> list[Command]:
    return [c for b in SHELL for chain in commands(b) for c in chain]


def _gk_commands() -> list[tuple[str, list[str]]]:
    """(where, argv after `goalkeeper`) of every goalkeeper command: in shell blocks and inline."""
    out = [(c.where, c.argv[1:]) for c in _shell_commands() if c.argv and c.argv[0] == "goalkeeper"]
    for path in DOCS:
        for n, text in inline_commands(path):  # prose names a command: its names and flags must exist
            out.append((f"{path.relative_to(ROOT)}:{n}", [*text.split()[1:], "..."]))
    return out


def _is_synopsis(argv: list[str]) -> bool:
    return any("|" in w or "[" in w or w == "..." for w in argv)


def _walk(words: list[str]) -> list[click.Command]:
    """The commands a synopsis names (`goal new|run ...` -> both), checking that each exists."""
    from goalkeeper.cli import cli

    level: list[click.Command] = [cli]
    for w in words:
        if w.startswith("-") or not all(isinstance(c, click.Group) for c in level):
            break
        nxt = []
        for group in level:
            assert isinstance(group, click.Group)
            for alt in w.split("|"):
                sub = group.get_command(click.Context(group), alt)
                if sub is None:
                    return []
                nxt.append(sub)
        level = nxt
    return level


def _parse(argv: list[str]) -> None:
    """Parse a full command the way the CLI will (raises click.UsageError on a bad option)."""
    from goalkeeper.cli import cli

    cmd: click.Command = cli
    ctx: click.Context | None = None
    args = list(argv)
    name = "goalkeeper"
    while True:
        ctx = cmd.make_context(name, args, parent=ctx)
        if not isinstance(cmd, click.Group):
            return
        rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
        found, sub, args = cmd.resolve_command(ctx, rest)
        assert sub is not None and found is not None
        cmd, name = sub, found


# Rot found by these tests in files outside this branch: each is expected to fail (strict), so the
# entry must go when the doc is fixed.
KNOWN_ROT: dict[str, str] = {}


def _problem(argv: list[str]) -> str | None:
    """Why `goalkeeper ARGV` would not parse, or None."""
    if _is_synopsis(argv):
        cmds = _walk(argv)
        if not cmds:
            return "names a subcommand that does not exist"
        flags = {re.split(r"[=\]]", w.lstrip("["))[0] for w in argv if w.lstrip("[").startswith("--")}
        known = {o for c in cmds for p in c.params for o in (*p.opts, *p.secondary_opts)} | {"-h", "--help"}
        return f"unknown option(s) {sorted(flags - known)}" if flags - known else None
    try:
        _parse(argv)
    except click.BadParameter as e:
        if "does not exist" not in e.format_message():  # a path the example creates first is fine
            return f"does not parse: {e.format_message()}"
    except click.ClickException as e:
        return f"does not parse: {e.format_message()}"
    return None


@pytest.mark.parametrize(("where", "argv"), _gk_commands(), ids=[w for w, _ in _gk_commands()])
def test_every_goalkeeper_command_in_the_docs_parses(where: str, argv: list[str]) -> None:
    problem = _problem(argv)
    if where in KNOWN_ROT:
        assert problem is not None, f"{where} is fixed: remove it from KNOWN_ROT"
        pytest.xfail(KNOWN_ROT[where])
    assert problem is None, f"{where}: `goalkeeper {' '.join(argv)}` {problem}"


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples and docs in a scratch directory: a command that writes, writes there."""
    root = tmp_path_factory.mktemp("docs-repo")
    shutil.copytree(ROOT / "examples", root / "examples", ignore=shutil.ignore_patterns("__pycache__", ".goalkeeper"))
    return root


def _runnable() -> list[tuple[str, Path, list[str], dict[str, str]]]:
    """(where, README dir, argv, env) of commands that run offline, in their chain's directory."""
    out = []
    for b in SHELL:
        for chain in commands(b):
            cwd_rel = Path(".")
            for c in chain:
                if c.argv[:1] == ["cd"] and len(c.argv) == 2:
                    cwd_rel = cwd_rel / c.argv[1]
                    continue
                argv = c.argv
                if (argv[:1] == ["goalkeeper"] and len(argv) > 1 and argv[1] in RUNNABLE and "--engine" not in argv
                        and not _is_synopsis(argv[1:]) and "--resume" not in argv):
                    out.append((c.where, cwd_rel, argv[1:], c.env))
    for path in DOCS:
        if path.parent.parent.name != "examples":
            continue
        for n, text in inline_commands(path):
            argv = text.split()
            if argv[1] in RUNNABLE and not _is_synopsis(argv[1:]):
                out.append((f"{path.relative_to(ROOT)}:{n}", path.parent.relative_to(ROOT), argv[1:], {}))
    return out


@pytest.mark.parametrize(("where", "cwd_rel", "argv", "env"), _runnable(), ids=[r[0] for r in _runnable()])
def test_commands_that_run_offline_run(where: str, cwd_rel: Path, argv: list[str], env: dict[str, str],
                                       repo_copy: Path, tmp_path: Path) -> None:
    scratch = str(tmp_path) + "/"
    env = {k: v.replace("/tmp/", scratch) for k, v in env.items()}  # never the machine's /tmp
    argv = [a.replace("/tmp/", scratch) for a in argv]
    cwd = repo_copy / cwd_rel
    if argv[0] == "run":
        argv = [*argv, "--yes"] if "--yes" not in argv else argv
    r = _gk(*argv, cwd=cwd, env={**env, "GOALKEEPER_HOME": str(tmp_path / "home")})
    assert r.returncode == 0, f"{where}: `goalkeeper {' '.join(argv)}` (in {cwd_rel}) exited {r.returncode}:\n" \
                              f"{r.stdout[-2000:]}{r.stderr[-2000:]}"
    assert "Traceback" not in r.stderr


def _extras() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])


@pytest.mark.parametrize("cmd", [c for c in _shell_commands() if c.argv and c.argv[0] != "goalkeeper"],
                         ids=[c.where for c in _shell_commands() if c.argv and c.argv[0] != "goalkeeper"])
def test_other_commands_name_files_and_extras_that_exist(cmd: Command) -> None:
    argv = cmd.argv
    prog = Path(argv[0]).name
    if prog.startswith("python"):
        script = next((a for a in argv[1:] if a.endswith(".py")), None)
        if script is not None:
            assert (ROOT / script).is_file(), f"{cmd.where}: {script} does not exist"
    elif prog == "pip":
        for a in argv:
            m = re.search(r"\[([\w,-]+)\]", a)
            if m:
                missing = set(m.group(1).split(",")) - _extras()
                assert not missing, f"{cmd.where}: no extra {sorted(missing)} in pyproject.toml"
    elif prog == "cp":
        src = next(a for a in argv[1:] if not a.startswith("-"))
        assert (ROOT / src).exists(), f"{cmd.where}: {src} does not exist"


def test_a_spec_fresh_from_goalkeeper_new_validates_and_plans(tmp_path: Path) -> None:
    made = _gk("new", "--no-input", "--goal", "health_ok=true", "--fact", "built=file:build/image.tar",
               "--fact", "health_ok=http://127.0.0.1:8080/health",
               "--action", "build: built=false -> built=true | ./build.sh",
               "--action", "verify: built=true -> health_ok=true | ./verify.sh", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "facts.health_ok.initial: false" in made.stdout and "facts.built.initial: false" in made.stdout  # said, not silent
    assert _gk("validate", "spec.yaml", cwd=tmp_path).returncode == 0
    p = _gk("plan", "spec.yaml", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert [s["action"] if isinstance(s, dict) else s for s in json.loads(p.stdout)["plan"]] == ["build", "verify"]
