"""``tables.db.statements.Batch``: the writes of a change sent together (PostgreSQL: one trip) write
exactly what they wrote one by one (this file runs in both passes)."""

from datetime import timedelta
from functools import partial

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.db import statements
from tables.db.rows import insert
from tables.db.statements import Batch
from tables.models import Hand, HandAction, HandSecret, Seat, Table
from tables.selectors.hands import hand_decisions, hand_state
from tables.services import hand_act, hand_start, seat_take
from tables.services.clock import clock_tick
from tables.services.events import lease_fenced
from tables.services.leases import lease_take
from tables.services.live_hand import LiveHand

pytestmark = pytest.mark.django_db

JOINS = connection.vendor == "postgresql"


def seated(make_player, make_table, prefix: str, count: int = 3) -> Table:
    table = make_table(action_seconds=20, time_bank_seconds=0)
    for number in range(count):
        player = make_player(f"{prefix}{number}")
        seat_take(table=table, player=player, buy_in=100, seat_number=number)
    return table


def test_queued_writes_reach_the_database_in_one_trip_in_their_order(make_player, make_table):
    table = seated(make_player, make_table, "p", 2)
    seat = Seat.objects.filter(table=table).order_by("number").first()
    writes = Batch()
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        writes.add(statements.update_write(Seat, {"pk": seat.pk}, stack=5))
        writes.add(None)  # nothing to write
        writes.add(statements.update_write(Seat, {"pk": seat.pk}, stack=7))  # after the first
        queued = len(captured.captured_queries)
        assert Seat.objects.get(pk=seat.pk).stack == (100 if JOINS else 7)  # not sent yet
        writes.send()
        writes.send()  # nothing left: no trip
    assert writes.pending == 0
    assert Seat.objects.get(pk=seat.pk).stack == 7
    sent = [query["sql"] for query in captured.captured_queries if "UPDATE" in query["sql"]]
    if JOINS:
        assert queued == 0 and len(sent) == 1 and sent[0].count("UPDATE") == 2
    else:  # each sent when added
        assert queued == 2 and len(sent) == 2


def test_a_batched_write_that_fails_fails_the_send_and_the_rest_roll_back(make_player, make_table):
    table = seated(make_player, make_table, "p", 2)
    hand = hand_start(table=table)
    version = Table.objects.get(pk=table.pk).version
    taken = HandAction(hand=hand, index=0, seat=0, kind="call", source="player")
    insert(taken)
    writes = Batch()
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.add(statements.update_write(Table, {"pk": table.pk}, version=version + 5))
        twice = HandAction(hand=hand, index=0, seat=1, kind="fold", source="player")
        writes.add(statements.insert_write(twice))  # the same index: refused
        writes.send()
    assert Table.objects.get(pk=table.pk).version == version
    assert list(HandAction.objects.filter(hand=hand).values_list("seat", "kind")) == [(0, "call")]


def rows(table: Table) -> dict[str, list]:
    """What the play wrote at ``table``, bar its keys and the times it was written."""
    hands = Hand.objects.filter(table=table).order_by("number")
    return {
        "table": list(
            Table.objects.filter(pk=table.pk).values_list(
                "version", "hand_version", "button_seat", "pre_actions", "status"
            )
        ),
        "deadlines": [
            (t.action_deadline is None, t.next_hand_at is None)
            for t in Table.objects.filter(pk=table.pk)
        ],
        "seats": list(
            Seat.objects.filter(table=table)
            .order_by("number")
            .values_list("number", "stack", "sitting_out", "owes_blinds", "wait_for_big_blind")
        ),
        "hands": [
            (*row, [(seat["seat"], seat["stack"]) for seat in seats])  # not the names
            for *row, seats in hands.values_list(
                "number", "status", "pot", "button", "result", "runout", "seats"
            )
        ],
        "secrets": list(
            HandSecret.objects.filter(hand__table=table)
            .order_by("hand__number")
            .values_list("hand__number", "deck", "seed")
        ),
        "actions": list(
            HandAction.objects.filter(hand__table=table)
            .order_by("hand__number", "index")
            .values_list("hand__number", "index", "seat", "kind", "amount", "cards", "source")
        ),
    }


def play(make_player, make_table, prefix: str) -> tuple[dict[str, list], int, int]:
    """Two hands at a new table, as a runtime plays them: dealt by the clock, a player timed
    out (sat out), the others' actions under the lease on the hand held in memory, to the
    end. Returns the rows written, the statements and the trips to the database."""
    table = seated(make_player, make_table, prefix)
    epoch = lease_take(table.pk, "runtime", "chan")
    now = timezone.now() + timedelta(minutes=5)
    statements_sent = trips = 0

    def tick(at):
        return lease_fenced(table.pk, "runtime", epoch, partial(clock_tick, table=table.pk, now=at))

    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            assert tick(now) == "started"
            assert tick(now + timedelta(seconds=25)) == "timeout"
            hand = Hand.objects.filter(table=table).latest("number")
            while True:
                hand.refresh_from_db()
                if hand.status != Hand.Status.RUNNING:
                    break
                decisions = hand_decisions(hand)
                state = hand_state(hand, decisions)
                version = Table.objects.get(pk=table.pk).version
                live = LiveHand(version, hand, decisions, state)
                player = hand.seats[state.actor]["player_id"]
                move = "check" if state.legal.check else "call"
                act = partial(
                    hand_act,
                    table=table.pk,
                    player=Seat.objects.get(player_id=player).player,
                    hand_id=hand.pk,
                    version=version,
                    action=move,
                    live=live,
                )
                lease_fenced(table.pk, "runtime", epoch, act)
        sent = [q["sql"] for q in captured.captured_queries if not q["sql"].startswith("SELECT")]
        statements_sent += sum(sql.count("; ") + 1 - sql.count("SET LOCAL") for sql in sent)
        trips += len(sent)
        now += timedelta(minutes=5)
    return rows(table), statements_sent, trips


def test_a_runtimes_hands_write_the_same_rows_batched_as_one_by_one(
    make_player, make_table, monkeypatch
):
    seed = "5eed" * 16
    monkeypatch.setattr("tables.services.hands.new_seed", lambda: seed)
    batched, statements_batched, trips_batched = play(make_player, make_table, "b")
    monkeypatch.setattr(statements, "joins_writes", lambda connection: False)
    alone, statements_alone, trips_alone = play(make_player, make_table, "a")
    assert batched == alone
    assert any(action[-1] == HandAction.Source.TIMEOUT for action in batched["actions"])
    assert any(sitting_out for _, _, sitting_out, _, _ in batched["seats"])
    assert statements_batched == statements_alone  # the same writes
    if JOINS:
        assert trips_batched < trips_alone
    else:
        assert trips_batched == trips_alone
