"""The soldier's world: one JSON file ($SOLDIER_WORLD, default ./world.json)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

START = {"location": "spawn", "has_rifle": False, "rifle_drawn": False, "rounds": 0, "enemy_alive": True}


def path() -> Path:
    return Path(os.environ.get("SOLDIER_WORLD", "world.json"))


def load() -> dict[str, object]:
    p = path()
    return json.loads(p.read_text()) if p.exists() else dict(START)


def save(w: dict[str, object]) -> None:
    path().write_text(json.dumps(w))


def main(argv: list[str]) -> int:
    w = load()
    cmd = argv[0] if argv else ""
    if cmd == "get":
        print(json.dumps(w[argv[1]]))
        return 0
    if cmd == "goto":
        w["location"] = argv[1]
    elif cmd == "pick-up" and w["location"] == "armory":
        w["has_rifle"] = True
    elif cmd == "draw" and w["has_rifle"]:
        w["rifle_drawn"] = True
    elif cmd == "reload" and w["has_rifle"]:
        w["rounds"] = 30
    elif cmd == "attack" and w["rifle_drawn"] and w["location"] == "enemy" and int(str(w["rounds"])) > 0:
        w["enemy_alive"], w["rounds"] = False, 0
    elif cmd == "melee" and w["location"] == "enemy":
        w["enemy_alive"] = False
    else:
        print(f"cannot {cmd} now", file=sys.stderr)
        return 1
    save(w)
    print(f"{cmd} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
