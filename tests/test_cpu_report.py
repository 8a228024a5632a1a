"""``tests/cpu_report.py`` counts a test's CPU with the processes under the test process: a
child still running and a child already ended (reaped) alike. Each child here measures its
own CPU (``time.process_time``) and works until it has used ``WORK`` seconds of it, so what
is asserted is CPU the kernel counted, not a duration (at least half of it: the kernel's
figures are sampled in ticks, the child's own is exact)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.cpu_report import tree_cpu_seconds

#: The CPU seconds each child uses (the kernel counts in ticks of 10 ms).
WORK = 0.3
BURN = (
    "import sys, time\n"
    f"while time.process_time() < {WORK}: pass\n"
    "print('worked', flush=True)\n"
    "sys.stdin.read()\n"  # then waits, alive, until its input is closed
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def test_a_running_child_and_an_ended_one_count_with_the_test_process():
    before = tree_cpu_seconds(os.getpid())
    assert before is not None
    child = subprocess.Popen(
        [sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "worked\n"
        running = tree_cpu_seconds(os.getpid())  # the child alive, waiting
        assert running is not None and running - before >= WORK / 2
    finally:
        child.communicate("")  # ended and reaped: its CPU is now its parent's reaped figure
    ended = tree_cpu_seconds(os.getpid())
    assert ended is not None and ended >= running


def test_a_process_that_is_gone_has_no_figure():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert tree_cpu_seconds(child.pid) is None
