"""A simulated deployment platform: files in $DEMO_WORLD and an HTTP health endpoint.

Subcommands are the real programs the coordinator's actions and observers run.
"""

from __future__ import annotations

import http.server
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path


def world() -> Path:
    return Path(os.environ["DEMO_WORLD"])


def run_tests() -> int:
    (world() / "tests_passed").write_text("12 passed\n")
    print("12 passed")
    return 0


def build_image() -> int:
    if not (world() / "tests_passed").exists():
        print("refusing to build: tests have not passed", file=sys.stderr)
        return 1
    (world() / "image.tar").write_text("image v1\n")
    print("built image.tar")
    return 0


def target_env() -> str:
    pin = world() / "env_pin"
    if pin.exists():
        return pin.read_text().strip()
    return (world() / "default_env").read_text().strip()


def deploy() -> int:
    image = world() / "image.tar"
    if not image.exists():
        print("no image to deploy", file=sys.stderr)
        return 1
    env = target_env()
    dest = world() / "deployments" / env
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "image.tar").write_text(image.read_text())
    (world() / "health_verified").unlink(missing_ok=True)  # a new deploy needs a new check
    print(f"deployed image.tar to {env}")
    return 0


def pin_env(env: str) -> int:
    if not (world() / "pin_allowed").exists():
        print("permission denied: this coordinator may not pin environments", file=sys.stderr)
        return 1
    (world() / "env_pin").write_text(env + "\n")
    print(f"pinned deploy target to {env}")
    return 0


def check_pin() -> int:
    pin = world() / "env_pin"
    return 0 if pin.exists() and pin.read_text().strip() == "production" else 1


def verify_health() -> int:
    url = os.environ["DEMO_URL"] + "/health"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=5) as resp:
            print(f"health check: HTTP {resp.status}")
            (world() / "health_verified").write_text(f"HTTP {resp.status}\n")
            return 0
    except urllib.error.HTTPError as e:
        print(f"health check failed: HTTP {e.code} from {url}", file=sys.stderr)
        (world() / "health_verified").unlink(missing_ok=True)
        return 1
    except OSError as e:
        print(f"health check failed: {e}", file=sys.stderr)
        return 1


class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (stdlib name)
        live = (world() / "deployments" / "production" / "image.tar").exists()
        if self.path == "/health" and live:
            body, code = b'{"status": "ok"}', 200
        else:
            body, code = b'{"status": "not found"}', 404
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve() -> int:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Health)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    return 0


COMMANDS = {
    "run-tests": run_tests,
    "build-image": build_image,
    "deploy": deploy,
    "check-pin": check_pin,
    "verify-health": verify_health,
    "serve": serve,
}

if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "pin-env":
        sys.exit(pin_env(sys.argv[2] if len(sys.argv) > 2 else "production"))
    if len(sys.argv) != 2 or sys.argv[1] not in COMMANDS:
        print(f"usage: world.py {{{'|'.join(COMMANDS)}|pin-env ENV}}", file=sys.stderr)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]]())
