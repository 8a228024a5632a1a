"""The thread hand-over benchmark (``bench/bench_thread_hop.py``) measures each step it names
and refuses a count too small to warm up."""

import asyncio
import subprocess

from bench import bench_thread_hop
from tests.load.processes import PYTHON, ROOT


def test_each_step_is_measured_per_call():
    figures = asyncio.run(bench_thread_hop.measure(40))
    assert list(figures) == [
        "a loop turn (asyncio.sleep(0))",
        "run_in_executor (a thread and back)",
        "sync_to_async, thread_sensitive=False",
        "WorkThreads (the site's)",
    ]
    assert all(wall > 0 for wall, _cpu in figures.values())


def test_too_few_calls_are_refused_with_a_message():
    done = subprocess.run(
        [PYTHON, "bench/bench_thread_hop.py", "--calls", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--calls: at least 20" in done.stderr
