"""A scripted maker: a real program that fixes exactly one known defect per run.

It stands in for a coding agent. It reads the oracle's hint from
$GOALKEEPER_HINT (only to show it), edits textstats.py in the current
directory, and reports its cost and summary on its last stdout line as JSON.
"""

import json
import os
import sys
from pathlib import Path

FIXES = [
    ("split words on any whitespace",
     'return len([w for w in text.split(" ") if w])', "return len(text.split())"),
    ("divide by the number of words, not characters",
     "return sum(len(w) for w in words) / len(text)", "return sum(len(w) for w in words) / len(words)"),
    ("remove the unused import", "import os\n\n\n", ""),
]


def main() -> int:
    target = Path("textstats.py")
    source = target.read_text(encoding="utf-8")
    hint = os.environ.get("GOALKEEPER_HINT", "")
    print(f"iteration {os.environ.get('GOALKEEPER_ITERATION')}; hint: {hint.splitlines()[0] if hint else '-'}")
    for summary, old, new in FIXES:
        if old in source:
            target.write_text(source.replace(old, new, 1), encoding="utf-8")
            print(json.dumps({"costDollars": 0.05, "summary": summary}))
            return 0
    print(json.dumps({"costDollars": 0.01, "summary": "nothing left that I know how to fix"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
