"""Run the deploy-coordinator example end to end, on this machine only.

    python examples/deploy-coordinator/demo.py            # both scenarios
    python examples/deploy-coordinator/demo.py --variant healing|locked [-- goalkeeper run args]

healing: verify_health fails 3 times (the deploy went to staging), the replan
discovers env_pinned is false, pins it, redeploys and reaches the goal.
locked:  pinning is not allowed here, so the run escalates naming env_pinned.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def setup_world(root: Path, *, pin_allowed: bool) -> Path:
    w = root / "world"
    w.mkdir(parents=True)
    (w / "default_env").write_text("staging\n")
    if pin_allowed:
        (w / "pin_allowed").write_text("granted\n")
    return w


def run_variant(variant: str, root: Path, extra: list[str]) -> int:
    world = setup_world(root / variant, pin_allowed=variant == "healing")
    server = subprocess.Popen(
        [sys.executable, str(HERE / "scripts" / "world.py"), "serve"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "DEMO_WORLD": str(world)},
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        env = {
            **os.environ,
            "DEMO_WORLD": str(world),
            "DEMO_URL": f"http://127.0.0.1:{port}",
            "GOALKEEPER_HOME": os.environ.get("GOALKEEPER_HOME", str(root / variant / ".goalkeeper")),
        }
        print(f"\n=== scenario: {variant} (world {world}) ===", flush=True)
        cmd = [sys.executable, "-m", "goalkeeper", "run", str(HERE / "spec.yaml"), *extra]
        return subprocess.run(cmd, env=env).returncode
    finally:
        server.terminate()
        server.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=["healing", "locked", "both"], default="both")
    ap.add_argument("--dir", help="keep the world and run state here (default: a temp dir)")
    ap.add_argument("extra", nargs="*", help="extra arguments for `goalkeeper run` (after --)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gk-demo-") as tmp:
        root = Path(args.dir) if args.dir else Path(tmp)
        variants = ["healing", "locked"] if args.variant == "both" else [args.variant]
        codes = {v: run_variant(v, root, args.extra) for v in variants}
    expected = {"healing": 0, "locked": 3}
    ok = all(codes[v] == expected[v] for v in codes)
    print("\n" + "; ".join(f"{v}: exit {c} (expected {expected[v]})" for v, c in codes.items()))
    if not args.dir:
        print("(state was in a temp dir; keep it with --dir DIR, then "
              "GOALKEEPER_HOME=DIR/locked/.goalkeeper goalkeeper triage list)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
