"""The fenced write benchmark (``bench/bench_fenced_write.py``) makes a runtime's smallest
write, again and again, and prints its CPU per write."""

import os
import re
import sqlite3
import subprocess

from tests.load.processes import PYTHON, ROOT


def test_it_bumps_the_tables_version_once_a_write_and_prints_its_cpu(tmp_path):
    database = tmp_path / "fenced.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [PYTHON, "bench/bench_fenced_write.py", "--writes", "30", "--rounds", "2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(
        r"\(sqlite\): CPU µs per fenced write \(lock, version bump, commit\), median of 2 "
        r"rounds of 30: [\d.]+ \(from [\d.]+ to [\d.]+\)$",
        done.stdout.strip(),
    ), done.stdout
    with sqlite3.connect(database) as written:  # made (1), the warm-up (3), two rounds of 30
        assert written.execute("SELECT version FROM tables_table").fetchall() == [(64,)]
