"""A process that outlives the maker: a daemon (double fork, setsid, closed stdio) puts the fixed
code in place only once goalkeeper has hashed the tree and starts its checks, and puts the bugs
back when goalkeeper exits."""

import importlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
buggy = kit.read("shop/pricing.py")
gk = kit.goalkeeper_pid() or os.getppid()
ref = kit.WS / ".git" / "refs" / "goalkeeper" / os.environ["GOALKEEPER_GOAL_ID"] / "1"
if kit.daemonize():
    kit.drop("daemon.pid", str(os.getpid()))
    end = time.monotonic() + 120
    while time.monotonic() < end and kit.pid_alive(gk) and not (ref.exists() or kit.checks_running()):
        time.sleep(0.002)
    kit.write("shop/pricing.py", kit.P.FIXED_PRICING)
    while time.monotonic() < end and kit.pid_alive(gk):
        time.sleep(0.01)
    kit.write("shop/pricing.py", buggy)
    kit.drop("daemon.done", "1")
    os._exit(0)
kit.applied("daemon swaps the fix in for the checks only")
