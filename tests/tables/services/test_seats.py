"""Seats: buy-in range, free seats, one seat per player, leave, sit out/in, top up."""

import re
from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models import F, QuerySet

from tables.models import LedgerEntry, Player, Seat, Table
from tables.selectors.hands import hand_state
from tables.services import (
    AlreadySeated,
    BuyInOutOfRange,
    HandInProgress,
    InsufficientBankroll,
    InvalidAmount,
    NoSuchSeat,
    NotSeated,
    ReseatTooSoon,
    SeatTaken,
    ServiceError,
    TableFull,
    TableNotOpen,
    hand_start,
    player_grant,
    seat_leave,
    seat_sit_in,
    seat_sit_out,
    seat_take,
    seat_top_up,
    table_close,
    table_pause,
)
from tables.services.players import ledger_record

pytestmark = pytest.mark.django_db


def snapshot():
    """Everything a refused service must leave untouched."""
    return (
        sorted(Seat.objects.values_list("table_id", "number", "player_id", "stack", "sitting_out")),
        sorted(LedgerEntry.objects.values_list("id", flat=True)),
        list(Table.objects.order_by("pk").values_list("version", "status")),
        sorted(Player.objects.values_list("pk", "bankroll")),
    )


def test_take_seat_moves_the_buy_in_from_bankroll_to_stack(players, table, assert_chips_conserved):
    alice = players[0]
    version = table.version
    seat = seat_take(table=table, player=alice, buy_in=150, seat_number=3)
    alice.refresh_from_db()
    table.refresh_from_db()
    assert (seat.number, seat.stack) == (3, 150)
    assert alice.bankroll == 10_000 - 150
    entry = alice.ledger.first()
    assert (entry.kind, entry.amount, entry.balance_after, entry.table) == (
        "buy_in",
        -150,
        9_850,
        table,
    )
    assert seat.time_bank == table.time_bank_seconds
    assert table.version == version + 1
    assert_chips_conserved()


def test_the_seat_and_the_ledger_entry_of_a_sit_down_are_the_rows_written(players, table):
    # Written by compiled statements, not the ORM: what is returned is what is read back,
    # its key and its time included.
    alice = players[0]
    seat = seat_take(table=table, player=alice, buy_in=150)
    stored = Seat.objects.get(pk=seat.pk)
    fields = [field.attname for field in Seat._meta.concrete_fields]
    assert [getattr(seat, name) for name in fields] == [getattr(stored, name) for name in fields]
    assert not seat._state.adding
    entry = LedgerEntry.objects.get(player=alice, kind=LedgerEntry.Kind.BUY_IN)
    assert entry.created_at <= stored.joined_at
    grant = player_grant(player=alice, amount=5, reason="a test")
    assert LedgerEntry.objects.get(pk=grant.pk).created_at == grant.created_at
    assert grant.balance_after == Player.objects.get(pk=alice.pk).bankroll == 10_000 - 150 + 5


def test_default_buy_in_range_is_20_to_100_big_blinds(players, make_table):
    table = make_table(small_blind=5, big_blind=10)
    assert (table.effective_min_buy_in, table.effective_max_buy_in) == (200, 1000)
    with pytest.raises(BuyInOutOfRange, match="200 to 1000"):
        seat_take(table=table, player=players[0], buy_in=1001)
    seat_take(table=table, player=players[0], buy_in=1000)


@pytest.mark.parametrize("buy_in", [39, 201, 0, -5, "100", 100.0, True])
def test_bad_buy_in_is_refused_and_changes_nothing(players, table, buy_in):
    before = snapshot()
    with pytest.raises((BuyInOutOfRange, InvalidAmount)):
        seat_take(table=table, player=players[0], buy_in=buy_in)
    assert snapshot() == before


def test_a_seat_taken_twice(players, table):
    seat_take(table=table, player=players[0], buy_in=100, seat_number=2)
    before = snapshot()
    with pytest.raises(SeatTaken, match="Seat 3 is taken"):
        seat_take(table=table, player=players[1], buy_in=100, seat_number=2)
    assert snapshot() == before


def test_one_seat_per_player_per_table(players, table):
    seat_take(table=table, player=players[0], buy_in=100)
    before = snapshot()
    with pytest.raises(AlreadySeated):
        seat_take(table=table, player=players[0], buy_in=100)
    assert snapshot() == before


