"""The hosts' processes, each started on its host (its namespace) the way the production page
starts it: PostgreSQL (a private cluster on the ``db`` host), Redis (``redis``), the daphne
processes of ``app1`` and ``app2`` (``pokersite.settings_production``, ``daphne --proxy-headers``
as ``poker@.service`` runs it), nginx with ``deploy/nginx.conf`` (``lb``). Every process is
started in a session of its own, so that ``Processes.stop_all`` ends it with its children."""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from deploy.hosts.net import in_host
from deploy.hosts.plan import (
    POSTGRES_PORT,
    REDIS_PORTS,
    SKEWED_HOST,
    Daphne,
    Plan,
    daphne_arguments,
    nginx_has_http2_directive,
    nginx_main,
    nginx_site,
    unit_exec_start,
)

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
DATABASE = "poker"
START_SECONDS = 120


@dataclass
class Processes:
    """What the harness started: name -> process (and its log, in ``run_dir``)."""

    run_dir: Path
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, name: str, command: list[str], env: dict[str, str] | None = None) -> int:
        log = open(self.run_dir / f"{name}.log", "ab")  # noqa: SIM115 - the process's log
        self.procs[name] = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        return self.procs[name].pid

    def tail(self, name: str, lines: int = 30) -> str:
        try:
            text = (self.run_dir / f"{name}.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop_all(self) -> None:
        """SIGTERM to every process's session, then SIGKILL to what is left (10 s later)."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for proc in self.procs.values():
                if proc.poll() is None:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, sig)
            deadline = time.monotonic() + 10
            for proc in self.procs.values():
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=max(0.1, deadline - time.monotonic()))


def wait_port(plan: Plan, from_host: str, address: str, port: int, what: str) -> None:
    """Until ``address:port`` accepts a connection from ``from_host`` (bounded)."""
    probe = (
        "import socket, sys, time\n"
        f"deadline = time.monotonic() + {START_SECONDS}\n"
        "while True:\n"
        "    try:\n"
        f"        socket.create_connection(({address!r}, {port}), 2).close(); break\n"
        "    except OSError:\n"
        "        if time.monotonic() > deadline: sys.exit(f'no answer from {what}')\n"
        "        time.sleep(0.2)\n"
    )
    done = subprocess.run(in_host(plan, from_host, PYTHON, "-c", probe), capture_output=True)
    if done.returncode:
        raise TimeoutError(f"{what} ({address}:{port}) did not answer within {START_SECONDS}s")


def postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    if not found:
        raise FileNotFoundError("no PostgreSQL server binaries under /usr/lib/postgresql/")
    return Path(found[-1]).parent


def start_postgres(plan: Plan, procs: Processes) -> str:
    """A private cluster on the db host, reachable from the bridge's hosts (trust: a test
    network of its own). Returns the site's database URL."""
    bin_dir = postgres_bin()
    data = procs.run_dir / "pg"
    data.mkdir()
    shutil.chown(data, "postgres", "postgres")
    as_postgres = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*as_postgres, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    with open(data / "pg_hba.conf", "a") as hba:
        hba.write(f"host all all {plan.cidr('db').rsplit('.', 1)[0]}.0/24 trust\n")
    procs.start(
        "postgres",
        in_host(plan, "db", *as_postgres, str(bin_dir / "postgres"), "-D", str(data))
        + ["-c", f"listen_addresses={plan.hosts['db']}", "-c", f"unix_socket_directories={data}"]
        + ["-c", "max_connections=300", "-c", "fsync=off"],
    )
    wait_port(plan, "db", plan.hosts["db"], POSTGRES_PORT, "PostgreSQL")
    subprocess.run(
        in_host(plan, "db", *as_postgres, str(bin_dir / "createdb"))
        + ["-h", plan.hosts["db"], "-U", "postgres", DATABASE],
        check=True,
        capture_output=True,
    )
    return plan.database_url(DATABASE)


def start_redis(plan: Plan, procs: Processes) -> None:
    for port in REDIS_PORTS[: plan.redis_servers]:
        procs.start(
            f"redis-{port}",
            in_host(plan, "redis", "redis-server", "--bind", plan.hosts["redis"])
            + ["--port", str(port), "--save", "", "--appendonly", "no"]
            + ["--protected-mode", "no", "--dir", str(procs.run_dir)],
        )
        wait_port(plan, "redis", plan.hosts["redis"], port, f"redis-server :{port}")


def app_env(plan: Plan, database_url: str, **extra: str) -> dict[str, str]:
    """The production page's environment for every app process."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pokersite.settings_production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": plan.public,
        "CSRF_TRUSTED_ORIGINS": f"https://{plan.public}",
        "DATABASE_URL": database_url,
        "REDIS_URL": ",".join(plan.redis_urls),
        "CONN_MAX_AGE": "60",
        "POKER_CROUPIER": "1",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


def set_up_site(plan: Plan, env: dict[str, str]) -> None:
    """``poker-migrate.service``'s set-up, once, from app1: migrate and collectstatic."""
    for command in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run(
            in_host(plan, "app1", PYTHON, "manage.py", *command),
            cwd=ROOT,
            env=env,
            check=True,
            timeout=600,
        )


def pidfile(run_dir: Path, daphne: Daphne) -> Path:
    """Where the daphne's holder writes the pid of the process it runs (systemd's MainPID)."""
    return run_dir / f"{daphne.name}.pid"


def faketime_library() -> str:
    found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
    if not found:
        raise FileNotFoundError("no libfaketime (apt-get install faketime) for --ahead")
    return found[-1]


