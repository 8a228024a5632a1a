"""Append-only logs and table validation."""

import pytest
from django.core.exceptions import ValidationError

from tables.models import AppendOnlyError, HandAction, LedgerEntry, Table
from tables.services import hand_start, seat_take

pytestmark = pytest.mark.django_db


def test_ledger_entries_cannot_be_changed_or_deleted(players):
    entry = players[0].ledger.get()
    assert (entry.kind, entry.amount, entry.balance_after) == ("grant", 10_000, 10_000)
    entry.amount = 1_000_000
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=5)
    with pytest.raises(AppendOnlyError):
        LedgerEntry.objects.all().delete()
    assert LedgerEntry.objects.get(pk=entry.pk).amount == 10_000


def test_hand_actions_cannot_be_changed_or_deleted(players, table, play):
    for p in players[:2]:
        seat_take(table=table, player=p, buy_in=100)
    hand_start(table=table)
    play.act(table, "call")
    action = HandAction.objects.get()
    action.kind = "fold"
    with pytest.raises(AppendOnlyError):
        action.save()
    with pytest.raises(AppendOnlyError):
        action.delete()
    assert HandAction.objects.get().kind == "call"


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"game": "omaha", "max_seats": 11}, "max_seats"),
        ({"max_seats": 13}, "max_seats"),
        ({"max_seats": 1}, "max_seats"),
        ({"small_blind": 3, "big_blind": 2}, "small_blind"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "max_buy_in"),
        ({"bot_seats": 2}, "bot_seats"),
        ({"bots_allowed": True, "bot_seats": 6}, "bot_seats"),
        ({"straddle": 3}, "straddle"),
    ],
)
def test_table_settings_are_validated(fields, field):
    table = Table(name="T", **fields)
    with pytest.raises(ValidationError) as info:
        table.full_clean()
    assert field in info.value.message_dict


def test_twelve_seats_for_holdem():
    Table(name="Big", max_seats=12).full_clean()
