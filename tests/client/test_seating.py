"""What ``poker play`` checks before asking the server to seat or top up (``pokerclient.seating``):
each wrong entry is one line naming the limit, and the default buy-in fits the bankroll."""

from __future__ import annotations

import pytest

from pokerclient.config import ClientError
from pokerclient.seating import buy_in_offer, free_seats, parse_buy_in, parse_seat, parse_top_up


def state(bankroll=10_000, room=0, taken=(1, 3)) -> dict:
    return {
        "table": {"min_buy_in": 40, "max_buy_in": 400, "default_buy_in": 100},
        "you": {"seat": None, "bankroll": bankroll, "top_up_room": room},
        "seats": [{"seat": n, "status": "waiting" if n in taken else "empty"} for n in range(1, 7)],
    }


def test_the_offer_is_the_tables_default_within_the_bankroll():
    assert buy_in_offer(state()) == 100
    assert buy_in_offer(state(bankroll=70)) == 70


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "The buy-in is a whole number of chips, not ''."),
        ("12.5", "The buy-in is a whole number of chips, not '12.5'."),
        ("١٢٠", "The buy-in is a whole number of chips, not '١٢٠'."),
        ("39", "The buy-in is at least 40 chips here."),
        ("300", "Your bankroll has 250 chips."),
    ],
)
def test_a_wrong_buy_in_is_one_line(text, message):
    with pytest.raises(ClientError) as refused:
        parse_buy_in(text, state(bankroll=250))
    assert str(refused.value) == message


def test_a_buy_in_above_the_maximum_is_the_servers_call():
    """Rejoining within the hour may need more than the maximum: the server decides."""
    assert parse_buy_in(" 450 ", state()) == 450


def test_the_seat_is_a_free_one_or_the_first_free():
    assert free_seats(state()) == [2, 4, 5, 6]
    assert parse_seat("", state()) is None
    assert parse_seat("4", state()) == 4
    with pytest.raises(ClientError, match=r"Seat 3 is not free \(free: 2, 4, 5, 6\)\."):
        parse_seat("3", state())
    with pytest.raises(ClientError, match="The seat is a number"):
        parse_seat("two", state())


def test_a_top_up_fits_the_room_under_the_maximum():
    assert parse_top_up("25", state(room=60)) == 25
    with pytest.raises(ClientError, match="at most 60 chips"):
        parse_top_up("61", state(room=60))
    with pytest.raises(ClientError, match="one chip or more"):
        parse_top_up("0", state(room=60))
