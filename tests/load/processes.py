"""Real servers for the load tests and the load benchmark: PostgreSQL, Redis, daphne.

- ``FreshDatabase``: a new, migrated PostgreSQL database per test (dropped afterwards), next
  to the one ``DATABASE_URL`` names; ``sql()`` reads it directly.
- ``DbProxy``: a TCP proxy between one server process and PostgreSQL that the test cuts
  (every connection closed, new ones refused) and restores.
- ``RedisServer``: a private ``redis-server`` on a free port, so a test may kill and restart
  it without touching anybody else's Redis.
- ``Server``: one daphne process. The harness binds the listening socket itself and hands it
  to daphne (``--fd``), so the port exists before daphne starts and survives a SIGKILL:
  clients that connect while the server is down wait in the backlog until it is back.

Nothing here sleeps: every wait is on an event (a line of output, an HTTP answer) with a
deadline, and a deadline that passes raises ``TimeoutError`` naming what was awaited.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


# --- PostgreSQL -----------------------------------------------------------------------------
class FreshDatabase:
    """A new PostgreSQL database, migrated, named ``load_<random>`` on the server of ``url``."""

    def __init__(
        self,
        url: str,
        settings: str = "tests.load.settings",
        python: str = PYTHON,
        root: Path = ROOT,
    ) -> None:
        self.python, self.root = python, root
        parts = urlsplit(url)
        self.name = f"load_{secrets.token_hex(4)}"
        self.admin_url = urlunsplit(parts._replace(path="/postgres"))
        self.url = urlunsplit(parts._replace(path=f"/{self.name}"))
        self.settings = settings

    def __enter__(self) -> FreshDatabase:
        self._admin(f'CREATE DATABASE "{self.name}"')
        env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "DJANGO_SETTINGS_MODULE": self.settings,
            "PYTHONPATH": python_path(self.root),
        }
        env.pop("REDIS_URL", None)
        subprocess.run(
            [self.python, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=self.root,
            env=env,
            check=True,
            timeout=180,
        )
        return self

    def __exit__(self, *exc) -> None:
        self._admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            [self.name],
        )
        self._admin(f'DROP DATABASE IF EXISTS "{self.name}"')

    def _admin(self, statement: str, params=None) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(statement, params)

    def sql(self, query: str, params=None) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            return conn.execute(query, params).fetchall()

    def value(self, query: str, params=None):
        return self.sql(query, params)[0][0]


# --- a PostgreSQL that goes away -------------------------------------------------------------
class DbProxy:
    """127.0.0.1:<port> → PostgreSQL, on its own thread and event loop: a server process whose
    ``DATABASE_URL`` is ``url_for(url)`` loses its database when the test says so.

    ``down()`` stops listening (new connections are refused) and cuts every open connection;
    ``up()`` listens again on the same port. ``cut_at_commit()`` arms a one-shot trap: the
    first connection that inserts a hand action has its ``COMMIT`` swallowed, then the proxy
    goes ``down()``. ``watch(*needles)`` counts, from then on, the chunks of SQL sent through
    it that contain each needle (``seen``): what the process behind it tried to write.
    """

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.base_events.Server | None = None
        self.transports: set[asyncio.Transport] = set()
        self.armed = False
        self.commits_cut = 0
        self.connections = 0
        self.seen: dict[bytes, int] = {}

    def url_for(self, url: str) -> str:
        """``url`` (a PostgreSQL URL on ``target``) through this proxy."""
        parts = urlsplit(url)
        host = f"{parts.hostname}:{parts.port}" if parts.port else str(parts.hostname)
        return urlunsplit(
            parts._replace(netloc=parts.netloc.replace(host, f"127.0.0.1:{self.port}"))
        )

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=20)

    def start(self) -> None:
        self.thread.start()
        self.up()

    def up(self) -> None:
        self._call(self._listen())

    def down(self) -> None:
        self._call(self._down())

    def cut_at_commit(self) -> None:
        self.loop.call_soon_threadsafe(setattr, self, "armed", True)

    def watch(self, *needles: bytes) -> None:
        self._call(self._watch(needles))

    def close(self) -> None:
        if self.thread.is_alive():
            self.down()
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=20)

    def refuses(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=5).close()
        except ConnectionRefusedError:
            return True
        return False

    async def _watch(self, needles: tuple[bytes, ...]) -> None:
        self.seen = dict.fromkeys(needles, 0)

    async def _listen(self) -> None:
        self.server = await asyncio.start_server(
            self._handle, "127.0.0.1", self.port, reuse_address=True
        )

    async def _down(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None
        for transport in list(self.transports):
            transport.abort()
        self.transports.clear()

    async def _handle(self, reader, writer) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        if self.server is None:  # went down while connecting
            writer.transport.abort()
            up_writer.transport.abort()
            return
        self.transports |= {writer.transport, up_writer.transport}
        await asyncio.gather(
            self._pump(reader, up_writer, client_side=True),
            self._pump(up_reader, writer, client_side=False),
        )

    async def _pump(self, reader, writer, client_side: bool) -> None:
        inserted = False
        try:
            while data := await reader.read(65536):
                if client_side:
                    for needle in self.seen:
                        if needle in data:
                            self.seen[needle] += 1
                if client_side and self.armed:
                    inserted = inserted or b'INSERT INTO "tables_handaction"' in data
                    if inserted and b"COMMIT" in data:
                        self.armed = False
                        self.commits_cut += 1
                        await self._down()
                        return
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.transports.discard(writer.transport)
            writer.transport.abort()


# --- Redis -------------------------------------------------------------------------------------
def _wait_for_line(stream, needle: str, timeout: float, what: str) -> None:
    """Read ``stream`` (in a thread) until a line contains ``needle``; keep draining after."""
    seen = threading.Event()

    def pump():
        for raw in iter(stream.readline, b""):
            if needle.encode() in raw:
                seen.set()

    threading.Thread(target=pump, daemon=True).start()
    if not seen.wait(timeout):
        raise TimeoutError(f"{what}: no {needle!r} within {timeout}s")


class RedisServer:
    """A private redis-server on 127.0.0.1 (no persistence): ``start``, ``kill``, ``url``."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="load-redis-")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        _wait_for_line(self.proc.stdout, "Ready to accept connections", timeout, "redis-server")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=20)

    def close(self) -> None:
        """Kill it and remove its folder: a run leaves nothing in the temp directory."""
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --- daphne ------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4096)  # a connect rush of a thousand sockets waits here, not refused
    sock.set_inheritable(True)
    return sock


