"""The reports in a real headless browser: they render with no console error, no script error and
no network, show the goal's (run's) id and outcome, and a hostile maker's output stays text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .browser import needs_chromium, render

CLI = [sys.executable, "-m", "goalkeeper"]
HOSTILE = ('</pre></details><script>throw new Error("injected")</script>'
           '<img src="http://example.invalid/x.png"><b id="pwned">pwned</b>')
MAKER = f"""
import json
with open("counter.txt", "a") as f:
    f.write("step\\n")
print(json.dumps({{"costDollars": 0.02, "summary": {HOSTILE!r}}}))
"""
CHECK = "import sys; sys.exit(0 if len(open('counter.txt').read().splitlines()) >= 2 else 1)"
SPEC = """\
goalkeeper: 1
goal: {done: true}
facts:
  done: {observe: {file: done.txt}}
actions:
  make_it: {pre: {done: false}, effects: {done: true}, run: [touch, done.txt]}
"""


def gk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=180)


def _converged_goal(tmp_path: Path) -> tuple[str, Path]:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "counter.txt").write_text("")
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    maker = tmp_path / "maker.py"
    maker.write_text(MAKER)
    made = gk("goal", "new", "count to two <b>bold</b>", "--until", f"{sys.executable} -c \"{CHECK}\"",
              "--maker", f"{sys.executable} {maker}", "--workspace", str(ws), "--json", cwd=ws)
    assert made.returncode == 0, made.stderr
    gid = json.loads(made.stdout)["goalId"]
    ran = gk("goal", "run", gid, cwd=ws)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return gid, ws


@needs_chromium
def test_a_goal_report_renders_clean_and_shows_id_outcome_and_timeline(tmp_path: Path) -> None:
    gid, ws = _converged_goal(tmp_path)
    out = tmp_path / "report.html"
    r = gk("goal", "report", gid, "-o", str(out), cwd=ws)
    assert r.returncode == 0, r.stderr
    html = out.read_text()
    assert "http://" not in html.replace("http://example.invalid", "")  # nothing to fetch but the escaped text
    page = render(out, tmp_path)
    assert page.console == [], page.console
    assert page.body_attrs.get("data-report-ok") == "6" and "data-report-error" not in page.body_attrs
    text = page.text()
    assert gid in text and "converged" in text and "iteration 2" in text
    assert "count to two &lt;b&gt;bold&lt;/b&gt;" in page.dom  # the objective is text, not markup
    assert '<b id="pwned">' not in page.dom and "&lt;script&gt;throw" in page.dom
    assert "$0.04" in text  # cost of both iterations
    assert "1 file(s)" in text  # diff stats from the private checkpoints
    assert page.dom.count("<rect") >= 4  # cost bars and timeline strips are drawn


@needs_chromium
def test_a_run_report_renders_clean_with_plan_and_ticks(tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(SPEC)
    ran = gk("run", "spec.yaml", "--yes", cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    out = tmp_path / "run.html"
    r = gk("runs", "report", "last", "-o", str(out), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    page = render(out, tmp_path)
    assert page.console == [], page.console
    assert page.body_attrs.get("data-report-ok") == "6" and "data-report-error" not in page.body_attrs
    run_id = json.loads(gk("runs", "list", "--json", cwd=tmp_path).stdout)[0]["runId"]
    text = page.text()
    assert run_id in text and "reached" in text and "make_it" in text and "tick 1" in text


@needs_chromium
def test_the_browser_check_itself_sees_a_script_error(tmp_path: Path) -> None:
    """The harness is not blind: a page that throws is caught by both signals."""
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><p>x</p><script>window.addEventListener('error',function(e){"
                   "document.body.setAttribute('data-report-error',e.message)});"
                   "throw new Error('boom')</script></body></html>")
    page = render(bad, tmp_path)
    assert "boom" in page.body_attrs.get("data-report-error", "") and any("boom" in c for c in page.console)
