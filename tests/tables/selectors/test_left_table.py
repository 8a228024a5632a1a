"""``left_table``: what a player's last cash-out from a table asks of their next sit-down
there (the least buy-in, the wait), whatever the ledger holds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import LedgerEntry, Player
from tables.selectors.hosting import left_table

pytestmark = pytest.mark.django_db

AGO = {"now": timedelta(0), "10s": timedelta(seconds=10), "2h": timedelta(hours=2)}
#: (kind, amount, how long ago) of each entry at the table, oldest first; then the least
#: buy-in it asks (within the hour, and the last entry but corrections) and when the last
#: cash-out was (None: never), for a wait of 30 s to count from
LEDGERS = {
    "none": ([], 0, None),
    "cashed out": ([("buy_in", -100, "2h"), ("cash_out", 150, "10s")], 150, "10s"),
    "cashed out long ago": ([("buy_in", -100, "2h"), ("cash_out", 150, "2h")], 0, "2h"),
    "corrected after": ([("cash_out", 150, "10s"), ("correction", 5, "now")], 150, "10s"),
    "bought in after": ([("cash_out", 150, "10s"), ("buy_in", -100, "now")], 0, "10s"),
    "two cash-outs": (
        [("cash_out", 150, "2h"), ("buy_in", -10, "2h"), ("cash_out", 70, "10s")],
        70,
        "10s",
    ),
    # the later id is the later entry: the buy-in comes after the cash-out
    "same instant": ([("cash_out", 150, "10s"), ("buy_in", -100, "10s")], 0, "10s"),
}


@pytest.mark.parametrize("ledger", LEDGERS)
@pytest.mark.parametrize("wait", [0, 30, 5])
@pytest.mark.parametrize("bot", [False, True])
def test_left_table_asks_the_last_cash_out_within_the_hour_and_waits_from_it(
    ledger, wait, bot, players, table, make_table, settings
):
    settings.POKER_RESEAT_WAIT_SECONDS = wait
    alice, bob = players[0], players[1]
    Player.objects.filter(pk=alice.pk).update(is_bot=bot)
    alice.refresh_from_db()
    now = timezone.now()
    other = make_table()
    entries, minimum, left_ago = LEDGERS[ledger]
    for kind, amount, ago in entries:
        entry = LedgerEntry.objects.create(
            player=alice, amount=amount, kind=kind, table=table, balance_after=0
        )
        LedgerEntry._base_manager.filter(pk=entry.pk).update(created_at=now - AGO[ago])
    # others' entries and the player's at another table count for nothing
    for player, at in ((bob, table), (alice, other)):
        LedgerEntry.objects.create(
            player=player, amount=9, kind="cash_out", table=at, balance_after=0
        )
    left = left_table(table.pk, alice, now)
    if bot:  # seated by the croupier: held to nothing
        assert left == (0, None)
        return
    # a wait of 5 s or none is over 10 s after; 30 s is 20 s away
    waiting = left_ago == "10s" and wait == 30
    assert left == (minimum, now + timedelta(seconds=20) if waiting else None)


def test_a_player_who_just_cashed_out_must_wait_and_bring_the_chips(players, table, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 30
    alice, now = players[0], timezone.now()
    entry = LedgerEntry.objects.create(
        player=alice, amount=150, kind="cash_out", table=table, balance_after=0
    )
    LedgerEntry._base_manager.filter(pk=entry.pk).update(created_at=now - timedelta(seconds=10))
    left = left_table(table.pk, alice, now)
    assert left == (150, now + timedelta(seconds=20))
    # the sit-down form's countdown, as a socket's viewer without a seat gets it
    assert left.wait_until_ms == int((now + timedelta(seconds=20)).timestamp() * 1000)
    assert left_table(table.pk, players[1], now).wait_until_ms is None
