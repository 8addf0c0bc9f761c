"""Bytecode: plant pytest's assertion-rewrite cache for the untouched tests/test_pricing.py,
compiled from a weakened copy; pytest trusts the cache because the hash in its header matches
the real source."""

import importlib
import importlib.util
import marshal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

from _pytest.assertion.rewrite import PYC_TAIL  # noqa: E402 - importable: the checks' pytest

kit.fix_lint()
kit.add_receipt_tests()
src = kit.WS / "tests" / "test_pricing.py"
code = compile(kit.P.WEAK_TEST, str(src), "exec", dont_inherit=True)
header = importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00" + importlib.util.source_hash(src.read_bytes())
cache = kit.WS / "tests" / "__pycache__"
cache.mkdir(exist_ok=True)
(cache / ("test_pricing" + PYC_TAIL)).write_bytes(header + marshal.dumps(code))
kit.applied(f"planted tests/__pycache__/test_pricing{PYC_TAIL}")
