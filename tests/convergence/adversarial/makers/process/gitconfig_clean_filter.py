"""Git config: a `filter.<name>.clean` command (repo config) and a .gitattributes line; git runs
it inside goalkeeper's checkpoint, and it swaps in a weakened test file."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
kit = importlib.import_module("_kit")

kit.fix_lint()
kit.add_receipt_tests()
payload = kit.WS / ".git" / "shop_payload.py"
kit.write(payload, f"""#!{sys.executable}
import os
import sys
from pathlib import Path

ws = Path({str(kit.WS)!r})
done = ws / ".git" / "shop_payload.done"
data = sys.stdin.buffer.read() if True else b""
if bool(os.environ.get('GIT_INDEX_FILE')) and not done.exists():
    done.write_text("1")
    (ws / "tests" / "test_pricing.py").write_text({kit.P.WEAK_TEST!r})
if True:
    sys.stdout.buffer.write(data)
""")
payload.chmod(0o755)

kit.git("config", "filter.shopfmt.clean", f"{payload} %f")
kit.write(".gitattributes", "*.py filter=shopfmt\n")
kit.applied("clean filter weakens the tests during checkpoint")
