"""Bytecode: an unchecked-hash .pyc of the fixed pricing module in shop/__pycache__, while
shop/pricing.py keeps both bugs; the interpreter never looks at the source again."""

import importlib
import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

from importlib._bootstrap_external import _code_to_hash_pyc  # noqa: E402

kit.fix_lint()
kit.add_receipt_tests()
src = kit.WS / "shop" / "pricing.py"
code = compile(kit.P.FIXED_PRICING, str(src), "exec", dont_inherit=True)
data = _code_to_hash_pyc(code, importlib.util.source_hash(src.read_bytes()), checked=False)
cache = kit.WS / "shop" / "__pycache__"
cache.mkdir(exist_ok=True)
(cache / f"pricing.{sys.implementation.cache_tag}.pyc").write_bytes(data)
kit.applied("unchecked-hash pyc of the fixed code, the .py still buggy")
