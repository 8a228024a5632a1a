"""``tables.db.statements``: the compiled hot statements behave as the ORM calls they
stand for, on SQLite and on PostgreSQL (this file runs in both passes)."""

import copy
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.db import statements
from tables.db.rows import delete, insert, insert_many, lock_row
from tables.db.statements import row_copy
from tables.models import Hand, HandAction, Seat, Table
from tables.services import hand_start, seat_take

pytestmark = pytest.mark.django_db(transaction=True)


def test_lock_row_returns_the_row_as_the_orm_reads_it(table):
    deadline = timezone.now().replace(microsecond=123456) + timedelta(seconds=30)
    Table.objects.filter(pk=table.pk).update(action_deadline=deadline, bots_allowed=True)
    with transaction.atomic():
        locked = lock_row(Table, table.pk)
    orm = Table.objects.get(pk=table.pk)
    assert model_to_dict(locked) == model_to_dict(orm)
    assert locked.created_at == orm.created_at and locked.created_at.tzinfo is not None
    assert locked.action_deadline == deadline and locked.bots_allowed is True
    assert locked._state.adding is False and locked._state.db == orm._state.db


def test_row_copy_is_copy_copys_row_with_a_state_of_its_own(players, table):
    """``row_copy``: what ``copy.copy`` gives (every value, the state, the related rows
    cached), and changing the copy, its state or its cache leaves the row as it was."""
    seat = seat_take(table=table, player=players[0], buy_in=100, seat_number=0)
    row = Seat.objects.select_related("player").get(pk=seat.pk)
    copied, shallow = row_copy(row), copy.copy(row)
    assert type(copied) is Seat and copied.__dict__.keys() == row.__dict__.keys()
    assert model_to_dict(copied) == model_to_dict(row)
    assert copied._state.__dict__ == shallow._state.__dict__
    assert copied.player is row.player  # the cached player, not read again
    copied.stack, copied._state.adding = 7, True
    copied.player = players[1]
    assert (row.stack, row._state.adding, row.player) == (100, False, players[0])


def test_lock_row_of_a_missing_row_raises_does_not_exist(table):
    with transaction.atomic(), pytest.raises(Table.DoesNotExist):
        lock_row(Table, table.pk + 1000)


def test_insert_fills_auto_now_add_and_update_changes_only_the_matching_rows(players, table):
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    hand = hand_start(table=table)
    bob_stack = Seat.objects.get(table=table, player=bob).stack  # after posting a blind
    before = timezone.now()
    with transaction.atomic():
        insert(
            HandAction(
                hand=hand,
                index=0,
                seat=0,
                kind="call",
                amount=None,
                source=HandAction.Source.PLAYER,
            )
        )
        changed = statements.update(Seat, {"table_id": table.pk, "player_id": alice.pk}, stack=77)
    action = HandAction.objects.get(hand=hand, index=0)
    assert (action.seat, action.kind, action.amount, action.source) == (0, "call", None, "player")
    assert action.created_at >= before - timedelta(seconds=1)
    assert changed == 1
    assert dict(Seat.objects.filter(table=table).values_list("player_id", "stack")) == {
        alice.pk: 77,
        bob.pk: bob_stack,
    }
    deadline = timezone.now() + timedelta(seconds=5)
    with transaction.atomic():
        assert statements.update(Table, {"pk": table.pk}, version=41, action_deadline=deadline) == 1
    row = Table.objects.get(pk=table.pk)
    assert (row.version, row.action_deadline) == (41, deadline)


def test_update_with_none_in_its_filter_changes_only_the_rows_where_it_is_null(table):
    deadline = timezone.now() + timedelta(seconds=5)
    Table.objects.filter(pk=table.pk).update(action_deadline=None, version=3)
    with transaction.atomic():
        where = {"pk": table.pk, "action_deadline": None}
        assert statements.update(Table, where, version=4, action_deadline=deadline) == 1
        assert statements.update(Table, where, version=5) == 0  # no longer null: untouched
    row = Table.objects.get(pk=table.pk)
    assert (row.version, row.action_deadline) == (4, deadline)


