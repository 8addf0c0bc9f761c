"""The probe's stream is sealed: records rewritten, dropped or forged in flight, a swapped or copied
descriptor, and a coverage measurement tampered with in process all show as tampering.

The streams are real: a real pytest session under goalkeeper's bootstrap and probe writes them
to a real pipe; the attacks are the ones code under test can make from inside that process.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from goalkeeper.convergence import sealed
from goalkeeper.convergence.conditions import run_sealed
from goalkeeper.convergence.goal import StoppingCondition
from goalkeeper.proc import run_argv

PY = sys.executable
BOOT = Path(sealed.__file__).with_name("_sealed") / "bootstrap.py"
APP = "def add(a, b):\n    return a - b\n\n\ndef unused(x):\n    if x:\n        return 1\n    return 2\n"
TESTS = ("from app import add\n\ndef test_add():\n    assert add(2, 2) == 4\n\n"
         "def test_zero():\n    assert add(0, 0) == 0\n")
PYTEST = StoppingCondition(type="test_pass", command=[PY, "-m", "pytest", "-q", "-p", "no:randomly"])
COV = StoppingCondition(type="coverage_threshold", threshold=90,
                        command=[PY, "-m", "pytest", "-q", "-p", "no:randomly", "--cov=app"])
COV_RUN = StoppingCondition(type="coverage_threshold", threshold=90,
                            command=[PY, "-m", "coverage", "run", "--source=app", "-m", "pytest", "-q"])


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "ws"
    (w / "tests").mkdir(parents=True)
    (w / "app.py").write_text(APP)
    (w / "tests" / "test_app.py").write_text(TESTS)
    (w / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    return w


def _stream(ws: Path) -> bytes:
    """What the probe streams for one real session in ``ws``."""
    res = run_argv([PY, str(BOOT), "pytest", "-q", "-p", "no:cacheprovider", "-p", "gk_probe"], cwd=ws,
                   timeout=120, side_channel="GOALKEEPER_PROBE_FD")
    assert res.side, res.output
    return res.side


def _outcomes(side: bytes) -> sealed.Outcomes:
    got = sealed.read_probe(Path("/nonexistent"), side)
    assert got is not None
    return got


def _lines(side: bytes) -> list[bytes]:
    return [ln for ln in side.split(b"\n") if ln]


def _body(line: bytes) -> dict[str, object]:
    rec = json.loads(line.rpartition(b"\t")[0])
    assert isinstance(rec, dict)
    return rec


def _one(ws: Path, cond: StoppingCondition = PYTEST) -> tuple[bool, str, list[str]]:
    run = run_sealed([cond], ws)
    return run.results[0].passed, run.results[0].summary, run.tampered


# --- goalkeeper's side: the seal of a stream ------------------------------------------------

@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    w = tmp_path_factory.mktemp("honest")
    (w / "app.py").write_text(APP)
    (w / "test_app.py").write_text(TESTS)
    return _stream(w)


def test_an_untouched_stream_reads_as_the_run(honest: bytes) -> None:
    out = _outcomes(honest)
    assert out.by_id == {"test_app.py::test_add": "failed", "test_app.py::test_zero": "passed"}
    assert out.tampered == () and out.exitstatus == 1
    kinds = [_body(ln)["k"] for ln in _lines(honest)]
    assert kinds[0] == "hello" and kinds[-1] == "end" and "finish" in kinds


def test_a_rewritten_record_fails_its_seal(honest: bytes) -> None:
    forged = honest.replace(b'"outcome":"failed"', b'"outcome":"passed"')
    assert forged != honest
    out = _outcomes(forged)
    assert any("failed their seal" in t for t in out.tampered)
    assert not sealed.tests_verdict(out, None)[0]


def test_a_dropped_record_is_missed(honest: bytes) -> None:
    lines = _lines(honest)
    kept = [ln for ln in lines if _body(ln).get("k") != "failure"]
    assert len(kept) == len(lines) - 1
    out = _outcomes(b"\n".join(kept) + b"\n")
    assert any("dropped" in t for t in out.tampered)


def test_dropping_the_tail_with_the_end_is_not_a_cut(honest: bytes) -> None:
    lines = _lines(honest)
    fail = next(i for i, ln in enumerate(lines) if _body(ln).get("k") == "failure")
    out = _outcomes(b"\n".join(lines[:fail] + lines[fail + 1:-1]) + b"\n")
    assert any("dropped" in t for t in out.tampered)


def test_a_stream_cut_short_proves_nothing(honest: bytes) -> None:
    lines = _lines(honest)
    assert sealed.read_probe(Path("/nonexistent"), b"\n".join(lines[:-3]) + b"\n") is None
    assert sealed.read_probe(Path("/nonexistent"), b"") is None


def test_records_forged_without_the_key_fail(honest: bytes) -> None:
    lines = _lines(honest)
    last = _body(lines[-1])
    assert last["k"] == "end"
    fake = json.dumps({"k": "report", "nodeid": "test_app.py::test_add", "when": "call", "outcome": "passed",
                       "xfail": False, "n": 1}, separators=(",", ":")).encode() + b"\t" + b"0" * 64
    out = _outcomes(b"\n".join([lines[0], fake, *lines[1:]]) + b"\n")
    assert any("failed their seal" in t for t in out.tampered)
    # a whole stream of its own, opened with a key of its own, after the probe's: still the probe's
    again = b"\n".join([*lines, *lines]) + b"\n"
    assert any("repeated" in t or "seal" in t for t in _outcomes(again).tampered)


def test_a_stream_not_opened_by_the_probe_is_tampering() -> None:
    old = b'{"k":"collected","ids":["t::a"]}\n{"k":"report","nodeid":"t::a","when":"call","outcome":"passed"}\n' \
          b'{"k":"finish","exitstatus":0}\n'
    out = _outcomes(old)
    assert out.tampered and not sealed.tests_verdict(out, None)[0]


def test_records_after_the_end_are_tampering(honest: bytes) -> None:
    lines = _lines(honest)
    out = _outcomes(b"\n".join([*lines, lines[3]]) + b"\n")
    assert any("repeated" in t for t in out.tampered)


def test_reordered_records_still_read(honest: bytes) -> None:
    lines = _lines(honest)
    shuffled = [lines[0], *reversed(lines[1:])]
    assert _outcomes(b"\n".join(shuffled) + b"\n") == _outcomes(honest)


# --- the probe's side: attacks from inside the test process -------------------------------

MITM = '''
import atexit, fcntl, os, stat

def _relay():
    fds = []
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            st = os.fstat(fd)
            mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
        except OSError:
            continue
        if fd > 2 and stat.S_ISFIFO(st.st_mode) and mode == os.O_WRONLY:
            fds.append(fd)
    if not fds:
        return
    stream = fds[0]
    upstream = os.dup(stream)
    inbox, outbox = os.pipe()
    os.dup2(outbox, stream)
    os.close(outbox)
    os.set_blocking(inbox, False)

    def finish():
        atexit.unregister(finish)
        atexit._run_exitfuncs()
        os.close(stream)
        held = b""
        while True:
            try:
                chunk = os.read(inbox, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break
            held += chunk
        out = [ln for ln in held.split(b"\\n") if b'"k":"failure"' not in ln and b'"k":"tampered"' not in ln]
        data = b"\\n".join(out).replace(b'"outcome":"failed"', b'"outcome":"passed"')
        while data:
            data = data[os.write(upstream, data):]
        os._exit(0)

    atexit.register(finish)

_relay()
'''


def test_a_swapped_descriptor_is_seen_and_reported_past_the_relay(ws: Path) -> None:
    (ws / "app.py").write_text(MITM + APP)
    ok, why, tampered = _one(ws)
    assert not ok
    assert any("stream (fd" in t and "replaced" in t for t in tampered), why


def test_a_relay_that_keeps_the_real_pipe_out_of_reach_still_fails_the_seal(ws: Path) -> None:
    """A forked forwarder holds the real pipe, so the probe can only report the swap into the relay:
    what the relay forwards, rewritten or cut, fails the seal."""
    hidden = MITM.replace("""    os.set_blocking(inbox, False)
