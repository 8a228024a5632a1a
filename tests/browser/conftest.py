"""A real daphne server on a free port, against its own SQLite database file.

The server runs the croupier itself (started with its first connection), exactly as
``make run`` does; the tests read the database file directly or through ``manage.py shell``.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.browser import steps

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, url: str, env: dict, db: Path, log: Path, proc: subprocess.Popen):
        self.proc = proc  # daphne's process
        self.url = url
        self.env = env
        self.db = db
        self.log = log  # what daphne and the site wrote (stdout and stderr)

    def shell(self, code: str):
        """Run ``code`` in ``manage.py shell`` against the server's database; its JSON output."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,  # a bound: a tournament played in the shell on a slow machine
        )
        # what went wrong, in the test's failure (a rare one is seen once, in CI)
        assert done.returncode == 0, f"manage.py shell failed: {done.stderr[-3000:]}"
        out = done.stdout.strip().splitlines()
        return json.loads(out[-1]) if out else None


#: This test process's migrated database, copied for each server: a migrate costs seconds
#: of CPU, and the suite starts a server per browser module.
_migrated: Path | None = None


def copy_migrated(tmp_path_factory, env: dict, db: Path) -> None:
    """Give ``db`` the schema: ``manage.py migrate`` once per test process, then a copy (SQLite's
    backup, which also takes what is still in the write-ahead log)."""
    global _migrated
    if _migrated is None:
        template = tmp_path_factory.mktemp("migrated") / "template.sqlite3"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env={**env, "DATABASE_URL": f"sqlite:///{template}"},
            check=True,
            timeout=120,
        )
        _migrated = template
    source, target = sqlite3.connect(_migrated), sqlite3.connect(db)
    with contextlib.closing(source), contextlib.closing(target):
        source.backup(target)


@contextlib.contextmanager
def running_server(tmp_path_factory, **settings: str):
    """A daphne server on a free port with its own SQLite file (``settings``: more of its
    environment, over the defaults below)."""
    db = tmp_path_factory.mktemp("daphne") / "browser.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "DEBUG": "1",
        "POKER_HAND_PAUSE_SECONDS": "2.5",
        "POKER_BOT_DELAY": "0.3,0.7",
        "POKER_CROUPIER": "1",
        "DJANGO_SETTINGS_MODULE": "pokersite.settings",
        "RATELIMIT_EXEMPT": "127.0.0.1",  # every browser signs up and logs in from here
        **settings,
    }
    env.pop("REDIS_URL", None)  # one process: the in-memory channel layer
    copy_migrated(tmp_path_factory, env, db)
    port = free_port()
    log = open(tmp_path_factory.mktemp("logs") / "daphne.log", "w")  # noqa: SIM115 - the server's log while it runs
    proc = start_daphne(env, port, log)
    url = f"http://127.0.0.1:{port}"
    try:
        yield Server(url, env, db, Path(log.name), proc)
    finally:
        stop_daphne(proc)
        log.close()


def start_daphne(env: dict, port: int, log: IO[str]) -> subprocess.Popen:
    """daphne serving the site with ``env`` on ``port`` (its output to ``log``), once it
    answers."""
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "pokersite.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    # A bound, not a measure: parallel test workers on a busy 2-core machine start slowly.
    deadline = steps.deadline(120)
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"daphne did not start: see {log.name}") from None
            # wait on the process (it must not exit) for a moment, then try again
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.2)


def stop_daphne(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


#: How much of a server's log a failed test's report shows.
LOG_LINES_ON_FAILURE = 80


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A browser test that failed shows the end of its server's log (each request's answer,
    any traceback): a flake on a busy machine can then be read from the report alone."""
    report = yield
    if report.failed and call.when == "call":
        for value in getattr(item, "funcargs", {}).values():
            if isinstance(value, Server) and value.log.exists():
                lines = value.log.read_text(errors="replace").splitlines()
                tail = "\n".join(lines[-LOG_LINES_ON_FAILURE:])
                report.sections.append((f"daphne's log at {value.url}, its end", tail))
    return report


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory) as running:
        yield running


class LessMotionBrowser:
    """A Playwright browser whose pages ask for reduced motion (``prefers-reduced-motion``),
    unless a test asks otherwise: the seat clock's bar then steps four times a second instead
    of gliding, and a page with a clock running costs Chromium about half the CPU (the
    suite's parallel workers share two cores). Playwright sets the preference per context,
    so Chromium's own switch for it does not reach the pages."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> BrowserContext:
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_context(**options)

    def new_page(self, **options: Any) -> Page:
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_page(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser(server):
    from tests.conftest import chromium_executable, missing_service

    path = chromium_executable()
    if path is None:
        missing_service("needs Chromium at /usr/bin/chromium (apt-get install chromium)")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield LessMotionBrowser(chromium)
        chromium.close()