def clock_ahead(plan: Plan, host: str) -> list[str]:
    """The prefix that runs a command of ``host`` with its clocks ``plan.clock_ahead`` seconds
    ahead (libfaketime), or nothing. The monotonic clock moves by the same constant, which a
    process only ever subtracts from itself: nothing changes there (leaving it true,
    ``FAKETIME_DONT_FAKE_MONOTONIC``, makes libfaketime 0.9.10 fail Python's sleeps)."""
    if not plan.clock_ahead or host != SKEWED_HOST:
        return []
    return ["env", f"LD_PRELOAD={faketime_library()}", f"FAKETIME={plan.clock_ahead:+g}s"]


def daphne_command(plan: Plan, daphne: Daphne, run_dir: Path) -> list[str]:
    """The documented start (``poker@.service``'s ``ExecStart``: ``daphne --proxy-headers
    --ping-interval ... --fd 3``, read from the unit) under the harness's stand-in for systemd
    (``deploy.hosts.holder``: it holds ``poker@.socket``'s port, at the host's address, and
    restarts the process on it), on the daphne's host, whose host name (a UTS namespace) is
    the host's: the leases' owners ("host:pid:hex") then say which host holds a table."""
    return in_host(
        plan,
        daphne.host,
        "unshare",
        "--uts",
        "sh",
        "-c",
        f'hostname {daphne.host} && exec "$0" "$@"',
        *clock_ahead(plan, daphne.host),
        PYTHON,
        "-m",
        "deploy.hosts.holder",
        daphne.address,
        str(daphne.port),
        str(pidfile(run_dir, daphne)),
        "--",
        PYTHON,
        "-m",
        "daphne",
        *daphne_arguments(unit_exec_start()),
    )


def daphne_pid(run_dir: Path, daphne: Daphne, not_pid: int = 0) -> int:
    """The pid the daphne's holder started (other than ``not_pid``: the one before a restart),
    once it has written it (bounded)."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError):
            pid = int(pidfile(run_dir, daphne).read_text())
            if pid != not_pid:
                return pid
        time.sleep(0.1)
    raise TimeoutError(f"the holder of {daphne.name} started no process")


def wait_served(plan: Plan, from_host: str, daphne: Daphne) -> None:
    """Until the daphne answers ``/healthz`` (its port accepts from the start: the holder's
    backlog keeps the request until daphne runs)."""
    wait_port(plan, from_host, daphne.address, daphne.port, f"the port of {daphne.name}")
    probe = (
        "import urllib.request\n"
        f"urllib.request.urlopen('http://{daphne.address}:{daphne.port}/healthz', "
        f"timeout={START_SECONDS}).read()\n"
    )
    done = subprocess.run(in_host(plan, from_host, PYTHON, "-c", probe), capture_output=True)
    if done.returncode:
        raise TimeoutError(f"daphne {daphne.name} did not answer /healthz")


def start_daphnes(plan: Plan, procs: Processes, env: dict[str, str]) -> dict[str, int]:
    """Every app host's daphne processes, each under its holder (its port's socket); returns
    each daphne's pid by name ("app1:8001")."""
    for d in plan.daphnes:
        pidfile(procs.run_dir, d).unlink(missing_ok=True)
        procs.start(d.name, daphne_command(plan, d, procs.run_dir), env)
    for d in plan.daphnes:
        wait_served(plan, "lb", d)
    return {d.name: daphne_pid(procs.run_dir, d) for d in plan.daphnes}


def restart_daphne(plan: Plan, procs: Processes, env: dict[str, str], daphne: Daphne) -> int:
    """One daphne and its holder started again (after a scenario killed its host); returns
    the daphne's pid."""
    pidfile(procs.run_dir, daphne).unlink(missing_ok=True)
    procs.start(daphne.name, daphne_command(plan, daphne, procs.run_dir), env)
    wait_served(plan, "lb", daphne)
    return daphne_pid(procs.run_dir, daphne)


def certificate(plan: Plan, run_dir: Path) -> tuple[Path, Path]:
    """A self-signed certificate for the load balancer's address (the clients trust it)."""
    cert, key = run_dir / "lb.crt", run_dir / "lb.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", f"/CN={plan.public}"]
        + ["-addext", f"subjectAltName=IP:{plan.public}"],
        check=True,
        capture_output=True,
    )
    return cert, key


def start_nginx(plan: Plan, procs: Processes, template: Path) -> Path:
    """nginx on the lb host with ``template`` (``deploy/nginx.conf``) adapted
    (``plan.nginx_site``). Returns the certificate the clients are to trust."""
    cert, key = certificate(plan, procs.run_dir)
    version = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr
    site = nginx_site(
        template.read_text(),
        plan,
        certificate=str(cert),
        key=str(key),
        static_root=str(ROOT / "staticfiles"),
        http2_directive=nginx_has_http2_directive(version),
    )
    conf = procs.run_dir / "nginx.conf"
    conf.write_text(nginx_main(site, str(procs.run_dir)))
    checked = subprocess.run(
        in_host(plan, "lb", "nginx", "-t", "-c", str(conf)), capture_output=True, text=True
    )
    if checked.returncode:
        raise RuntimeError(f"nginx refuses the adapted configuration:\n{checked.stderr}")
    procs.start("nginx", in_host(plan, "lb", "nginx", "-c", str(conf), "-g", "daemon off;"))
    wait_port(plan, "clients", plan.public, 443, "nginx")
    return cert