@pytest.mark.parametrize("number", [-1, 6, 99])
def test_no_such_seat(players, table, number):
    with pytest.raises(NoSuchSeat, match="seats 1 to 6"):
        seat_take(table=table, player=players[0], buy_in=100, seat_number=number)


def test_full_table(make_player, make_table):
    table = make_table(max_seats=2)
    seat_take(table=table, player=make_player("a"), buy_in=100)
    seat_take(table=table, player=make_player("b"), buy_in=100)
    with pytest.raises(TableFull):
        seat_take(table=table, player=make_player("c"), buy_in=100)


def test_bankroll_too_small(make_player, make_table):
    table = make_table(small_blind=100, big_blind=200)
    poor = make_player("poor")
    before = snapshot()
    with pytest.raises(InsufficientBankroll, match="bankroll is 10000"):
        seat_take(table=table, player=poor, buy_in=10_001)
    assert snapshot() == before


@pytest.mark.parametrize("close", [table_pause, table_close])
def test_paused_or_closed_table_refuses_seats(players, table, close):
    close(table=table)
    before = snapshot()
    with pytest.raises(TableNotOpen):
        seat_take(table=table, player=players[0], buy_in=100)
    assert snapshot() == before


def test_leave_between_hands_cashes_out(players, table, assert_chips_conserved):
    alice = players[0]
    seat_take(table=table, player=alice, buy_in=180)
    assert seat_leave(table=table, player=alice) is True
    alice.refresh_from_db()
    assert alice.bankroll == 10_000
    assert alice.ledger.first().kind == "cash_out"
    assert not Seat.objects.exists()
    with pytest.raises(NotSeated):
        seat_leave(table=table, player=alice)
    assert_chips_conserved()


def test_leave_during_a_hand_waits_for_its_end(players, table, play, assert_chips_conserved):
    alice, bob = players[:2]
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    assert seat_leave(table=table, player=alice) is False
    seat = Seat.objects.get(player=alice)
    assert seat.leave_after_hand and seat.sitting_out
    assert_chips_conserved()
    play.play_out(table)
    assert not Seat.objects.filter(player=alice).exists()
    alice.refresh_from_db()
    assert alice.ledger.first().kind == "cash_out"
    assert_chips_conserved()


def test_sit_out_and_back(players, table):
    alice, bob, carol = players
    for p in players:
        seat_take(table=table, player=p, buy_in=100)
    seat_sit_out(table=table, player=carol)
    hand = hand_start(table=table)
    assert {s["name"] for s in hand.seats} == {"alice", "bob"}
    seat_sit_in(table=table, player=carol)
    assert not Seat.objects.get(player=carol).sitting_out


def test_top_up_between_hands_within_the_maximum(players, table, play, assert_chips_conserved):
    alice, bob = players[:2]
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    seat = seat_top_up(table=table, player=alice, amount=100)
    assert seat.stack == 200
    assert alice.ledger.first().kind == "top_up"
    with pytest.raises(BuyInOutOfRange, match="at most 0"):
        seat_top_up(table=table, player=alice, amount=1)
    hand_start(table=table)
    before = snapshot()
    with pytest.raises(HandInProgress):
        seat_top_up(table=table, player=bob, amount=10)
    assert snapshot() == before
    assert_chips_conserved()


def test_every_refusal_is_a_value_error_with_a_message(players, table):
    with pytest.raises(ValueError) as info:
        seat_leave(table=table, player=players[0])
    assert isinstance(info.value, ServiceError)
    assert str(info.value) == "You have no seat at Main."


# --- Seat churn: a short wait before sitting down again where one just left (issue 15) -----


def pretend_the_cash_out_was(player, seconds_ago: int) -> None:
    """Move the player's last cash-out back in time (the ledger's own queryset refuses
    updates: it is append-only; this stands in for the clock moving on)."""
    entry = player.ledger.filter(kind="cash_out").first()
    QuerySet(LedgerEntry).filter(pk=entry.pk).update(
        created_at=F("created_at") - timedelta(seconds=seconds_ago)
    )


