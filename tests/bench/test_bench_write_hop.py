"""The write trip benchmark (``bench/bench_write_hop.py``) prints a write's CPU through
``write_async``, in place, and the difference."""

import os
import re
import subprocess

from tests.load.processes import PYTHON, ROOT


def test_it_prints_both_ways_and_the_trip(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/hop.sqlite3"}
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [PYTHON, "bench/bench_write_hop.py", "--writes", "40", "--rounds", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(
        r"\(sqlite\): CPU µs per write, median of 1 rounds of 40: through write_async "
        r"[\d.]+, in place [\d.]+, the trip -?[\d.]+$",
        done.stdout.strip(),
    ), done.stdout