def python_path(root: Path) -> str:
    """``PYTHONPATH`` for a process of the checkout ``root``: the checkout first, then what
    this environment adds (packages installed beside it, as on a machine without pip access)."""
    return os.pathsep.join(filter(None, (str(root), os.environ.get("PYTHONPATH"))))


@dataclass
class Server:
    """One daphne process serving ``app`` on a socket the harness owns, from the checkout
    ``root`` with its interpreter ``python`` (the load benchmark serves another checkout beside
    this one to compare them)."""

    env: dict
    app: str = "pokersite.asgi:application"
    name: str = "server"
    python: str = PYTHON
    root: Path = ROOT
    log_dir: str = field(default_factory=lambda: tempfile.mkdtemp(prefix="load-daphne-"))
    sock: socket.socket = field(default_factory=listening_socket)
    proc: subprocess.Popen | None = None
    starts: int = 0
    #: The CPUs the server may run on (``taskset -c``: "0,1"), or any.
    cpus: str | None = None

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return Path(self.log_dir) / f"{self.name}.log"

    def start(self, timeout: float = 120) -> None:
        """Start daphne and wait (bounded) until it answers an HTTP request."""
        self.starts += 1
        log = open(self.log_path, "ab")  # noqa: SIM115 - the server's log while it runs
        log.write(f"\n--- start {self.starts}\n".encode())
        fd = self.sock.fileno()
        pinned = ["taskset", "-c", self.cpus] if self.cpus else []
        self.proc = subprocess.Popen(
            [*pinned, self.python, "-m", "daphne", "--fd", str(fd), "--proxy-headers", self.app],
            cwd=self.root,
            env={**os.environ, **self.env, "PYTHONPATH": python_path(self.root)},
            pass_fds=[fd],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self.wait_ready(timeout)

    def wait_ready(self, timeout: float = 120) -> None:
        """One HTTP request: it waits in the socket's backlog until daphne serves it."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", "/accounts/login/")
            status = conn.getresponse().status
        except (OSError, http.client.HTTPException) as error:
            raise RuntimeError(f"{self.name} did not answer: {error}\n{self.tail()}") from error
        finally:
            conn.close()
        if status != 200:
            raise RuntimeError(f"{self.name} answered {status}\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL: no clean-up, no goodbye, exactly like a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def close(self) -> None:
        """Stop it and remove its log folder (a failure has already quoted ``tail``): a run
        leaves nothing in the temp directory."""
        self.stop()
        self.sock.close()
        shutil.rmtree(self.log_dir, ignore_errors=True)

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def server_env(db_url: str, redis_url: str | None, **extra) -> dict:
    env = {
        "DATABASE_URL": db_url,
        "DJANGO_SETTINGS_MODULE": "tests.load.settings",
        "CHANNEL_PREFIX": f"load{secrets.token_hex(3)}",
        "POKER_HAND_PAUSE_SECONDS": "0.2",
        "LOAD_BOT_DELAY": "0.02,0.08",
        "LOG_LEVEL": os.environ.get("LOAD_LOG_LEVEL", "WARNING"),
        "PYTHONUNBUFFERED": "1",
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update({k: str(v) for k, v in extra.items()})
    return env


def build_world(env: dict, spec: dict, python: str = PYTHON, root: Path = ROOT) -> dict:
    """Players with sessions and tables (``tests/load/world.py``) in the servers' database,
    by the checkout ``root`` that serves it."""
    out = subprocess.run(
        [python, "-m", "tests.load.world", json.dumps(spec)],
        cwd=root,
        env={**os.environ, **env, "PYTHONPATH": python_path(root)},
        check=True,
        timeout=600,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
