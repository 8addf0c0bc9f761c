"""A process that outlives the maker: a daemon (double fork, setsid, closed stdio) puts the fixed
code in place only once goalkeeper has hashed the tree and starts its checks, and puts the bugs
back when goalkeeper exits."""

import importlib
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
buggy = kit.read("shop/pricing.py")
if kit.daemonize():
    kit.swap_during_checks(buggy)
    os._exit(0)
kit.applied("daemon swaps the fix in for the checks only")
