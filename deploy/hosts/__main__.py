"""The multi-host harness (issue 55): ``make hosts-test`` (as root), or

    sudo .venv/bin/python -m deploy.hosts --tables 10 --seconds 20

Builds one network namespace per host on a bridge (``deploy.hosts.net``): ``db`` (a private
PostgreSQL cluster), ``redis`` (two redis-servers: channels-redis shards the tables' groups
over them), ``app1`` and ``app2`` (two daphne processes each, ``pokersite.settings_production``,
started as ``poker@.service`` starts them, each on a port its holder keeps open across
restarts as ``poker@.socket`` does: ``deploy.hosts.holder``), ``lb`` (nginx with
``deploy/nginx.conf``, its upstreams the four daphnes), ``clients`` (the load bench's
players, and the scenarios: ``deploy.hosts.scenarios``). Each host reaches the others only
by its address on the bridge.
Latency between hosts (``tc netem``) where the kernel has it: the run says whether it had.

Everything it started is stopped, and every namespace removed, however the run ends.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from deploy.hosts import net
from deploy.hosts.plan import Plan
from deploy.hosts.services import (
    PYTHON,
    ROOT,
    Processes,
    app_env,
    restart_daphne,
    set_up_site,
    start_daphnes,
    start_nginx,
    start_postgres,
    start_redis,
)

SCENARIOS = (
    "load",
    "host-loss",
    "link-loss",
    "partition-redis",
    "partition-db",
    "rolling-restart",
)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of 6 players")
    parser.add_argument("--seconds", type=float, default=30, help="the load's measured window")
    parser.add_argument("--think", default="0.5-1.5", help="players' think time, seconds")
    parser.add_argument("--warm-up", type=float, default=5)
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--kill-after", type=float, default=8, help="host loss: seconds in")
    parser.add_argument("--after-loss", type=float, default=30, help="host loss: play after")
    parser.add_argument(
        "--partition-seconds", type=float, default=20, help="partition: app1 without Redis"
    )
    parser.add_argument(
        "--restart-seconds",
        type=float,
        default=150,
        help="rolling restart: the window for restarting the four processes one at a time",
    )
    parser.add_argument("--hand-pause", default="1", help="POKER_HAND_PAUSE_SECONDS")
    parser.add_argument(
        "--ahead",
        type=float,
        default=0,
        help="app1's wall clock this many seconds ahead of the other hosts' (libfaketime)",
    )
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument(
        "--nginx-conf",
        type=Path,
        default=ROOT / "deploy" / "nginx.conf",
        help="the site configuration to adapt (to try a change across hosts)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (logs)")
    return parser.parse_args()


def main() -> int:
    args = arguments()
    if os.geteuid() != 0:
        print("the multi-host harness needs root (network namespaces)", file=sys.stderr)
        return 2
    if net.ours():  # another run's hosts: never torn down from here
        print(f"namespaces {net.ours()} exist: another run, or one not torn down (ip netns del)")
        return 2
    plan = Plan(clock_ahead=args.ahead)
    run_dir = Path(tempfile.mkdtemp(prefix="poker-hosts-"))
    run_dir.chmod(0o755)  # the db host's postgres user reads its folder inside
    procs = Processes(run_dir)
    code = 1
    try:
        net.build(plan)
        refused = net.add_latency(plan)
        print(
            f"latency: {net.NETEM_DELAY} each way on every host's link"
            if refused is None
            else f"latency: none (tc netem refused: {refused}); the hosts are a bridge apart",
            flush=True,
        )
        if args.ahead:
            print(f"clock: app1's wall clock {args.ahead:+g} s ahead (libfaketime)", flush=True)
        database_url = start_postgres(plan, procs)
        start_redis(plan, procs)
        env = app_env(plan, database_url, POKER_HAND_PAUSE_SECONDS=args.hand_pause)
        set_up_site(plan, env)
        pids = start_daphnes(plan, procs, env)
        cert = start_nginx(plan, procs, args.nginx_conf)
        print(
            "hosts: "
            + ", ".join(f"{h} {a}" for h, a in plan.hosts.items())
            + f"; redis {' '.join(plan.redis_urls)}; daphne {', '.join(pids)}",
            flush=True,
        )
        spec = {
            "lb": plan.public,
            "cert": str(cert),
            "database_url": database_url,
            "app_env": {k: env[k] for k in env if k not in os.environ or os.environ[k] != env[k]},
            "tables": args.tables,
            "seconds": args.seconds,
            "think": [float(x) for x in (args.think.split("-") * 2)[:2]],
            "warm_up": args.warm_up,
            "workers": args.workers,
            "kill_after": args.kill_after,
            "after_loss": args.after_loss,
            "partition_seconds": args.partition_seconds,
            "restart_seconds": args.restart_seconds,
            "run_dir": str(run_dir),
        }
        code = 0
        for scenario in args.scenarios.split(","):
            # A scenario before may have killed a host's processes: each starts with all four.
            for d in plan.daphnes:
                if procs.procs[d.name].poll() is not None:
                    pids[d.name] = restart_daphne(plan, procs, env, d)
            spec["daphnes"] = [
                {"name": d.name, "host": d.host, "address": d.address, "port": d.port}
                | {"pid": pids[d.name], "holder": procs.procs[d.name].pid}
                for d in plan.daphnes
            ]
            spec["scenarios"] = [scenario]
            command = [PYTHON, "-m", "deploy.hosts.scenarios", json.dumps(spec)]
            code |= subprocess.run(
                net.in_host(plan, "clients", *command),
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            ).returncode
    except Exception:
        for name in procs.procs:
            print(f"--- {name}\n{procs.tail(name)}", file=sys.stderr)
        raise
    finally:
        procs.stop_all()
        left = net.tear_down()
        if left:
            print(f"namespaces left behind: {left}", file=sys.stderr)
        if args.keep:
            print(f"logs kept in {run_dir}")
        else:
            shutil.rmtree(run_dir, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