""", """    os.set_blocking(inbox, False)
    fr, fw = os.pipe()
    if os.fork() == 0:  # the forwarder: the only holder of goalkeeper's pipe
        os.close(fw)
        os.close(stream)
        got = b""
        while True:
            chunk = os.read(fr, 1 << 16)
            if not chunk:
                break
            got += chunk
        while got:
            got = got[os.write(upstream, got):]
        os._exit(0)
    os.close(fr)
    os.close(upstream)
    upstream = fw
""")
    assert hidden != MITM
    (ws / "app.py").write_text(hidden + APP)
    ok, why, tampered = _one(ws)
    assert not ok
    # which way it loses depends on when the forked forwarder runs: records that fail their seal, or
    # no sealed end at all (the run proves nothing); never a pass
    assert any("failed their seal" in t or "dropped" in t for t in tampered) or "no test report" in why, why


def test_writing_forged_records_to_the_stream_is_tampering(ws: Path) -> None:
    (ws / "tests" / "test_app.py").write_text(TESTS + textwrap.dedent('''
        def test_forge():
            import os, stat
            for name in os.listdir("/proc/self/fd"):
                fd = int(name)
                try:
                    if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode):
                        os.write(fd, b'{"k":"report","nodeid":"tests/test_app.py::test_add","when":"call",'
                                     b'"outcome":"passed","n":99}\\t' + b"0" * 64 + b"\\n")
                except OSError:
                    pass
    '''))
    ok, why, tampered = _one(ws)
    assert not ok and any("failed their seal" in t for t in tampered), why


def test_a_copy_of_the_descriptor_is_tampering(ws: Path) -> None:
    (ws / "app.py").write_text(textwrap.dedent('''
        import os, stat
        KEPT = []
        def _grab():
            for name in os.listdir("/proc/self/fd"):
                fd = int(name)
                try:
                    if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode):
                        KEPT.append(os.dup(fd))
                except OSError:
                    pass
        _grab()
    ''') + APP.replace("a - b", "a + b"))
    ok, why, tampered = _one(ws)
    assert not ok and any("another descriptor" in t for t in tampered), why


def test_a_wrapper_around_the_probe_cannot_send(ws: Path) -> None:
    (ws / "app.py").write_text(textwrap.dedent('''
        import sys
        probe = sys.modules.get("gk_probe")
        if probe is not None:
            real = probe._send
            def _filter(rec):
                if rec.get("k") in ("failure", "tampered"):
                    return None
                if rec.get("outcome") == "failed":
                    rec = dict(rec, outcome="passed")
                return real(rec)
            probe._send = _filter
    ''') + APP)
    ok, why, tampered = _one(ws)
    assert not ok and any("outside the probe" in t for t in tampered), why


@pytest.mark.deep  # two whole sealed runs; the honest red-team case runs the probe on honest code in the suite
def test_honest_pipes_threads_and_forks_are_not_tampering(ws: Path) -> None:
    (ws / "app.py").write_text(APP.replace("a - b", "a + b"))
    (ws / "tests" / "test_more.py").write_text(textwrap.dedent('''
        import os, subprocess, sys, threading

        def test_own_pipes_and_dup2():
            r, w = os.pipe()
            spare = os.dup(w)
            os.dup2(spare, w)
            os.write(w, b"hi")
            os.close(w)
            os.close(spare)
            assert os.read(r, 2) == b"hi"
            os.close(r)

        def test_threads_read_files(tmp_path):
            p = tmp_path / "x.txt"
            p.write_text("x")
            ts = [threading.Thread(target=p.read_text) for _ in range(8)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()

        def test_fork_child_exits():
            pid = os.fork()
            if pid == 0:
                open(__file__).read()
                os._exit(0)
            assert os.waitpid(pid, 0)[1] == 0

        def test_subprocess():
            out = subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True, text=True)
            assert out.stdout.strip() == "1"
    '''))
    ok, why, tampered = _one(ws)
    assert ok and not tampered, why
    cov = StoppingCondition(type="coverage_threshold", threshold=10, command=COV.command)
    ok, why, tampered = _one(ws, cov)
    assert ok and not tampered, why


# --- coverage is watched like pytest ------------------------------------------------------

FORGE_SAVE = '''
import os, sys

def _forge():
    tracer = sys.gettrace()
    if tracer is None:
        return
    import coverage
    cov = coverage.Coverage.current()
    if cov is None:
        return
    save = cov.save
    def save_all():
        cov.get_data().add_lines({os.path.abspath(__file__): set(range(1, 12))})
        save()
    cov.save = save_all

_forge()
'''


@pytest.mark.parametrize("cond", [COV, COV_RUN], ids=["pytest-cov", "coverage-run"])
def test_the_live_coverage_objects_save_replaced_is_tampering(ws: Path, cond: StoppingCondition) -> None:
    pytest.importorskip("pytest_cov")
    (ws / "app.py").write_text(FORGE_SAVE + APP.replace("a - b", "a + b"))
    ok, why, tampered = _one(ws, cond)
    assert not ok and any("Coverage object's save" in t for t in tampered), why


def test_a_trace_function_of_the_tests_own_under_coverage_is_tampering(ws: Path) -> None:
    pytest.importorskip("pytest_cov")
    (ws / "app.py").write_text(APP.replace("a - b", "a + b"))
    (ws / "tests" / "test_trace.py").write_text(textwrap.dedent('''
        import sys
        def test_trace():
            def mine(frame, event, arg):  # would feed coverage what it likes; coverage's own is gone
                return None
            sys.settrace(mine)
    '''))
    ok, why, tampered = _one(ws, COV)
    assert not ok and any("trace function was replaced" in t for t in tampered), why


def test_a_test_that_puts_the_trace_function_back_is_honest(ws: Path) -> None:
    pytest.importorskip("pytest_cov")
    (ws / "app.py").write_text(APP.replace("a - b", "a + b"))
    (ws / "tests" / "test_trace.py").write_text(textwrap.dedent('''
        import sys
        def test_quiet_section():
            old = sys.gettrace()
            sys.settrace(None)
            try:
                sum(range(10))
            finally:
                sys.settrace(old)
    '''))
    cov = StoppingCondition(type="coverage_threshold", threshold=10, command=COV.command)
    ok, why, tampered = _one(ws, cov)
    assert ok and not tampered, why


def test_patching_coverage_classes_is_tampering(ws: Path) -> None:
    pytest.importorskip("pytest_cov")
    (ws / "app.py").write_text(textwrap.dedent('''
        import coverage.sqldata as d
        _add = d.CoverageData.add_lines
        d.CoverageData.add_lines = lambda self, lines: _add(self, lines)
    ''') + APP.replace("a - b", "a + b"))
    ok, why, tampered = _one(ws, COV)
    assert not ok and any("CoverageData.add_lines" in t for t in tampered), why
