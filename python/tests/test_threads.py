"""Long calls release the GIL: Python threads make progress while a run, a chunk or a study runs in
another thread, concurrent runs give the serial results, and Ctrl-C stops a long call."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import ricochet
from conftest import same_bits

LONG = 3_000_000  # particle-floor steps: half a second or so on the development machine


def ticks_while(work):
    """Runs work() in a thread and counts this thread's Python loop iterations meanwhile; returns
    (work's result, its wall time, the tick times)."""
    result = {}

    def target():
        start = time.perf_counter()
        result["value"] = work()
        result["seconds"] = time.perf_counter() - start

    thread = threading.Thread(target=target)
    ticks = []
    thread.start()
    while thread.is_alive():
        ticks.append(time.perf_counter())
        sum(range(2000))  # pure Python: needs the GIL
    thread.join()
    return result["value"], result["seconds"], ticks


def assert_progressed(seconds, ticks):
    # With the GIL held for the whole call, this thread could not tick until it returned.
    assert len(ticks) > 50, (seconds, len(ticks))
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert max(gaps) < seconds / 2, (seconds, max(gaps))


def test_python_runs_while_a_run_integrates():
    run, seconds, ticks = ticks_while(lambda: ricochet.run("particle-floor", steps=LONG, every=LONG))
    assert run.ok and run.summary["steps"] == LONG
    assert_progressed(seconds, ticks)


def test_python_runs_while_a_chunk_and_a_study_run():
    sim = ricochet.Simulation("particle-floor")
    chunk, seconds, ticks = ticks_while(lambda: sim.advance(LONG, every=LONG))
    assert chunk.ok and sim.step == LONG
    assert_progressed(seconds, ticks)
    study = {"scenario": {"system": "particle-floor"}, "vary": [{"name": "y0", "linspace": [1, 2, 4]}],
             "steps": LONG // 4}
    rows, seconds, ticks = ticks_while(lambda: ricochet.study(study, jobs=1))
    assert len(rows) == 4
    assert_progressed(seconds, ticks)


def test_one_simulation_one_thread_at_a_time():
    sim = ricochet.Simulation("particle-floor")
    refused = []

    def poke():
        try:
            sim.step
        except RuntimeError as e:
            refused.append(str(e))

    thread = threading.Thread(target=lambda: sim.advance(LONG, every=LONG))
    thread.start()
    while thread.is_alive():
        poke()
        time.sleep(0.01)
    thread.join()
    assert refused and "in use by another thread" in refused[0]
    assert sim.step == LONG


def test_concurrent_runs_equal_serial_runs():
    # About 0.3 s each on the development machine.
    cases = [("cube-plane", {"steps": 600_000}), ("star-floor", {"steps": 2_000_000}),
             ("disk-table", {"steps": 1_200_000}), ("pendulum-cylinder", {"steps": 1_500_000})]
    serial = [ricochet.run(s, every=1000, **kw) for s, kw in cases]
    results = [None] * len(cases)
    cpu, wall = time.process_time(), time.perf_counter()
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, ricochet.run(cases[i][0], every=1000,
                                                                                       **cases[i][1])))
               for i in range(len(cases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    # CPU seconds per wall second above 1 means the runs overlapped; not asserted (shared cores).
    print(f"4 runs on 4 threads: {wall:.3f} s wall, {cpu:.3f} s CPU ({cpu / wall:.2f} cores busy)")
    for a, b in zip(serial, results):
        assert a.summary["impacts"] == b.summary["impacts"]
        for name in a.trace:
            assert same_bits(a.trace[name], b.trace[name]), name


INTERRUPTED = """
import sys, time, ricochet
print("started", flush=True)
start = time.perf_counter()
try:
    {call}
except KeyboardInterrupt:
    print("interrupted after %.2f s" % (time.perf_counter() - start))
    sys.exit(0)
sys.exit("not interrupted")
"""


@pytest.mark.parametrize("call", [
    'ricochet.run("particle-floor", steps=10**11, every=10**11)',
    'ricochet.study({"scenario": {"system": "particle-floor"}, "vary": [{"name": "m", "values": [1, 2]}], "steps": 10**11})',
])
def test_ctrl_c_stops_a_long_call(call):
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED.format(call=call)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ)
    assert child.stdout.readline() == "started\n"
    time.sleep(0.5)  # well inside the call: 1e11 steps take hours
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    assert out.startswith("interrupted after")
    assert float(out.split()[2]) < 10
