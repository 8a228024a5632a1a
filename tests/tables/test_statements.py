"""``tables.services.statements``: the compiled hot statements behave as the ORM calls they
stand for, on SQLite and on PostgreSQL (this file runs in both passes)."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from tables.models import HandAction, Seat, Table
from tables.services import hand_start, seat_take, statements

pytestmark = pytest.mark.django_db(transaction=True)


def test_lock_row_returns_the_row_as_the_orm_reads_it(table):
    deadline = timezone.now().replace(microsecond=123456) + timedelta(seconds=30)
    Table.objects.filter(pk=table.pk).update(action_deadline=deadline, bots_allowed=True)
    with transaction.atomic():
        locked = statements.lock_row(Table, table.pk)
    orm = Table.objects.get(pk=table.pk)
    assert model_to_dict(locked) == model_to_dict(orm)
    assert locked.created_at == orm.created_at and locked.created_at.tzinfo is not None
    assert locked.action_deadline == deadline and locked.bots_allowed is True
    assert locked._state.adding is False and locked._state.db == orm._state.db


def test_lock_row_of_a_missing_row_raises_does_not_exist(table):
    with transaction.atomic(), pytest.raises(Table.DoesNotExist):
        statements.lock_row(Table, table.pk + 1000)


def test_insert_fills_auto_now_add_and_update_changes_only_the_matching_rows(players, table):
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    hand = hand_start(table=table)
    bob_stack = Seat.objects.get(table=table, player=bob).stack  # after posting a blind
    before = timezone.now()
    with transaction.atomic():
        statements.insert(HandAction(hand=hand, index=0, seat=0, kind="call", amount=None,
                                     source=HandAction.Source.PLAYER))
        changed = statements.update(Seat, {"table_id": table.pk, "player_id": alice.pk},
                                    stack=77)
    action = HandAction.objects.get(hand=hand, index=0)
    assert (action.seat, action.kind, action.amount, action.source) == (0, "call", None, "player")
    assert action.created_at >= before - timedelta(seconds=1)
    assert changed == 1
    assert dict(Seat.objects.filter(table=table).values_list("player_id", "stack")) == {
        alice.pk: 77, bob.pk: bob_stack}
    deadline = timezone.now() + timedelta(seconds=5)
    with transaction.atomic():
        assert statements.update(Table, {"pk": table.pk}, version=41,
                                 action_deadline=deadline) == 1
    row = Table.objects.get(pk=table.pk)
    assert (row.version, row.action_deadline) == (41, deadline)
