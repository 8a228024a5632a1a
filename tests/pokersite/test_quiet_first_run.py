"""A quiet first run and a tidy test run (issue 32 item 12): ``make install`` prints nothing
(no pip command lines, no build backend's warnings), the PostgreSQL pass drops its test
database, the load tests' servers leave no folders in the temp directory, and without
``make test-deps`` the AsyncAPI meta-schema tests skip with a reason instead of erroring.
(The closing block of ``setup_site``: tests/pokersite/test_setup_site.py.)"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.load.processes import RedisServer, Server

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.one_pass  # make and pip alone
def test_make_install_prints_nothing_and_asks_pip_for_errors_only(tmp_path):
    """The venv is a stand-in whose python records how it was called: make's own echo of
    the pip command lines and pip's level of talk are what is checked."""
    calls = tmp_path / "calls"
    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    done = subprocess.run(
        ["make", "--no-print-directory", "install", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert (done.stdout, done.stderr) == ("", "")
    pip_calls = [line for line in calls.read_text().splitlines() if "pip install" in line]
    assert len(pip_calls) == 2, pip_calls
    # -qq: errors only (-q still shows setuptools' "Editable installation" warning)
    assert all(" -qq " in f" {line} " for line in pip_calls), pip_calls


@pytest.mark.one_pass  # folders alone
def test_the_load_tests_servers_leave_no_folders_behind():
    server, redis = Server(env={}, name="tidy"), RedisServer()
    folders = [Path(server.log_dir), Path(redis.dir)]
    assert all(folder.is_dir() for folder in folders)
    server.log_path.write_text("a log line\n")  # a server's log, as after a run
    server.close()
    redis.close()
    assert not any(folder.exists() for folder in folders)


@pytest.mark.slow
@pytest.mark.one_pass  # its run drops the database and Redis whatever this one has
def test_the_asyncapi_tests_skip_with_a_reason_without_make_test_deps(tmp_path):
    env = {**os.environ, "ASYNCAPI_SPECS": str(tmp_path / "absent"), "REQUIRE_SERVICES": "0"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs"]
        + ["tests/api/test_asyncapi_document.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "6 skipped" in done.stdout and "error" not in done.stdout.lower()
    assert "make test-deps" in done.stdout


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.django_db
def test_the_postgresql_pass_drops_its_test_database(tmp_path):
    """A run whose server threads held connections left its test database behind ("being
    accessed by other users"): a run of a socket test on a database of its own, then that
    database is gone and nothing was said."""
    url = os.environ["DATABASE_URL"] + "_drop"  # a database of its own, beside this run's
    env = {**os.environ, "DATABASE_URL": url}
    # one socket test whose server threads, the croupier's and the odds' hold connections
    # (the file's others wait on a run-out's timing, which a busy machine can outlast)
    test = (
        "tests/tables/live/test_runout_sockets.py"
        "::test_a_spectator_receives_the_run_out_street_by_street"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", test],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "being accessed by other users" not in done.stdout + done.stderr
    test_database = "test_" + url.rsplit("/", 1)[1]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_database WHERE datname = %s", [test_database])
        assert cursor.fetchone()[0] == 0
