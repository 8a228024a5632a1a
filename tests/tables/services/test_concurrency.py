"""Two writers at once on PostgreSQL: the table row lock lets exactly one apply.

Also a real restart: a hand in progress is finished by a fresh Python process that knows
nothing but the database.
"""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection

from tables.models import Hand, HandAction, Seat, Table
from tables.services import SeatTaken, StaleAction, hand_act, hand_start, seat_take

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]


def race(*calls):
    """Run the calls in threads released together; return each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, call):
        from django.db import connection as thread_connection

        try:
            barrier.wait(timeout=30)
            outcomes[i] = call()
        except Exception as error:  # noqa: BLE001 - the outcome is what we check
            outcomes[i] = error
        finally:
            thread_connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive(), "a writer never finished (deadlock?)"
    return outcomes


def test_the_same_action_sent_twice_at_once_applies_once(players, table, play):
    for p in players:
        seat_take(table=table, player=p, buy_in=100)
    hand = hand_start(table=table)
    who = play.actor(hand)
    version = Table.objects.get(pk=table.pk).version

    def send():
        return hand_act(table=table, player=who, hand_id=hand.pk, version=version, action="call")

    outcomes = race(send, send)
    applied = [o for o in outcomes if isinstance(o, Hand)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(applied) == 1 and len(refused) == 1, outcomes
    assert isinstance(refused[0], StaleAction), repr(refused[0])
    assert HandAction.objects.filter(hand=hand).count() == 1
    assert Table.objects.get(pk=table.pk).version == version + 1


def test_two_actions_on_the_same_version_apply_once(players, table, play):
    """The actor's call and a different action racing on one version: one wins, cleanly."""
    for p in players:
        seat_take(table=table, player=p, buy_in=100)
    hand = hand_start(table=table)
    who = play.actor(hand)
    version = Table.objects.get(pk=table.pk).version

    def send(action):
        return lambda: hand_act(
            table=table, player=who, hand_id=hand.pk, version=version, action=action
        )

    outcomes = race(send("fold"), send("raise 10"))
    assert sum(isinstance(o, Hand) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, StaleAction) for o in outcomes) == 1, outcomes
    assert HandAction.objects.filter(hand=hand).count() == 1


def test_two_players_racing_for_one_seat(players, table, assert_chips_conserved):
    alice, bob = players[:2]
    outcomes = race(
        lambda: seat_take(table=table, player=alice, buy_in=100, seat_number=4),
        lambda: seat_take(table=table, player=bob, buy_in=100, seat_number=4),
    )
    assert sum(isinstance(o, Seat) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, SeatTaken) for o in outcomes) == 1, outcomes
    assert Seat.objects.count() == 1
    assert_chips_conserved()


RESUME = """
import json, django
django.setup()
from tables.models import Table
from tests.tables import helpers
table = Table.objects.get(pk={table_id})
hand = helpers.play_out(table)
print(json.dumps({{"status": hand.status, "actions": hand.actions.count()}}))
"""


def test_a_fresh_process_finishes_a_hand_from_the_database(
    players, table, play, assert_chips_conserved
):
    for p in players:
        seat_take(table=table, player=p, buy_in=100)
    hand = hand_start(table=table)
    play.act(table, "raise 6")
    play.act(table, "call")
    settings_dict = connection.settings_dict
    url = (
        f"postgres://{settings_dict['USER']}:{settings_dict['PASSWORD'] or ''}@"
        f"{settings_dict['HOST'] or '127.0.0.1'}:{settings_dict['PORT'] or 5432}/"
        f"{settings_dict['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "pokersite.settings"}
    done = subprocess.run(
        [sys.executable, "-c", RESUME.format(table_id=table.pk)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcome["status"] == "finished" and outcome["actions"] > 2
    hand.refresh_from_db()
    assert hand.status == "finished"
    assert_chips_conserved()


def test_the_croupier_skips_a_table_another_transaction_holds(players, table):
    """A clock tick that finds the table row locked (a player's action, another process's
    croupier) leaves it for the next pass instead of waiting; once free, the tick does it."""
    from django.db import transaction
    from django.utils import timezone

    from tables.services.clock import clock_tick
    from tables.services.events import table_lock

    for p in players[:2]:
        seat_take(table=table, player=p, buy_in=100)
    held, release = threading.Event(), threading.Event()

    def hold_the_row():
        from django.db import connection as thread_connection

        try:
            with transaction.atomic():
                table_lock(table.pk)
                held.set()
                release.wait(timeout=30)
        finally:
            thread_connection.close()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    try:
        assert held.wait(timeout=30)
        now = timezone.now()
        assert clock_tick(table=table, now=now, skip_busy=True) is None  # at once, not waiting
        assert not Hand.objects.filter(table=table).exists()
    finally:
        release.set()
        holder.join(timeout=30)
    assert clock_tick(table=table, now=now, skip_busy=True) == "started"
    assert Hand.objects.filter(table=table).count() == 1
