"""A multi-table tournament on PostgreSQL + Redis, played by real daphne servers' croupiers.

- Two server processes (two croupiers) run one tournament: no player is ever seated twice or
  lost (in every snapshot, the seats at its tables are exactly the players still in), no
  prize is paid twice (one ledger row per prize), and the tournament's chips equal the
  starting stacks it gave out in every snapshot (taken while they play: one REPEATABLE READ
  transaction each).
- A server SIGKILLed at random moments mid-tournament and restarted loses nothing: levels,
  moves, eliminations and payouts carry on from the database to the winner.

Both end with the site-wide checks: bankrolls + cash stacks + unpaid prize pools == grants,
every action log gap-free, every finished hand paid out, each place given once.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
from collections import Counter

import pytest

from tests.conftest import missing_service
from tests.load.checks import (
    assert_action_logs_sequential,
    assert_chips_conserved,
    assert_finished_hands_paid_out,
)
from tests.load.harness import PYTHON, ROOT, FreshDatabase, RedisServer, Server, server_env

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.timeout(900)]

#: Seconds the tournament may take to reach its winner (a loaded 2-core machine is slow).
PLAY_SECONDS = 480


@pytest.fixture
def fresh_db():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        missing_service("the reliability tests need PostgreSQL: set DATABASE_URL=postgres://...")
    with FreshDatabase(url) as db:
        yield db


@pytest.fixture
def redis_server():
    if shutil.which("redis-server") is None:
        missing_service("the reliability tests need the redis-server binary")
    with RedisServer() as redis:
        yield redis


def make_tournament(env: dict, spec: dict) -> int:
    out = subprocess.run(
        [PYTHON, "-m", "tests.tables.tournaments.pg_world", json.dumps(spec)],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        timeout=600,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])["tournament"]


def snapshot(db, tournament_id: int) -> dict:
    """The tournament as one consistent snapshot: status, seats, chips, players still in."""
    import psycopg

    with psycopg.connect(db.url, autocommit=True) as conn:
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        status, stack = conn.execute(
            "SELECT status, starting_stack FROM tournaments_tournament WHERE id = %s",
            [tournament_id],
        ).fetchone()
        seats = conn.execute(
            "SELECT s.table_id, s.player_id, s.stack FROM tables_seat s "
            "JOIN tournaments_tournamenttable t ON t.table_id = s.table_id "
            "WHERE t.tournament_id = %s",
            [tournament_id],
        ).fetchall()
        hands = conn.execute(
            "SELECT h.table_id, h.seats FROM tables_hand h "
            "JOIN tournaments_tournamenttable t ON t.table_id = h.table_id "
            "WHERE t.tournament_id = %s AND h.status = 'running'",
            [tournament_id],
        ).fetchall()
        given, alive = conn.execute(
            "SELECT coalesce(sum(1 + rebuys + reentries), 0), "
            "count(*) FILTER (WHERE out_batch IS NULL) "
            "FROM tournaments_entry WHERE tournament_id = %s",
            [tournament_id],
        ).fetchone()
        finished = conn.execute(
            "SELECT count(*) FROM tables_hand h JOIN tournaments_tournamenttable t "
            "ON t.table_id = h.table_id WHERE t.tournament_id = %s AND h.status <> 'running'",
            [tournament_id],
        ).fetchone()[0]
        conn.execute("COMMIT")
    behind = {(t, p): s for t, p, s in seats}
    in_hands = 0
    for table_id, hand_seats in hands:
        hand_seats = json.loads(hand_seats) if isinstance(hand_seats, str) else hand_seats
        in_hands += sum(s["stack"] for s in hand_seats)
        in_hands -= sum(behind.get((table_id, s["player_id"]), 0) for s in hand_seats)
    return {
        "status": status,
        "chips": sum(behind.values()) + in_hands,
        "issued": stack * given,
        "seated": [p for _, p, _ in seats],
        "alive": alive,
        "hands_over": finished,
    }


def check_snapshot(shot: dict) -> None:
    if shot["status"] != "running":
        return
    assert shot["chips"] == shot["issued"], shot
    players = Counter(shot["seated"])
    assert not [p for p, n in players.items() if n > 1], ("seated twice", shot)
    assert len(shot["seated"]) == shot["alive"], ("seats != players still in", shot)


def check_finished(db, tournament_id: int) -> None:
    status, pool = db.sql(
        "SELECT status, prize_pool FROM tournaments_tournament WHERE id = %s", [tournament_id]
    )[0]
    assert status == "finished"
    entries = db.sql(
        "SELECT player_id, place, prize FROM tournaments_entry WHERE tournament_id = %s",
        [tournament_id],
    )
    covered = []
    for place, tied in Counter(place for _, place, _ in entries).items():
        assert place is not None
        covered += range(place, place + tied)
    assert sorted(covered) == list(range(1, len(entries) + 1))
    assert sum(prize for _, _, prize in entries) == pool > 0
    # Each prize is one ledger row, paid once.
    rows = db.sql("SELECT player_id, amount FROM tables_ledgerentry WHERE kind = 'tourney_prize'")
    paid = Counter(player for player, _ in rows)
    assert all(count == 1 for count in paid.values()), paid
    assert sorted(rows) == sorted((p, prize) for p, _, prize in entries if prize)
    assert db.value("SELECT count(*) FROM tables_hand WHERE status = 'running'") == 0
    assert_action_logs_sequential(db)
    assert assert_finished_hands_paid_out(db) > 0
    assert_chips_conserved(db)


#: The rows a snapshot reads; a change to any of them is told to the watcher (``CHANGED``).
WATCHED_TABLES = ("tables_seat", "tables_hand", "tournaments_entry", "tournaments_tournament")
CHANGED = "reliability_changed"


def announce_changes(db) -> None:
    """Have PostgreSQL notify ``CHANGED`` at each commit that writes a row a snapshot reads,
    so the watcher takes its next snapshot after a change instead of after a pause."""
    import psycopg

    with psycopg.connect(db.url, autocommit=True) as conn:
        conn.execute(
            "CREATE FUNCTION reliability_changed() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN PERFORM pg_notify('{CHANGED}', ''); RETURN NULL; END $$"
        )
        for table in WATCHED_TABLES:
            conn.execute(
                f"CREATE TRIGGER reliability_changed AFTER INSERT OR UPDATE OR DELETE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION reliability_changed()"
            )


def watch(db, tournament_id: int, *, on_progress=None) -> int:
    """Check a snapshot after each change until the tournament is finished (bounded by
    ``PLAY_SECONDS``); ``on_progress(hands_over)`` after each. Returns the snapshots checked."""
    import psycopg

    deadline = time.monotonic() + PLAY_SECONDS
    checked = 0
    with psycopg.connect(db.url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANGED}")
        while time.monotonic() < deadline:
            shot = snapshot(db, tournament_id)
            check_snapshot(shot)
            checked += 1
            if shot["status"] == "finished":
                return checked
            if on_progress is not None:
                on_progress(shot["hands_over"])
            # the next change (a restarted server's first ones included); several committed
            # meanwhile make one snapshot, and a quiet second looks again all the same
            for _ in listener.notifies(timeout=1.0, stop_after=1):
                pass
            for _ in listener.notifies(timeout=0):
                pass
    raise TimeoutError(f"the tournament did not finish within {PLAY_SECONDS}s: {shot}")


def test_two_croupiers_run_one_tournament_no_player_moved_twice_no_prize_paid_twice(
    fresh_db, redis_server
):
    env = server_env(fresh_db.url, redis_server.url, POKER_HAND_PAUSE_SECONDS="0.05")
    tournament_id = make_tournament(env, {"entrants": 18, "seats": 6, "seed": 2})
    announce_changes(fresh_db)
    servers = [Server(env, name="A"), Server(env, name="B")]
    try:
        for server in servers:
            server.start()  # its first request starts its croupier
        checked = watch(fresh_db, tournament_id)
        for server in servers:
            assert server.proc.poll() is None, server.tail()
    finally:
        for server in servers:
            server.close()
    assert checked >= 10
    check_finished(fresh_db, tournament_id)
    # The tournament went through balancing and breaking: three tables down to one.
    assert (
        fresh_db.value(
            "SELECT count(*) FROM tournaments_tournamenttable WHERE tournament_id = %s",
            [tournament_id],
        )
        == 3
    )


def test_a_server_killed_mid_tournament_loses_nothing_and_the_tournament_resumes(
    fresh_db, redis_server
):
    env = server_env(fresh_db.url, redis_server.url, POKER_HAND_PAUSE_SECONDS="0.05")
    tournament_id = make_tournament(env, {"entrants": 12, "seats": 6, "seed": 3})
    announce_changes(fresh_db)
    rng = random.Random(20261124)
    server = Server(env, name="A")
    kills: list[int] = []
    next_kill = {"at": rng.randint(2, 8)}

    def monkey(hands_over: int) -> None:
        if len(kills) < 4 and hands_over >= next_kill["at"]:
            server.kill()  # SIGKILL: mid-hand, mid-balancing or between hands
            kills.append(hands_over)
            server.start()
            next_kill["at"] = hands_over + rng.randint(2, 8)

    try:
        server.start()
        watch(fresh_db, tournament_id, on_progress=monkey)
        assert server.proc.poll() is None, server.tail()
    finally:
        server.close()
    assert len(kills) >= 2, kills
    check_finished(fresh_db, tournament_id)
