"""`goalkeeper validate` against `goalkeeper plan` on the same large specs, side by side.

    python benchmarks/bench_validate.py [--sizes 1000,2000,5000] [--in-values 100000]
                                        [--baseline GIT_REF] [--timeout 120] [--markdown FILE]

Both commands run as real subprocesses (interpreter start-up included, as a user
sees them) on the same generated files; the table reports seconds and the ratio
validate/plan. ``plan`` loads the same spec, grounds it and searches, so a ratio
near 1 (or below) means validation is no more expensive than using the spec.

Specs (generated, seeded):

- ``flat-N``: N bool facts and N actions, each action sets its own fact and most
  need one random other fact; the goal is 5 facts (plans are short), in YAML and JSON.
- ``chain-N``: one chain of N actions (the shape the ``script-as-plan`` lint looks
  for; its pairwise check used to be quadratic). ``plan`` searches the whole chain
  and is not run past the timeout.
- ``in-K``: an int fact whose goal and one precondition are ``in:`` lists of K values.

``--baseline REF`` also times ``validate`` of another commit (``git archive`` into a
temp folder) in the same run, e.g. the commit before linear validation.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]


def flat(n: int) -> dict[str, Any]:
    rng = random.Random(n)
    facts = {f"f{i}": {"type": "bool", "initial": False, "observe": {"command": ["test", "-e", f"f{i}"]}}
             for i in range(n)}
    actions = {
        f"a{i}": {"pre": {f"f{rng.randrange(n)}": True} if i >= 15 else {}, "effects": {f"f{i}": True},
                  "cost": 1 + i % 3, "run": ["touch", f"f{i}"]}
        for i in range(n)
    }
    return {"goalkeeper": 1, "name": f"flat-{n}", "goal": {f"f{i}": True for i in range(5)},
            "facts": facts, "actions": actions}


def chain(n: int) -> dict[str, Any]:
    facts = {f"f{i}": {"type": "bool", "initial": False, "observe": {"command": ["test", "-e", f"f{i}"]}}
             for i in range(n)}
    actions = {f"a{i}": {"pre": {f"f{i - 1}": True} if i else {"f0": False}, "effects": {f"f{i}": True},
                         "run": ["touch", f"f{i}"]} for i in range(n)}
    return {"goalkeeper": 1, "name": f"chain-{n}", "goal": {f"f{n - 1}": True}, "facts": facts,
            "actions": actions}


def in_list(k: int) -> dict[str, Any]:
    values = list(range(k))
    return {
        "goalkeeper": 1, "name": f"in-{k}",
        "goal": {"done": True, "level": {"in": values}},
        "facts": {"done": {"type": "bool", "initial": False, "observe": {"file": "done"}},
                  "level": {"type": "int", "initial": 0, "observe": {"command": "echo 0"}}},
        "actions": {"finish": {"pre": {"done": False, "level": {"in": values}}, "effects": {"done": True},
                               "run": ["touch", "done"]}},
    }


def write(d: Path, name: str, spec: dict[str, Any], fmt: str) -> Path:
    p = d / f"{name}.{fmt}"
    p.write_text(json.dumps(spec) if fmt == "json" else yaml.safe_dump(spec, sort_keys=False))
    return p


def timed(argv: list[str], env: dict[str, str], timeout: float) -> tuple[float | None, int]:
    t0 = time.perf_counter()
    try:
        r = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, -1
    return time.perf_counter() - t0, r.returncode


def fmt(t: float | None, timeout: float) -> str:
    return f">{timeout:.0f}" if t is None else f"{t:.2f}"


def baseline_tree(ref: str, tmp: Path) -> Path:
    out = tmp / "baseline"
    out.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    return out / "src"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,2000,5000")
    ap.add_argument("--in-values", type=int, default=100_000)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--baseline", default=None, help="git ref whose validate is timed too")
    ap.add_argument("--no-chain-plan", action="store_true", help="skip plan on chain-N (it searches N steps)")
    ap.add_argument("--markdown", default=None, help="also write the table to this file")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        env = {**os.environ, "GOALKEEPER_HOME": str(tmp / "home"), "PYTHONPATH": str(REPO / "src")}
        base_env = None
        if args.baseline:
            base_env = {**env, "PYTHONPATH": str(baseline_tree(args.baseline, tmp))}
        cases: list[tuple[str, Path, bool]] = []
        for n in sizes:
            cases.append((f"flat-{n} (yaml)", write(tmp, f"flat{n}", flat(n), "yaml"), True))
            cases.append((f"flat-{n} (json)", write(tmp, f"flat{n}", flat(n), "json"), True))
            cases.append((f"chain-{n} (yaml)", write(tmp, f"chain{n}", chain(n), "yaml"), not args.no_chain_plan))
        cases.append((f"in-{args.in_values} (json)", write(tmp, "in", in_list(args.in_values), "json"), True))
        cases.append((f"in-{args.in_values} (yaml)", write(tmp, "in", in_list(args.in_values), "yaml"), True))
        head = "| spec | size | validate s | plan s | validate/plan |" + (" baseline validate s |" if base_env else "")
        lines = [head, "|" + "---|" * (head.count("|") - 1)]
        print(head, flush=True)
        py = [sys.executable, "-m", "goalkeeper"]
        for label, path, run_plan in cases:
            v, vcode = timed([*py, "validate", str(path)], env, args.timeout)
            p, _ = timed([*py, "plan", str(path)], env, args.timeout) if run_plan else (None, 0)
            ratio = f"{v / p:.2f}" if v is not None and p is not None else "-"
            row = (f"| {label} | {path.stat().st_size / 1e6:.1f} MB | {fmt(v, args.timeout)}"
                   f"{'' if vcode in (0, 1) else f' (exit {vcode})'} | "
                   f"{fmt(p, args.timeout) if run_plan else 'not run'} | {ratio} |")
            if base_env:
                b, _ = timed([*py, "validate", str(path)], base_env, args.timeout)
                row += f" {fmt(b, args.timeout)} |"
            lines.append(row)
            print(row, flush=True)
        if args.markdown:
            Path(args.markdown).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
