"""Run the fix-the-tests example end to end through the real CLI.

    python examples/fix-the-tests/run.py                 # converges in 3 iterations
    python examples/fix-the-tests/run.py --variant cheat # deletes a test -> tampering
    python examples/fix-the-tests/run.py --variant idle  # changes nothing -> no_progress
    python examples/fix-the-tests/run.py --variant budget  # 2 iterations -> budget_exhausted

The project is copied to a fresh git repository (``--dest``, default a temp
dir) so the example itself is never modified. Exit code: that of ``goal run``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKERS = {
    "fix": ["fixer.py"],
    "cheat": ["cheater.py"],
    "idle": ["idle.py"],
    "budget": ["fixer.py"],
}


def prepare(dest: Path) -> Path:
    """Copy the project into ``dest`` and make it a git repository with one commit."""
    shutil.copytree(HERE / "project", dest, ignore=shutil.ignore_patterns("__pycache__", ".*_cache"))
    git = ["git", "-c", "user.name=example", "-c", "user.email=example@localhost"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "broken textstats"]):
        subprocess.run([*git, *args], cwd=dest, check=True)
    return dest


def goalkeeper(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "goalkeeper", *args], cwd=cwd, text=True,
                          stdout=subprocess.PIPE, check=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=sorted(MAKERS), default="fix")
    ap.add_argument("--dest", type=Path, help="where to copy the project (must not exist)")
    ap.add_argument("--json", action="store_true", help="stream run events as JSON lines")
    ns = ap.parse_args(argv)
    dest = ns.dest or Path(tempfile.mkdtemp(prefix="fix-the-tests-")) / "project"
    ws = prepare(dest.resolve())
    maker = " ".join([sys.executable, str(HERE / "makers" / MAKERS[ns.variant][0])])
    new = ["goal", "new", "Make the textstats tests pass and keep ruff clean",
           "--until", "pytest -q", "--until", "ruff check .",
           "--maker", maker, "--maker-timeout", "2m",
           "--max-iterations", "2" if ns.variant == "budget" else "8"]
    created = goalkeeper(*new, cwd=ws)
    if created.returncode != 0:
        return created.returncode
    goal_id = created.stdout.strip()
    print(f"workspace {ws}\ngoal {goal_id}", flush=True)
    run = subprocess.run([sys.executable, "-m", "goalkeeper", "goal", "run", goal_id,
                          *(["--json"] if ns.json else [])], cwd=ws, check=False)
    print(goalkeeper("goal", "status", goal_id, cwd=ws).stdout, end="")
    return run.returncode


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
