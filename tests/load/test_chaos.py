"""Chaos: SIGKILL a server at random moments across 50+ hands, restart it each time.

Two daphne processes share PostgreSQL and Redis; several tables of bots and bot-driven human
clients play fast hands. A monkey kills one process at a random moment (a random number of
frames into the play: during an action, a showdown or between hands) and restarts it; the
clients that were on it reconnect to the other process (or to the restarted one). Afterwards
every hand the monkey could have hurt is over — finished with its pots paid, or voided with
the starting stacks restored — every action log is gap-free, and bankrolls + stacks (+ chips in
hands still running) equal the grants.
"""

from __future__ import annotations

import asyncio
import json
import os
import random

import pytest

from tests.load.checks import (
    assert_action_logs_sequential,
    assert_chips_conserved,
    assert_finished_hands_paid_out,
    hands_by_status,
)
from tests.load.harness import Client, Server, Tracker, build_world, play, server_env, wait_for

TABLES = 5
HANDS = 50
KILLS = 8
BUY_IN = 200
# Each kill costs a restart (daphne and Django start again: 2-3 s on a quiet machine, over 10 s
# on a busy 2-core one) and the monkey keeps killing until the hands are played, so the play
# takes several times longer on a loaded machine: 50 hands took 25-100 s on a 2-core machine
# and about 140 s with four CPU hogs running alongside. The harness's own deadline (this,
# then 60 s for the last updates) runs out before pytest-timeout's: its error names what was
# awaited and the seed, where pytest-timeout would only dump every thread's stack.
PLAY_SECONDS = 420
#: The monkey's seed: fixed, so a run (and CI) can be repeated; ``CHAOS_SEED=<n>`` repeats
#: another run, ``CHAOS_SEED=random`` draws a new one. Printed either way.
DEFAULT_SEED = 20261123


def chaos_seed(value: str | None) -> int:
    """The seed ``CHAOS_SEED`` asks for (see ``DEFAULT_SEED``)."""
    if value is None or value == "":
        return DEFAULT_SEED
    if value == "random":
        return random.SystemRandom().randrange(10**6)
    if not (value.isascii() and value.isdigit()):
        raise ValueError(f"CHAOS_SEED must be a whole number or 'random', not {value!r}")
    return int(value)


pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.timeout(PLAY_SECONDS + 180)]


def test_sigkill_at_random_moments_loses_no_chip_and_no_hand(fresh_db, redis_server):
    seed = chaos_seed(os.environ.get("CHAOS_SEED"))
    print(f"chaos seed {seed} (repeat with CHAOS_SEED={seed})")
    rng = random.Random(seed)
    env = server_env(fresh_db.url, redis_server.url, POKER_HAND_PAUSE_SECONDS="0.1")
    world = build_world(
        env,
        {
            "tables": TABLES,
            "humans": 2,
            "buy_in": BUY_IN,
            "table": {
                "action_seconds": 3,
                "time_bank_seconds": 0,
                "bots_allowed": True,
                "bot_seats": 3,
            },
        },
    )
    servers = [Server(env, name="A"), Server(env, name="B")]
    kills: list[dict] = []
    try:
        for server in servers:
            server.start()
        tracker = Tracker()
        clients = []
        for t, table in enumerate(world["tables"]):
            for p, player in enumerate(table["players"]):
                first = servers[(t + p) % 2]
                order = [first.ws] + [s.ws for s in servers if s is not first]
                client = Client(
                    servers=order,
                    table_id=table["id"],
                    player=player,
                    tracker=tracker,
                    seed=seed + 10 * t + p,
                )
                # A busted player buys in again: a hand needs a person sitting in, so a table
                # whose people have all busted would stop dealing (and, once every table has
                # stopped, no frame would come at all).
                client.rebuy = BUY_IN
                clients.append(client)

        def frames() -> int:
            return sum(c.frames for c in clients)

        def finished() -> int:
            return fresh_db.value("SELECT count(*) FROM tables_hand WHERE status <> 'running'")

        async def monkey():
            while len(kills) < KILLS or finished() < HANDS:
                target = frames() + rng.randint(5, 60)
                await wait_for(
                    lambda target=target: frames() >= target,
                    timeout=90,
                    what=f"frames before the next kill (seed {seed}, kills {len(kills)}, "
                    f"hands over {finished()})",
                    events=clients,
                )
                victim = servers[len(kills) % 2]
                running = fresh_db.sql(
                    "SELECT id, (SELECT count(*) FROM tables_handaction a WHERE a.hand_id = h.id)"
                    " FROM tables_hand h WHERE status = 'running'"
                )
                victim.kill()
                kills.append({"server": victim.name, "running": running})
                await asyncio.to_thread(victim.start)

        state: dict = {}

        def over() -> bool:
            if "monkey" not in state:
                return False
            # Every hand that was running when the monkey stopped has ended.
            return (
                fresh_db.value(
                    "SELECT count(*) FROM tables_hand WHERE status = 'running' AND id <= %s",
                    [state["last_hand"]],
                )
                == 0
            )

        async def run_monkey():
            await monkey()
            state["last_hand"] = fresh_db.value("SELECT coalesce(max(id), 0) FROM tables_hand")
            state["monkey"] = True
            await asyncio.Event().wait()  # keep running until play() cancels us

        asyncio.run(
            play(
                clients,
                tracker,
                over,
                timeout=PLAY_SECONDS,
                what=f"{HANDS} hands over {KILLS} kills (seed {seed})",
                during=run_monkey(),
            )
        )
        for server in servers:
            assert server.proc.poll() is None, server.tail()
    finally:
        for server in servers:
            server.close()

    assert len(kills) >= KILLS, kills
    statuses = hands_by_status(fresh_db)
    assert statuses.get("finished", 0) + statuses.get("voided", 0) >= HANDS, statuses
    assert_action_logs_sequential(fresh_db)
    assert_finished_hands_paid_out(fresh_db)
    assert_chips_conserved(fresh_db)
    # Voided hands gave every player back exactly the stack they started with: the ledger
    # (cash-outs included) and the seats still add up, so check each voided hand's record.
    for hand_id, result in fresh_db.sql(
        "SELECT id, result FROM tables_hand WHERE status = 'voided'"
    ):
        result = json.loads(result) if isinstance(result, str) else result
        assert result.get("voided"), (hand_id, result)
    # Some kills happened while a hand was being played, with actions already taken.
    assert any(k["running"] for k in kills), kills
    # Clients lived through the kills by reconnecting.
    assert sum(c.connects for c in clients) > len(clients), [c.connects for c in clients]


def test_the_seed_is_fixed_unless_asked_for():
    assert chaos_seed(None) == chaos_seed("") == DEFAULT_SEED
    assert chaos_seed("42") == 42
    assert 0 <= chaos_seed("random") < 10**6
    with pytest.raises(ValueError, match="CHAOS_SEED"):
        chaos_seed("²")
