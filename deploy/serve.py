#!/usr/bin/env python3
"""Start N daphne processes on consecutive ports (one machine), each running the croupier.

    DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/0 SECRET_KEY=... \
    ALLOWED_HOSTS=poker.example.com CSRF_TRUSTED_ORIGINS=https://poker.example.com \
    .venv/bin/python deploy/serve.py --processes 2 --port 8001

- Runs ``migrate`` and ``collectstatic`` once first (``--no-migrate`` to skip).
- Starts ``daphne --proxy-headers`` on 127.0.0.1:PORT, PORT+1, ... with
  ``DJANGO_SETTINGS_MODULE=pokersite.settings_production`` (override with ``--settings``);
  nginx (``deploy/nginx.conf``) spreads the clients over them.
- Each process runs the croupier (``POKER_CROUPIER=1``, the default); they are safe together
  because every step is a locked, versioned service.
- A process that dies is started again (after a second, at most 5 times a minute); Ctrl-C or
  SIGTERM stops them all.

Several processes need PostgreSQL and Redis: it refuses to start more than one without both.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=8001, help="first port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--settings", default="pokersite.settings_production")
    parser.add_argument("--no-migrate", action="store_true")
    args = parser.parse_args()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": args.settings}
    env.setdefault("POKER_CROUPIER", "1")
    if args.processes > 1 and not (
        env.get("DATABASE_URL", "").startswith("postgres") and env.get("REDIS_URL")
    ):
        print(
            "several processes need DATABASE_URL=postgres://... and REDIS_URL=redis://...",
            file=sys.stderr,
        )
        return 2
    python = sys.executable
    if not args.no_migrate:
        subprocess.run([python, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True)
        subprocess.run(
            [python, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )

    def start(port: int) -> subprocess.Popen:
        print(f"daphne on {args.host}:{port}", flush=True)
        return subprocess.Popen(
            [
                python,
                "-m",
                "daphne",
                "--proxy-headers",
                "-b",
                args.host,
                "-p",
                str(port),
                "pokersite.asgi:application",
            ],
            cwd=ROOT,
            env=env,
        )

    ports = [args.port + i for i in range(args.processes)]
    procs = {port: start(port) for port in ports}
    restarts: dict[int, list[float]] = {port: [] for port in ports}
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        port = next((p for p, proc in procs.items() if proc.pid == pid), None)
        if port is None or stopping:
            continue
        recent = [t for t in restarts[port] if time.monotonic() - t < 60]
        if len(recent) >= 5:
            print(f"daphne on port {port} keeps dying; not restarting it", file=sys.stderr)
            continue
        restarts[port] = recent + [time.monotonic()]
        print(f"daphne on port {port} exited ({status}); restarting", file=sys.stderr)
        time.sleep(1)  # a crash loop must not spin
        procs[port] = start(port)
    for proc in procs.values():
        if proc.poll() is None:
            proc.terminate()
    for proc in procs.values():
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
