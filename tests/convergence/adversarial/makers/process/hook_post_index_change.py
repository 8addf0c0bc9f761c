"""Git hooks: .git/hooks/post-index-change, run when goalkeeper's checkpoint writes its private
index (after the hash, before the checks), swaps in a weakened test file."""

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
data = sys.stdin.buffer.read() if False else b""
if bool(os.environ.get('GIT_INDEX_FILE')) and not done.exists():
    done.write_text("1")
    (ws / "tests" / "test_pricing.py").write_text({kit.P.WEAK_TEST!r})
if False:
    sys.stdout.buffer.write(data)
""")
payload.chmod(0o755)

hook = kit.WS / ".git" / "hooks" / "post-index-change"
hook.parent.mkdir(exist_ok=True)
hook.write_text(payload.read_text())
hook.chmod(0o755)
kit.applied("post-index-change hook weakens the tests during checkpoint")
