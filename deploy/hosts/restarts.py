"""The harness's rolling-restart scenario (issue 55): while the tables play, every daphne is
restarted one at a time, as a deploy restarts them (``systemctl restart poker@PORT`` on each
host in turn: the holder, ``deploy.hosts.holder``, sends SIGTERM, which drains the process,
and starts the same command again on the same listening socket once it has exited; the next
only once this one answers ``/readyz``). The floors: no hand lost (every hand cut by a
restart went on, none voided), at most one reconnect per player.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

from deploy.hosts.plan import Daphne
from deploy.hosts.reads import running_hands
from deploy.hosts.services import daphne_pid

#: The longest a process may take to drain and exit: POKER_DRAIN_SECONDS (60) and its exit.
EXIT_SECONDS = 90
#: The longest a started process may take to answer ``/readyz`` on this loaded machine.
READY_SECONDS = 120


def exited(pid: int) -> bool:
    """Whether ``pid`` has ended (gone, or a zombie its parent has not reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


def ready(spec: dict[str, Any], daphne: dict[str, Any]) -> bool:
    """Whether the process at the daphne's address answers ``/readyz`` with 200."""
    request = urllib.request.Request(
        f"http://{daphne['address']}:{daphne['port']}/readyz", headers={"Host": spec["lb"]}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status) == 200
    except OSError:
        return False


def rolling_restart(spec: dict[str, Any], db: Any, table_ids: list[int]) -> Any:
    """The ``during`` of the scenario at the tables ``table_ids``: after ``kill_after``
    seconds, each daphne in turn is restarted by its holder (SIGHUP: ``systemctl
    restart``), its exit waited for, then its successor's readiness."""

    async def run() -> dict[str, Any]:
        await asyncio.sleep(spec["kill_after"])
        cut: dict[int, tuple[int, int]] = {}  # hand: (table, actions) at the SIGTERM
        steps = []
        run_dir = Path(spec["run_dir"])
        for d in spec["daphnes"]:
            for table, (hand, actions) in running_hands(db, table_ids).items():
                cut.setdefault(hand, (table, actions))
            began = time.monotonic()
            old = d["pid"]
            os.kill(d["holder"], signal.SIGHUP)
            while not exited(old) and time.monotonic() - began < EXIT_SECONDS:
                await asyncio.sleep(0.2)  # polling, as systemd waits for its stop
            drained = time.monotonic() - began
            daphne = Daphne(d["host"], d["address"], d["port"])
            d["pid"] = await asyncio.to_thread(daphne_pid, run_dir, daphne, old)
            while not await asyncio.to_thread(ready, spec, d):
                if time.monotonic() - began > EXIT_SECONDS + READY_SECONDS:
                    raise TimeoutError(f"{daphne.name} was not ready again")
                await asyncio.sleep(0.5)  # the deploy script's wait for /readyz
            steps.append(
                {"name": daphne.name, "drained": drained, "back": time.monotonic() - began}
            )
        return {"cut": cut, "steps": steps, "table_ids": table_ids}

    return run


def report_rolling_restart(label: str, db: Any, figures: dict[str, Any]) -> list[str]:
    """The figures printed; what failed (empty: every floor held)."""
    from tests.load.checks import (
        assert_action_logs_sequential,
        assert_chips_conserved,
        assert_finished_hands_paid_out,
    )

    side = figures["side"]
    steps = ", ".join(
        f"{s['name']} drained in {s['drained']:.1f} s, ready after {s['back']:.1f} s"
        for s in side["steps"]
    )
    print(f"[{label}] restarted one at a time: {steps}", flush=True)
    failures = []
    with db.snapshot():
        totals = assert_chips_conserved(db)
        logs = assert_action_logs_sequential(db)
        paid = assert_finished_hands_paid_out(db)
        lost = 0
        for hand, (_table, actions) in side["cut"].items():
            count, status = db.sql(
                "SELECT (SELECT count(*) FROM tables_handaction WHERE hand_id = h.id), h.status "
                "FROM tables_hand h WHERE h.id = %s",
                [hand],
            )[0]
            lost += status == "voided" or (status == "running" and count <= actions)
        voided = db.value(
            "SELECT count(*) FROM tables_hand WHERE status = 'voided' AND table_id = ANY(%s)",
            [side["table_ids"]],
        )
        finished = db.value(
            "SELECT count(*) FROM tables_hand WHERE status = 'finished' AND table_id = ANY(%s)",
            [side["table_ids"]],
        )
    most = figures["most_reconnects"]
    print(
        f"[{label}] hands running at a restart: {len(side['cut'])}, lost (voided, or no move "
        f"since): {lost}; hands finished at these tables {finished}, voided {voided}; "
        f"reconnects {figures['reconnects']}, players who reconnected "
        f"{figures['players_reconnected']}, most by one player {most} "
        f"({figures['players_reconnected_twice']} players more than once); {paid} paid out; "
        f"{len(logs)} action logs sequential; chips conserved (granted {totals['granted']})",
        flush=True,
    )
    if lost or voided:
        failures.append(f"hands lost in the rolling restart: {lost}, voided {voided}")
    if most > 1:
        failures.append(
            f"players reconnected more than once: {figures['players_reconnected_twice']} "
            f"(most {most})"
        )
    return failures
