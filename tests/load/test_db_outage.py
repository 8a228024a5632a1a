"""A database that briefly refuses connections (issue 7): clear answers, nothing half-applied.

The daphne process reaches PostgreSQL through ``DbProxy``, a small TCP proxy run by the test
(``tests.load.processes``). During a hand the proxy goes away in two ways:

1. at the worst moment: it lets a player's action through up to its ``COMMIT``, drops the
   ``COMMIT``, cuts every connection and stops listening;
2. while it is down, the next attempt finds nothing listening (connection refused).

Each time the player is answered "The database is not reachable just now: nothing was done,
try again." and the database (read directly, not through the proxy) shows no new action, the
same table version and every chip accounted for; the croupier logs its failed ticks; the
server process stays up. Down for longer than an owner's lease, the server lets its players
go (4011, so that they reconnect: to another process where there is one, issue 55) and
refuses new sockets (HTTP 403). When the proxy listens again, the players reconnect, the same
action applies and every socket at the table gets the update. Run with ``CONN_MAX_AGE`` 0 (a
connection per request) and 60 (persistent connections, which the outage leaves broken and
must not be reused).
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tables.live.protocol import SERVER_TROUBLE
from tests.load.checks import assert_action_logs_sequential, assert_chips_conserved
from tests.load.harness import (
    DbProxy,
    Server,
    Socket,
    build_world,
    opened_when_taken,
    server_env,
    wait_for,
)

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.timeout(240)]

DATABASE_DOWN = "The database is not reachable just now: nothing was done, try again."


def snapshot(db, table_id: int) -> dict:
    return {
        "actions": db.value("SELECT count(*) FROM tables_handaction"),
        "version": db.value("SELECT version FROM tables_table WHERE id = %s", [table_id]),
        "chips": assert_chips_conserved(db),
    }


async def wait_for_log(server: Server, needle: str, sockets, timeout: float = 30) -> None:
    """Until the server's log has ``needle`` (re-read on each frame, at least every 0.2 s)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while needle not in server.log_path.read_text(errors="replace"):
        if loop.time() > deadline:
            raise TimeoutError(f"no {needle!r} in the server's log within {timeout}s")
        await asyncio.wait([asyncio.ensure_future(s.changed.wait()) for s in sockets], timeout=0.2)


@pytest.mark.parametrize("conn_max_age", [0, 60])
def test_database_outage_refuses_cleanly_and_play_resumes(fresh_db, redis_server, conn_max_age):
    parts = urlsplit(fresh_db.url)
    proxy = DbProxy(parts.hostname, parts.port or 5432)
    proxied = proxy.url_for(fresh_db.url)
    env = server_env(proxied, redis_server.url, CONN_MAX_AGE=conn_max_age)
    world = build_world(
        server_env(fresh_db.url, None),
        {
            "tables": 1,
            "humans": 3,
            "buy_in": 200,
            # No bots and a long clock: only the players change the hand during the test.
            "table": {"action_seconds": 300, "time_bank_seconds": 0},
        },
    )
    table = world["tables"][0]
    server = Server(env, name="A")

    async def scenario() -> None:
        sockets = [Socket(server, table["id"], p) for p in table["players"]]
        for s in sockets:
            await s.open()
        try:
            await run(sockets)
        finally:
            for s in sockets:
                await s.close()

    async def run(sockets: list[Socket]) -> None:
        def actor() -> Socket | None:
            top = max(s.version for s in sockets)
            movers = [s for s in sockets if s.version == top and s.to_act]
            return movers[0] if movers else None

        async def everyone_at_least(version: int) -> None:
            await wait_for(
                lambda: all(s.version >= version for s in sockets) and actor(),
                timeout=30,
                what=f"every socket at version {version}",
                events=sockets,
            )

        # A hand is dealt and one action goes through normally (the connections are warm).
        await wait_for(
            lambda: actor() is not None, timeout=30, what="a hand and an actor", events=sockets
        )
        first = actor()
        acted_at = first.state["version"]  # read now: the update may come right after the answer
        answer = await first.act(first.state)
        assert answer["error"] is False, answer
        await everyone_at_least(acted_at + 1)
        mover = actor()
        state = mover.state
        before = snapshot(fresh_db, table["id"])
        assert before["version"] == state["version"]

        # 1. The database goes away at the action's COMMIT.
        proxy.cut_at_commit()
        answer = await mover.act(state)
        assert proxy.commits_cut == 1, "the action never reached its COMMIT through the proxy"
        assert answer == {
            "type": "answer",
            "message": DATABASE_DOWN,
            "error": True,
            "code": "database_unavailable",
        }
        assert proxy.refuses()
        assert snapshot(fresh_db, table["id"]) == before

        # 2. While it is down: refused again, the clock timers log the failed read, server up.
        answer = await mover.act(state)
        assert answer == {
            "type": "answer",
            "message": DATABASE_DOWN,
            "error": True,
            "code": "database_unavailable",
        }
        await wait_for_log(server, "clock timers: database unreachable", sockets)
        assert server.proc.poll() is None, server.tail()
        assert snapshot(fresh_db, table["id"]) == before
        assert all(s.version == state["version"] for s in sockets)

        # Still down past an owner's lease: the process lets its players go (4011: their
        # clients reconnect, to another process where there is one, issue 55) and refuses
        # new sockets at the handshake meanwhile.
        await wait_for(
            lambda: all(s.reader.done() for s in sockets),
            timeout=30,
            what="the server to close its sockets, cut from the database",
            events=sockets,
        )
        assert [s.ws.close_code for s in sockets] == [SERVER_TROUBLE] * len(sockets)
        for s in sockets:  # its reader ended with the close: seen
            assert isinstance(s.reader.exception(), ConnectionClosed)
        with pytest.raises(InvalidStatus) as refused:
            await Socket(server, table["id"], mover.player).open()
        assert refused.value.response.status_code == 403
        assert snapshot(fresh_db, table["id"]) == before

        # 3. Back: the players reconnect (the server takes sockets again at its next look at
        # the database); the same action applies once and every socket gets the update.
        proxy.up()
        players = [s.player for s in sockets]
        sockets[:] = [await opened_when_taken(server, table["id"], p, []) for p in players]
        mover = sockets[players.index(mover.player)]
        answer = await mover.act(state)
        assert answer["error"] is False, answer
        await wait_for(
            lambda: all(s.version > state["version"] for s in sockets),
            timeout=30,
            what="every socket to get the action made after the outage",
            events=sockets,
        )
        after = snapshot(fresh_db, table["id"])
        assert after["actions"] == before["actions"] + 1
        assert after["version"] > before["version"]
        assert after["chips"]["granted"] == before["chips"]["granted"]
        # 4. A blip nobody noticed: every connection cut, the proxy straight back. The next
        # action must apply: a persistent connection the blip broke is not used again.
        await everyone_at_least(after["version"])
        nxt = actor()
        proxy.down()
        proxy.up()
        answer = await nxt.act(nxt.state)
        assert answer["error"] is False, answer
        assert fresh_db.value("SELECT count(*) FROM tables_handaction") == before["actions"] + 2

    try:
        proxy.start()
        server.start()
        asyncio.run(scenario())
        assert server.proc.poll() is None, server.tail()
    finally:
        server.close()
        proxy.close()
    assert_action_logs_sequential(fresh_db)
    assert_chips_conserved(fresh_db)
