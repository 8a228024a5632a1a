"""``--cpu-files=N``: the N test files that cost the most CPU, listed at the end of a run.

The passes of ``make test`` are CPU-bound (their workers share two cores): a test's waits are
hidden by the others' work, so ``--durations`` (wall time, stretched by whatever else runs)
says less about what makes a pass long than the CPU each file costs. That is counted per test,
from its setup to its teardown, for the test process and every process under it (the servers
and the browser a test starts), with the children each has reaped, read from ``/proc`` (Linux
only: elsewhere nothing is listed). The database and Redis servers are not under it and are
not counted; a set-up shared by the whole run (the test database, the browser) counts to the
first test that asks for it. Under pytest-xdist each worker counts its own tests and the
figures travel to the controller with the test's report.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest

#: The user property a test's CPU seconds travel under.
CPU_PROPERTY = "cpu_seconds"
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: The CPU figure a test's setup began with (``pytest_runtest_setup``).
_START = pytest.StashKey[float | None]()


def pytest_addoption(parser):
    parser.getgroup("cpu report").addoption(
        "--cpu-files",
        type=int,
        default=0,
        metavar="N",
        help="list the N test files that cost the most CPU (with the processes they start)",
    )


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds of process ``pid`` and every process under it, each with the children it
    has reaped; None where ``/proc`` cannot say (not Linux)."""
    total, pending, seen = 0, [pid], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            stat = Path(f"/proc/{current}/stat").read_text()
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:  # it ended meanwhile: its parent's reaped figures hold it
            if current == pid:
                return None
            continue
        # utime, stime, cutime, cstime: fields 14-17, counted after the name's last ")"
        fields = stat[stat.rindex(")") + 2 :].split()
        total += sum(int(value) for value in fields[11:15])
        for task in tasks:
            try:
                children = Path(f"/proc/{current}/task/{task}/children").read_text()
            except OSError:
                continue
            pending.extend(int(child) for child in children.split())
    return total / _TICKS


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if item.config.getoption("cpu_files"):
        item.stash[_START] = tree_cpu_seconds(os.getpid())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when != "teardown" or not item.config.getoption("cpu_files"):
        return
    start, end = item.stash.get(_START, None), tree_cpu_seconds(os.getpid())
    if start is not None and end is not None:
        outcome.get_result().user_properties.append((CPU_PROPERTY, end - start))


#: Each test file's CPU seconds in this run (``pytest_runtest_logreport`` is given no config).
_by_file: defaultdict[str, float] = defaultdict(float)


def pytest_configure(config):
    _by_file.clear()


def pytest_runtest_logreport(report):
    if report.when != "teardown":
        return
    for name, value in report.user_properties:
        if name == CPU_PROPERTY:
            _by_file[report.nodeid.split("::", 1)[0]] += value


def pytest_terminal_summary(terminalreporter, config):
    count = config.getoption("cpu_files")
    if not count or not _by_file:
        return
    total = sum(_by_file.values())
    terminalreporter.write_sep("=", f"the {count} test files that cost the most CPU")
    for path, seconds in sorted(_by_file.items(), key=lambda item: -item[1])[:count]:
        terminalreporter.write_line(f"{seconds:8.1f}s {100 * seconds / total:5.1f}%  {path}")
    terminalreporter.write_line(
        f"{total:8.1f}s CPU in all, in {len(_by_file)} files (the test processes and theirs)"
    )
