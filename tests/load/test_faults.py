"""Redis restarting mid-game: the sockets get updates again and play carries on."""

from __future__ import annotations

import asyncio

import pytest

from tests.load.checks import assert_action_logs_sequential, assert_chips_conserved
from tests.load.harness import Client, Server, Tracker, build_world, play, server_env, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.timeout(200)]


def test_redis_restart_mid_game_and_play_goes_on(fresh_db, redis_server):
    env = server_env(fresh_db.url, redis_server.url)
    world = build_world(
        env,
        {
            "tables": 1,
            "humans": 3,
            "buy_in": 200,
            "table": {
                "action_seconds": 5,
                "time_bank_seconds": 0,
                "bots_allowed": True,
                "bot_seats": 1,
            },
        },
    )
    a, b = Server(env, name="A"), Server(env, name="B")
    table = world["tables"][0]
    tracker = Tracker()
    clients = [
        Client(
            servers=[s.ws for s in (a, b)[i % 2 :] + (a, b)[: i % 2]],
            table_id=table["id"],
            player=player,
            tracker=tracker,
            seed=i,
        )
        for i, player in enumerate(table["players"])
    ]
    marks: dict = {}

    def finished() -> int:
        return fresh_db.value("SELECT count(*) FROM tables_hand WHERE status = 'finished'")

    async def restart_redis():
        await wait_for(
            lambda: finished() >= 2, timeout=60, what="2 hands before the restart", events=clients
        )
        redis_server.kill()
        await asyncio.to_thread(redis_server.start)
        marks["hands"] = finished()
        marks["versions"] = {c.name: len(c.versions) for c in clients}
        await asyncio.Event().wait()

    def recovered() -> bool:
        return (
            "hands" in marks
            and finished() >= marks["hands"] + 3
            and all(len(c.versions) > marks["versions"][c.name] + 3 for c in clients)
        )

    try:
        a.start()
        b.start()
        asyncio.run(
            play(
                clients,
                tracker,
                recovered,
                timeout=150,
                what="3 more hands, seen by every client, after Redis restarted",
                during=restart_redis(),
            )
        )
    finally:
        a.close()
        b.close()
    assert_action_logs_sequential(fresh_db)
    assert_chips_conserved(fresh_db)
    assert tracker.outstanding() == 0