def test_sitting_down_again_soon_after_leaving_is_refused(
    players, table, settings, assert_chips_conserved
):
    settings.POKER_RESEAT_WAIT_SECONDS = 30
    alice = players[0]
    seat_take(table=table, player=alice, buy_in=100)
    seat_leave(table=table, player=alice)
    before = snapshot()
    with pytest.raises(ReseatTooSoon) as refused:
        seat_take(table=table, player=alice, buy_in=100)
    wait = re.fullmatch(
        r"You left Main moments ago: you can sit down here again in (\d+) seconds?\.",
        str(refused.value),
    )
    assert wait is not None and 1 <= int(wait.group(1)) <= 30, str(refused.value)
    assert snapshot() == before
    pretend_the_cash_out_was(alice, seconds_ago=25)
    with pytest.raises(ReseatTooSoon, match=r"again in [1-5] seconds?\."):
        seat_take(table=table, player=alice, buy_in=100)
    pretend_the_cash_out_was(alice, seconds_ago=6)  # 31 s ago in all
    seat = seat_take(table=table, player=alice, buy_in=100)
    assert seat.stack == 100
    assert_chips_conserved()


def test_leaving_at_the_end_of_a_hand_starts_the_wait_then(players, table, play, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 30
    alice, bob = players[:2]
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    assert seat_leave(table=table, player=alice) is False  # in the hand: leaves when it ends
    play.play_out(table)
    assert not Seat.objects.filter(player=alice).exists()
    with pytest.raises(ReseatTooSoon):
        seat_take(table=table, player=alice, buy_in=100)


def test_the_wait_is_per_table_and_none_when_set_to_zero(players, table, make_table, settings):
    settings.POKER_RESEAT_WAIT_SECONDS = 30
    alice = players[0]
    other = make_table(name="Other")
    seat_take(table=table, player=alice, buy_in=100)
    seat_leave(table=table, player=alice)
    seat_take(table=other, player=alice, buy_in=100)  # another table: at once
    settings.POKER_RESEAT_WAIT_SECONDS = 0
    seat_take(table=table, player=alice, buy_in=100)
    assert Seat.objects.filter(player=alice).count() == 2


def test_bots_and_busted_players_sit_down_again_at_once(
    make_player, table, play, settings, assert_chips_conserved
):
    settings.POKER_RESEAT_WAIT_SECONDS = 30
    bot = make_player("robot")
    Player.objects.filter(pk=bot.pk).update(is_bot=True)  # as the croupier's bots are
    bot.refresh_from_db()
    seat_take(table=table, player=bot, buy_in=100)
    seat_leave(table=table, player=bot)
    seat_take(table=table, player=bot, buy_in=100)  # the croupier reseats its bots freely
    seat_leave(table=table, player=bot)

    def all_in_or_call(hand):
        legal = hand_state(hand).legal
        if legal.max_raise_to is not None:
            return "all_in"
        return "check" if legal.check else "call"

    a, b = make_player("a"), make_player("b")
    seat_take(table=table, player=a, buy_in=100)
    seat_take(table=table, player=b, buy_in=100)
    for _ in range(30):  # all-in every hand: someone busts unless every hand is split
        hand_start(table=table)
        play.play_out(table, choose=all_in_or_call)
        if Seat.objects.filter(table=table).count() < 2:
            break
    (winner,) = Seat.objects.filter(table=table).values_list("player_id", flat=True)
    busted = b if winner == a.pk else a
    seat_take(table=table, player=busted, buy_in=100)  # no cash-out: lost it all, buys in again
    assert_chips_conserved()


def test_a_bankroll_change_is_checked_and_written_under_its_lock(
    players, table, assert_chips_conserved
):
    # The player's row locked, the change checked and written: a refusal changes nothing,
    # and the caller's copy is refreshed (the bankroll and the bot flags read under the lock).
    alice = players[0]
    seat_take(table=table, player=alice, buy_in=150)
    assert alice.bankroll == Player.objects.get(pk=alice.pk).bankroll == 10_000 - 150
    before = snapshot()
    short = "your bankroll is 9850, this needs 20000"
    with pytest.raises(InsufficientBankroll, match=short), transaction.atomic():
        ledger_record(player=alice, amount=-20_000, kind=LedgerEntry.Kind.TOP_UP)
    assert snapshot() == before
    Player.objects.filter(pk=alice.pk).update(bot_account=True)  # since alice was read
    grant = player_grant(player=alice, amount=50, reason="a test")
    assert grant.balance_after == alice.bankroll == 9_900 and alice.bot_account
    assert Player.objects.get(pk=alice.pk).bankroll == 9_900
    nobody = Player(pk=Player.objects.order_by("-pk").first().pk + 1)
    with pytest.raises(Player.DoesNotExist), transaction.atomic():
        ledger_record(player=nobody, amount=-1, kind=LedgerEntry.Kind.TOP_UP)
    assert_chips_conserved()
