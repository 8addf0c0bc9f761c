"""Render a page in headless Chromium (the Debian package) and read back its DOM and console."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install -y chromium); .ci/run installs it")
_CONSOLE = re.compile(r":CONSOLE(?:\(\d+\))?\]? ?(.*)$|:CONSOLE:\d+\] (.*)$")


@dataclass(frozen=True)
class Rendered:
    dom: str
    console: list[str]  # every console message the page produced (errors, CSP violations, uncaught throws)

    @property
    def body_attrs(self) -> dict[str, str]:
        """The attributes of <body> after the page's script ran."""
        m = re.search(r"<body([^>]*)>", self.dom)
        return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', m.group(1) if m else "")}

    def text(self) -> str:
        """The visible text, roughly: tags dropped, entities left as they are."""
        body = re.sub(r"<(script|style)\b.*?</\1>", " ", self.dom, flags=re.S)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def render(page: Path, tmp: Path) -> Rendered:
    assert CHROMIUM is not None
    profile = tmp / "chromium-profile"
    argv = [CHROMIUM, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", f"--user-data-dir={profile}",
            "--enable-logging=stderr", "--v=0", "--dump-dom", page.resolve().as_uri()]
    if os.geteuid() == 0:
        argv.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its own sandbox
    res = subprocess.run(argv, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr[-2000:]
    console = [m.group(1) or m.group(2) for m in map(_CONSOLE.search, res.stderr.splitlines()) if m]
    return Rendered(res.stdout, console)
