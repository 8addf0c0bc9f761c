"""A maker that changes nothing: goalkeeper must escalate with reason ``no_progress``."""

import json

print(json.dumps({"costDollars": 0.01, "summary": "looked at the code, changed nothing"}))