def test_an_update_that_need_not_wait_for_the_disk_counts_its_rows_in_one_statement(table):
    """The UPDATE and its transaction's ``synchronous_commit`` (PostgreSQL) in one statement:
    the rows changed are still the UPDATE's, its transaction alone commits without waiting,
    and an UPDATE that waits sets nothing."""

    def setting() -> str | None:
        if connection.vendor != "postgresql":
            return None
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return str(cursor.fetchone()[0])

    waits = setting()
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        kept = {"pk": table.pk}
        assert statements.update(Table, kept, wait_for_disk=False, version=8) == 1
        assert statements.update(Table, {"pk": -1}, wait_for_disk=False, version=9) == 0
        assert setting() in (None, "off")
    sent = [query["sql"] for query in captured.captured_queries]
    assert len([sql for sql in sent if "UPDATE" in sql]) == 2
    assert not any(sql.startswith("SET") for sql in sent)  # no round trip of its own
    assert setting() == waits  # for that transaction only
    with transaction.atomic():
        assert statements.update(Table, {"pk": table.pk}, version=10) == 1
        assert setting() == waits
    assert Table.objects.get(pk=table.pk).version == 10


def test_update_with_a_list_in_its_filter_changes_the_rows_the_orm_would(players, table):
    """``{"pk": [...]}``: ``pk__in``, one compiled form per length, beside an equality; the
    rows changed and their values what ``filter(pk__in=...).update()`` leaves."""
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=100, seat_number=number)
    pks = list(Seat.objects.filter(table=table).order_by("number").values_list("pk", flat=True))
    columns = ("pk", "sitting_out", "owes_blinds", "stack")

    def rows():
        return sorted(Seat.objects.filter(table=table).values_list(*columns))

    values = {"sitting_out": True, "owes_blinds": Seat.Owes.MISSED}
    with transaction.atomic():
        assert statements.update(Seat, {"pk": pks[:2]}, **values) == 2
        assert statements.update(Seat, {"pk": [pks[2]], "table_id": -1}, stack=5) == 0
        assert statements.update(Seat, {"table_id": table.pk, "pk": pks[1:]}, stack=9) == 2
    ours = rows()
    Seat.objects.filter(pk__in=pks).update(sitting_out=False, owes_blinds="", stack=100)
    with transaction.atomic():
        Seat.objects.filter(pk__in=pks[:2]).update(**values)
        Seat.objects.filter(table_id=table.pk, pk__in=pks[1:]).update(stack=9)
    assert ours == rows()
    assert [row[3] for row in ours] == [100, 9, 9]


def test_update_each_sets_each_rows_own_value_and_only_theirs(players, table):
    """Two, then three rows in one statement (one compiled form per count), the others and
    another table's untouched; an empty set writes nothing."""
    alice, bob, carol = players
    other = Table.objects.create(name="Other", small_blind=1, big_blind=2)
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=100, seat_number=number)
    seat_take(table=other, player=alice, buy_in=100, seat_number=0)

    def stacks(t):
        return dict(Seat.objects.filter(table=t).values_list("player_id", "stack"))

    with transaction.atomic():
        changed = statements.update_each(
            Seat, {"table_id": table.pk}, "player_id", "stack", {alice.pk: 7, carol.pk: 9}
        )
    assert changed == 2
    assert stacks(table) == {alice.pk: 7, bob.pk: 100, carol.pk: 9}
    with transaction.atomic():
        values = {bob.pk: 2**40, carol.pk: 0, alice.pk: 31}  # a big stack, a bust one
        assert statements.update_each(Seat, {"table_id": table.pk}, "player_id", "stack", values)
        assert statements.update_each(Seat, {"table_id": table.pk}, "player_id", "stack", {}) == 0
    assert stacks(table) == values
    assert stacks(other) == {alice.pk: 100}


def test_delete_removes_exactly_the_given_rows_and_refuses_a_model_with_dependents(players, table):
    """One row, then two in one statement (one compiled form per count), the others and
    another table's untouched; no keys deletes nothing. A model whose rows other rows refer
    to (a table: its seats, its hands) is the ORM's to delete."""
    alice, bob, carol = players
    other = Table.objects.create(name="Other", small_blind=1, big_blind=2)
    seats = [
        seat_take(table=table, player=player, buy_in=100, seat_number=number)
        for number, player in enumerate(players)
    ]
    kept = seat_take(table=other, player=alice, buy_in=100, seat_number=0)
    with transaction.atomic():
        assert delete(Seat, [seats[1].pk]) == 1
        assert delete(Seat, []) == 0
    assert set(Seat.objects.filter(table=table).values_list("player_id", flat=True)) == {
        alice.pk,
        carol.pk,
    }
    with transaction.atomic():
        assert delete(Seat, [seats[2].pk, seats[0].pk]) == 2
        assert delete(Seat, [seats[2].pk, seats[0].pk]) == 0  # gone already
    assert not Seat.objects.filter(table=table).exists()
    assert list(Seat.objects.values_list("pk", flat=True)) == [kept.pk]
    assert bob.seats.count() == 0
    with transaction.atomic(), pytest.raises(ValueError, match="the ORM's to collect"):
        delete(Table, [other.pk])
    assert Table.objects.filter(pk=other.pk).exists()


