"""Who goes bust (issue 31, item 10): their plate and shown cards stay on the felt until the
next hand, marked busted, and they are told so, with the sit-down form to buy in again."""

from __future__ import annotations

import itertools

import pytest

import tables.services.hands as hands
from tables.presenters.render import render_regions
from tables.services import hand_start, seat_take
from tests.tables.helpers import act, fresh, play_out, screen_of

pytestmark = pytest.mark.django_db


def test_the_bust_player_keeps_their_plate_and_is_offered_a_rebuy(players, table, monkeypatch):
    seeds = itertools.count(3100)
    monkeypatch.setattr(hands, "new_seed", lambda: f"{next(seeds):064x}")  # a fixed deck
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=100, seat_number=0)
    seat_take(table=table, player=bob, buy_in=100, seat_number=1)
    hand_start(table=table)
    act(table, {"kind": "raise", "amount": 100})
    hand = play_out(table)
    winner_pk = next(s.player_id for s in fresh(table).seats.all())
    loser = alice if winner_pk == bob.pk else bob
    seat_number = 0 if loser == alice else 1
    for viewer in (alice, bob, carol):
        screen = screen_of(table, viewer)
        plate = screen.seats.seats[seat_number].plate
        assert plate is not None and plate.busted and plate.name == loser.name
        assert plate.stack == 0 and all(screen.seats.seats[seat_number].cards)  # shown
    assert hand.result is not None
    loser_screen = screen_of(table, loser)
    assert (
        loser_screen.controls.viewer.busted and seat_number + 1 in loser_screen.controls.free_seats
    )
    html = render_regions(loser_screen)
    assert "You went bust: buy in again" in html and 'class="sit-down"' in html
    assert not screen_of(table, carol).controls.viewer.busted  # not dealt in
