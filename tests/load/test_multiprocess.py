"""Two daphne processes on two ports sharing PostgreSQL and Redis: one table, played across both.

Players connect to different processes; a bot and the action clock are run by the croupier of
*both* processes at once. Whatever process notices first, each decision is made exactly once:
the hand's action log has no gap and no repeat, every player action the server accepted is in
it once, the clock acts only for the player who let it run out and only after the deadline,
and every action made through one process reaches the sockets on the other.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from tests.load.checks import (
    assert_action_logs_sequential,
    assert_chips_conserved,
    assert_finished_hands_paid_out,
)
from tests.load.harness import Client, Server, Tracker, build_world, play, server_env

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.timeout(240)]

# Long enough that a client acting at once is never timed out on a loaded CI machine (the
# PostgreSQL pass runs the no-leak test's 200 hands beside it): the test checks that the clock
# acts only for the idle player.
ACTION_SECONDS = 6


def test_two_processes_play_one_table_and_act_exactly_once(fresh_db, redis_server):
    env = server_env(fresh_db.url, redis_server.url)
    world = build_world(
        env,
        {
            "tables": 1,
            "humans": 4,
            "buy_in": 200,
            "table": {
                "action_seconds": ACTION_SECONDS,
                "time_bank_seconds": 0,
                "bots_allowed": True,
                "bot_seats": 1,
            },
        },
    )
    a, b = Server(env, name="A"), Server(env, name="B")
    try:
        a.start()
        b.start()
        table = world["tables"][0]
        tracker = Tracker()
        humans = table["players"]
        clients = [
            Client(
                servers=[a.ws, b.ws],
                table_id=table["id"],
                player=humans[0],
                tracker=tracker,
                seed=1,
            ),
            Client(
                servers=[a.ws, b.ws],
                table_id=table["id"],
                player=humans[1],
                tracker=tracker,
                seed=2,
            ),
            Client(
                servers=[b.ws, a.ws],
                table_id=table["id"],
                player=humans[2],
                tracker=tracker,
                seed=3,
            ),
            # Never acts: the clock acts for them each hand (they sit back in each time).
            Client(
                servers=[b.ws, a.ws],
                table_id=table["id"],
                player=humans[3],
                tracker=tracker,
                idle=True,
            ),
        ]

        def enough() -> bool:
            finished = fresh_db.value("SELECT count(*) FROM tables_hand WHERE status = 'finished'")
            timeouts = fresh_db.value(
                "SELECT count(*) FROM tables_handaction WHERE source = 'timeout'"
            )
            return finished >= 4 and timeouts >= 2

        asyncio.run(
            play(
                clients, tracker, enough, timeout=150, what="4 finished hands with 2 clock timeouts"
            )
        )
        assert a.proc.poll() is None and b.proc.poll() is None, (a.tail(), b.tail())
    finally:
        a.close()
        b.close()

    logs = assert_action_logs_sequential(fresh_db)
    assert assert_finished_hands_paid_out(fresh_db) >= 4
    assert_chips_conserved(fresh_db)

    # Each client stayed on the process it chose (no reconnects) and saw versions only grow.
    for client in clients:
        assert client.connects == 1, client.name
        for run in client.version_runs:
            assert run == sorted(set(run)), (client.name, run)

    # Every action the server accepted reached every socket, on both processes.
    accepted = [s for c in clients for s in c.sent if s["accepted"]]
    assert len(accepted) >= 4
    assert tracker.outstanding() == 0
    for sent in accepted:  # each client then saw a version after the one acted on
        assert all(c.versions and c.versions[-1] > sent["version"] for c in clients), sent

    # Player actions: each accepted one is in the log exactly once (and nothing else is).
    seats = {p["id"]: p for p in humans}
    player_rows = [a for actions in logs.values() for a in actions if a[4] == "player"]
    assert len(player_rows) == len(accepted)

    # The clock acted only for the idle player, once per turn, and never before the deadline.
    idle_id = humans[3]["id"]
    hands = {
        hid: (seats_json, started)
        for hid, seats_json, started in fresh_db.sql(
            "SELECT id, seats, started_at FROM tables_hand"
        )
    }
    timeouts = 0
    for hand_id, actions in logs.items():
        hand_seats, started = hands[hand_id]
        previous_at = started
        for index, seat, _kind, _amount, source, created_at in actions:
            player_id = hand_seats[seat]["player_id"]
            if source == "timeout":
                timeouts += 1
                assert player_id == idle_id, (hand_id, index)
                assert created_at - previous_at >= timedelta(seconds=ACTION_SECONDS - 0.5), (
                    hand_id,
                    index,
                    created_at - previous_at,
                )
            elif source == "bot":
                assert player_id not in seats, (hand_id, index)
            else:
                assert player_id in seats and player_id != idle_id, (hand_id, index)
            previous_at = created_at
    assert timeouts >= 2
