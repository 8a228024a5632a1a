"""The fast loop of ``make check``, chosen here and only here: the tests under ``CHECK_PATHS``
that are not marked ``slow``, ``cli`` or ``postgres``: the engine, the services, presenters and
selectors; no browser, no server, no load. The engine's command line (``cli``) starts a Python
process per call (about 0.7 s of CPU each), so its tests wait for the whole suite.

``pytest --check`` runs them (and collects nothing else, so it starts fast); ``pytest
--not-check`` runs every other test, so that ``make test`` (``make check``, then the rest)
runs each test once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECK_PATHS = (
    "tests/engine",
    "tests/tables/services/test_hands.py",
    "tests/tables/services/test_seats.py",
    "tests/tables/services/test_hosting.py",
    "tests/tables/services/test_clock.py",
    "tests/tables/presenters/test_presenters.py",
    "tests/tables/presenters/test_presenters_glance.py",
    "tests/tables/presenters/test_log_lines.py",
    "tests/tables/presenters/test_play_state.py",
    "tests/tables/selectors/test_replay.py",
    "tests/tables/selectors/test_access.py",
    "tests/tables/test_text.py",
    "tests/tables/selectors/test_read_layers.py",
)
#: Tests under ``CHECK_PATHS`` with one of these marks wait for the whole suite.
LEFT_FOR_THE_SUITE = ("slow", "cli", "postgres")


def pytest_addoption(parser):
    group = parser.getgroup("fast loop")
    group.addoption("--check", action="store_true", help="only the tests of make check")
    group.addoption("--not-check", action="store_true", help="every test but make check's")


def _relative(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return ""


def _under_check_paths(relative: str) -> bool:
    return any(relative == p or relative.startswith(p + "/") for p in CHECK_PATHS)


def pytest_ignore_collect(collection_path: Path, config):
    """With ``--check``, collect only what leads to ``CHECK_PATHS``."""
    if not config.getoption("check"):
        return None
    relative = _relative(collection_path)
    leads_there = any(p.startswith(relative + "/") for p in CHECK_PATHS) or relative == ""
    return None if leads_there or _under_check_paths(relative) else True


def in_check(item) -> bool:
    return _under_check_paths(_relative(Path(item.path))) and not any(
        item.get_closest_marker(mark) for mark in LEFT_FOR_THE_SUITE
    )


def pytest_collection_modifyitems(config, items):
    check, not_check = config.getoption("check"), config.getoption("not_check")
    if check and not_check:
        raise pytest.UsageError("--check and --not-check exclude each other")
    if not (check or not_check):
        return
    kept = [item for item in items if in_check(item) == check]
    dropped = [item for item in items if in_check(item) != check]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
