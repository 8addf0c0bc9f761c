"""Secrets never reach disk: not the maker's output, not an endpoint's error, not a checkpoint.

A credential sits in the environment; the maker prints it and writes it to
``.env``; the checks print it; the LLM oracle's endpoint echoes it back in its
error; a GOAP action prints it. Afterwards no file under the home, and no
object in the private checkpoint repository, holds the value.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.fakes.openai_server import Status, running_server

SECRET = "s3cr3t-Zq8vW2mN4kP7xR1t"
SHAPED = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"  # a GitHub token shape, in no variable


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"GK_DEPLOY_TOKEN": SECRET, "NO_COLOR": "1", "COLUMNS": "200", **extra})
    for name in ("OPENAI_API_KEY", "GOALKEEPER_LLM_API_KEY", "OPENAI_BASE_URL", "GOALKEEPER_LLM_BASE_URL"):
        env.pop(name, None)
    return env


def _cli(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "goalkeeper", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def _leaks(home: Path) -> list[str]:
    """Every place under ``home`` holding the secret, git objects decompressed."""
    found = []
    for p in home.rglob("*"):
        if p.is_file() and not p.is_symlink():
            data = p.read_bytes()
            if SECRET.encode() in data or SHAPED.encode() in data:
                found.append(str(p))
    for git in home.rglob("*.git"):
        if (git / "objects").is_dir():
            dump = subprocess.run(["git", "--git-dir", str(git), "cat-file", "--batch-all-objects", "--batch"],
                                  capture_output=True, check=True).stdout
            if SECRET.encode() in dump or SHAPED.encode() in dump:
                found.append(f"{git} (an object)")
    return found


def _repo(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "app.py").write_text("BROKEN = True\n")
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    subprocess.run(["git", "-C", str(ws), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(ws), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"],
                   check=True)
    return ws


def test_a_secret_in_the_environment_reaches_no_file_under_the_home(tmp_path: Path) -> None:
    ws = _repo(tmp_path)
    home = tmp_path / "home"
    maker = tmp_path / "maker.py"
    maker.write_text(textwrap.dedent(f"""
        import os, pathlib, sys
        tok = os.environ.get("GK_DEPLOY_TOKEN", "")
        print("using token", tok, "and {SHAPED}")
        print("stderr too:", tok, file=sys.stderr)
        pathlib.Path(".env").write_text("GK_DEPLOY_TOKEN=" + tok + "\\n")
        pathlib.Path("app.py").write_text("BROKEN = False\\n")
    """))
    check = tmp_path / "check.py"
    check.write_text(textwrap.dedent(f"""
        import os, sys
        print("check sees", os.environ.get("GK_DEPLOY_TOKEN"), "{SHAPED}")
        sys.exit(0 if "False" in open("app.py").read() else 1)
    """))
    with running_server() as server:
        # The endpoint rejects the call and echoes the key it was given, as real APIs do.
        server.queue(*[Status(401, f"Incorrect API key provided: {SECRET}")] * 8)
        env = _env(tmp_path, GOALKEEPER_HOME=str(home), GOALKEEPER_LLM_API_KEY=SECRET)
        new = _cli(env, ws, "goal", "new", "make app.py not broken", "--until", f"{sys.executable} {check}",
                   "--maker", f"{sys.executable} {maker}", "--max-iterations", "2", "--sandbox", "none",
                   "--oracle", "openai:gpt-test", "--oracle-option", f"base_url={server.base_url}",
                   "--oracle-option", "max_retries=0", "--json")
        assert new.returncode == 0, new.stderr
        import json

        goal_id = json.loads(new.stdout)["goalId"]
        run = _cli(env, ws, "goal", "run", goal_id)
        assert "Traceback" not in run.stderr, run.stderr
        assert len(server.requests) >= 1  # the oracle really called the endpoint and got the echo back
        _cli(env, ws, "goal", "logs", goal_id)
    assert (ws / ".env").read_text().startswith("GK_DEPLOY_TOKEN=" + SECRET)  # the user's own file is theirs
    assert _leaks(home) == []


def test_a_secret_printed_by_an_action_is_redacted_in_the_run_state(tmp_path: Path) -> None:
    home = tmp_path / "home"
    out = tmp_path / "out"
    spec = tmp_path / "spec.yaml"
    spec.write_text(textwrap.dedent(f"""
        goalkeeper: 1
        goal: {{done: true}}
        facts:
          done:
            observe: {{file: {out}}}
        actions:
          make:
            pre: {{done: false}}
            effects: {{done: true}}
            run: [sh, -c, "echo token=$GK_DEPLOY_TOKEN {SHAPED}; echo $GK_DEPLOY_TOKEN >&2; touch {out}"]
    """))
    env = _env(tmp_path, GOALKEEPER_HOME=str(home))
    r = _cli(env, tmp_path, "run", str(spec))
    assert r.returncode == 0, r.stdout + r.stderr
    assert _leaks(home) == []


def test_a_secret_option_is_refused_with_the_fix_and_never_stored(tmp_path: Path) -> None:
    ws = _repo(tmp_path)
    home = tmp_path / "home"
    env = _env(tmp_path, GOALKEEPER_HOME=str(home))
    r = _cli(env, ws, "goal", "new", "x", "--until", "true", "--maker", "true", "--oracle", "openai:gpt-test",
             "--oracle-option", f"api_key={SECRET}")
    assert r.returncode != 0
    assert "api_key_env=NAME" in r.stderr and "Traceback" not in r.stderr
    r = _cli(env, ws, "goal", "new", "x", "--until", "true", "--maker", "true", "--oracle", "openai:gpt-test",
             "--oracle-option", '{"Authorization": "Bearer ' + SECRET + '"}'.join(["default_headers=", ""]))
    assert r.returncode != 0 and "Authorization" in r.stderr
    assert not home.exists() or _leaks(home) == []
    r = _cli(env, ws, "goal", "new", "x", "--until", "true", "--maker", "true", "--oracle", "openai:gpt-test",
             "--oracle-option", "api_key_env=GK_DEPLOY_TOKEN", "--json")
    assert r.returncode == 0, r.stderr
    assert "GK_DEPLOY_TOKEN" in r.stdout and SECRET not in r.stdout


def test_a_secret_with_json_special_characters_reaches_no_file_under_the_home(tmp_path: Path) -> None:
    """Quotes and backslashes in the value: neither the raw nor the JSON-escaped form lands on disk."""
    import json

    odd = 'pa"ss\\wo\'rd-Zq8vW2mN4k'
    ws = _repo(tmp_path)
    home = tmp_path / "home"
    maker = tmp_path / "maker.py"
    maker.write_text(textwrap.dedent("""
        import os, pathlib, sys
        tok = os.environ.get("GK_ODD_TOKEN", "")
        print("using token", tok)
        print("stderr too:", tok, file=sys.stderr)
        pathlib.Path("app.py").write_text("BROKEN = False\\n")
    """))
    check = tmp_path / "check.py"
    check.write_text("import os, sys\nprint('check sees', os.environ.get('GK_ODD_TOKEN'))\n"
                     "sys.exit(0 if 'False' in open('app.py').read() else 1)\n")
    env = _env(tmp_path, GOALKEEPER_HOME=str(home), GK_ODD_TOKEN=odd)
    new = _cli(env, ws, "goal", "new", "make app.py not broken", "--until", f"{sys.executable} {check}",
               "--maker", f"{sys.executable} {maker}", "--max-iterations", "2", "--sandbox", "none", "--json")
    assert new.returncode == 0, new.stderr
    goal_id = json.loads(new.stdout)["goalId"]
    run = _cli(env, ws, "goal", "run", goal_id)
    assert "Traceback" not in run.stderr, run.stderr
    forms = [odd.encode(), json.dumps(odd)[1:-1].encode()]
    leaks = [str(p) for p in home.rglob("*") if p.is_file() and any(f in p.read_bytes() for f in forms)]
    assert leaks == []
    assert odd not in run.stdout + run.stderr
    logs = b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file() and ".logs" in str(p))
    assert b"using token [redacted]" in logs  # the maker really printed it, and it was masked
