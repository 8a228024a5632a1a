"""Seats: buy-in range, free seats, one seat per player, leave, sit out/in, top up."""

import pytest

from tables.models import LedgerEntry, Player, Seat, Table
from tables.services import (
    AlreadySeated,
    BuyInOutOfRange,
    HandInProgress,
    InsufficientBankroll,
    InvalidAmount,
    NoSuchSeat,
    NotSeated,
    SeatTaken,
    ServiceError,
    TableFull,
    TableNotOpen,
    hand_start,
    seat_leave,
    seat_sit_in,
    seat_sit_out,
    seat_take,
    seat_top_up,
    table_close,
    table_pause,
)

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
        "buy_in", -150, 9_850, table,
    )
    assert seat.time_bank == table.time_bank_seconds
    assert table.version == version + 1
    assert_chips_conserved()


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