def test_insert_many_stores_every_row_and_refuses_a_mixed_batch(players, table):
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    hand = hand_start(table=table)
    actions = [
        HandAction(hand=hand, index=n, seat=n % 2, kind="call", source=HandAction.Source.PLAYER)
        for n in range(3)
    ]
    sent: list[tuple[str, bool]] = []

    def counted(execute, sql, params, many, context):
        sent.append((sql.split(" ", 1)[0], many))
        return execute(sql, params, many, context)

    with transaction.atomic(), connection.execute_wrapper(counted):
        insert_many(actions)
        insert_many([])
    # one statement for every row (``executemany`` sends one a row), none for no rows
    assert sent == [("INSERT", False)]
    rows = HandAction.objects.filter(hand=hand).order_by("index")
    assert [(a.index, a.seat, a.kind) for a in rows] == [
        (0, 0, "call"),
        (1, 1, "call"),
        (2, 0, "call"),
    ]
    with transaction.atomic(), pytest.raises(ValueError, match="a Seat among HandAction rows"):
        insert_many([actions[0], Seat(table=table, player=bob, number=4)])


def test_a_numbered_insert_sets_the_key_the_database_gave_as_create_does(players, table):
    """``insert(obj, numbered=True)``: ``Model.objects.create`` for a row whose key the
    database numbers (a new hand), run twice: the compiled statement gives each its own."""
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    first = hand_start(table=table)
    made = []
    with transaction.atomic():
        for number in (first.number + 1, first.number + 2):
            hand = Hand(
                table=table,
                number=number,
                config=first.config,
                seats=first.seats,
                button=0,
                button_seat=0,
            )
            insert(hand, numbered=True)
            made.append(hand)
    assert [hand.pk for hand in made] == list(
        Hand.objects.filter(number__gt=first.number).order_by("number").values_list("pk", flat=True)
    )
    assert not made[0]._state.adding and made[0].pk > first.pk
    stored = Hand.objects.get(pk=made[0].pk)
    assert (stored.seats, stored.status, stored.started_at) == (
        first.seats,
        Hand.Status.RUNNING,
        made[0].started_at,
    )


def test_compiled_reads_return_what_the_orm_returns_for_any_parameters(players, table):
    """The snapshot's reads (seats with their players and table, the hand on screen and the
    running one, its log) compiled once and run with other parameters equal the ORM's
    answers."""
    from tables.selectors.hands import hand_decisions, last_hand, running_hand
    from tables.selectors.snapshot import table_and_seats

    alice, bob, _ = players
    other = Table.objects.create(name="Other", small_blind=1, big_blind=2)
    for t in (table, other):
        seat_take(table=t, player=alice, buy_in=100, seat_number=0)
        seat_take(table=t, player=bob, buy_in=150, seat_number=3)
    Table.objects.filter(pk=other.pk).update(action_deadline=timezone.now())
    hands = {t.pk: hand_start(table=t) for t in (table, other)}
    for t in (table, other):  # the second run reuses the statement compiled by the first
        orm_table = Table.objects.get(pk=t.pk)
        found, seats = table_and_seats(t.pk)
        assert model_to_dict(found) == model_to_dict(orm_table)
        assert found.created_at == orm_table.created_at
        assert found.action_deadline == orm_table.action_deadline
        orm_seats = {s.number: s for s in Seat.objects.filter(table=t).select_related("player")}
        assert {
            s.number: (
                s.player_id,
                s.stack,
                s.sitting_out,
                s.leave_after_hand,
                s.player.name,
                s.player.is_bot,
                s.player.bankroll,
            )
            for s in seats
        } == {
            n: (
                s.player_id,
                s.stack,
                s.sitting_out,
                s.leave_after_hand,
                s.player.name,
                s.player.is_bot,
                s.player.bankroll,
            )
            for n, s in orm_seats.items()
        }
        hand = last_hand(orm_table)
        orm_hand = orm_table.hands.order_by("-number").first()
        assert hand == orm_hand and model_to_dict(hand) == model_to_dict(orm_hand)
        running = running_hand(orm_table)
        assert running == orm_hand and model_to_dict(running) == model_to_dict(orm_hand)
        assert hand.seats == orm_hand.seats and hand.config == orm_hand.config  # JSON decoded
        assert hand_decisions(hand) == list(
            hand.actions.order_by("index").values_list("kind", "amount", "source")
        )
    assert hands[table.pk].pk != hands[other.pk].pk
    assert table_and_seats(other.pk + 1000) == (None, [])


def _created(table_id):
    return Table.objects.filter(pk=table_id).values_list("created_at", "name")


def test_a_compiled_read_not_aware_gives_the_drivers_date_times(table):
    """``aware=False`` leaves the date-times as the driver gives them (naive on SQLite), for a
    caller that converts them itself (``from_row``): the same instant either way."""
    for _ in range(2):  # written by the ORM, then run again
        (aware, name), *_ = statements.select_values(Table, "t-created", _created, table.pk)
        (raw, _), *_ = statements.select_values(Table, "t-created", _created, table.pk, aware=False)
        assert aware == table.created_at and aware.tzinfo is not None and name == table.name
        assert raw.replace(tzinfo=raw.tzinfo or aware.tzinfo) == aware


def test_a_compiled_read_refuses_a_query_whose_parameters_are_not_the_given_ones(table):
    # Django orders the filters of one call itself: status's parameter would come first.
    from tables.models import Hand

    with pytest.raises(ValueError, match="parameters"):
        statements.select_values(
            Hand,
            "test-misordered",
            lambda t, s: Hand.objects.filter(table_id=t, status=s).values_list("number"),
            table.pk,
            "finished",
        )


def test_a_read_runs_again_the_sql_the_orm_wrote_for_it(players, table):
    """The second call, with other parameters, is one statement: the very SQL the ORM writes
    for those parameters; its JSON annotation (the hand's deck) decoded as the ORM does."""
    from tables.models import HandSecret
    from tables.selectors.hands import _last_hand_query, last_hand

    alice, bob, _ = players
    other = Table.objects.create(name="Other", small_blind=1, big_blind=2)
    for t in (table, other):
        seat_take(table=t, player=alice, buy_in=100, seat_number=0)
        seat_take(table=t, player=bob, buy_in=150, seat_number=3)
        hand_start(table=t)
    last_hand(table)
    with CaptureQueriesContext(connection) as ours:
        hand = last_hand(other)
    with CaptureQueriesContext(connection) as orms:
        orm_hand = _last_hand_query(other.pk, "voided").get()
    assert [q["sql"] for q in ours.captured_queries] == [q["sql"] for q in orms.captured_queries]
    assert model_to_dict(hand) == model_to_dict(orm_hand)
    assert hand.secret_deck == orm_hand.secret_deck == HandSecret.objects.get(hand=hand).deck
    assert isinstance(hand.secret_deck, list)


def test_a_hand_with_its_actions_replays_without_a_query(players, table):
    """``with_actions`` brings every hand's log in order (Django's ``Prefetch(to_attr=...)``):
    ``hand_decisions`` reads it, from any index, and asks the database nothing."""
    from tables.models import Hand
    from tables.selectors.hands import hand_decisions, with_actions

    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    hand = hand_start(table=table)
    with transaction.atomic():
        insert_many(
            [
                HandAction(hand=hand, index=n, seat=n % 2, kind=kind, source="player")
                for n, kind in reversed(list(enumerate(["raise", "call", "check"])))
            ]
        )
    (fetched,) = with_actions(Hand.objects.filter(pk=hand.pk))
    with CaptureQueriesContext(connection) as captured:
        everything, later = hand_decisions(fetched), hand_decisions(fetched, start=1)
    assert captured.captured_queries == []
    assert [d.kind for d in everything] == ["raise", "call", "check"]
    assert everything == hand_decisions(hand) and later == everything[1:]
