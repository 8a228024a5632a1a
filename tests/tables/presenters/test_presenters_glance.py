"""The table at a glance: one pot reads "Pot 8", an empty table waits for players instead of
drawing the last hand, chip counts carry thousands separators, cards have spoken names."""

import re

import pytest

from tables.presenters.render import render_regions
from tables.services import hand_start, seat_leave, seat_take
from tests.tables.helpers import screen_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def heads_up(players, table):
    alice, bob, carol = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=2)
    hand_start(table=table)
    table.refresh_from_db()
    return table, alice, bob, carol


def visible_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_single_pot_reads_pot_not_main_pot_and_total(heads_up, play):
    table, alice, bob, carol = heads_up
    play.act(table, "call")
    play.act(table, "check")  # the flop: one pot of 4, nothing bet yet
    screen = screen_of(table, carol)
    assert [(p.label, p.amount) for p in screen.board.pots] == [("Pot", 4)]
    text = visible_text(render_regions(screen))
    assert "Pot 4" in text
    assert "Main pot" not in text and "Total" not in text


def test_the_total_still_shows_while_bets_are_out_beside_the_pot(heads_up, play):
    table, alice, bob, carol = heads_up
    play.act(table, "call")
    play.act(table, "check")
    play.act(table, {"kind": "raise", "amount": 4})  # 4 bet beside the pot of 4
    text = visible_text(render_regions(screen_of(table, carol)))
    assert "Pot 4" in text and "Total 8" in text


def test_a_finished_single_pot_is_awarded_as_pot(heads_up, play):
    table, alice, bob, carol = heads_up
    play.play_out(table)
    pots = screen_of(table, carol).board.pots
    assert len(pots) == 1 and pots[0].label == "Pot" and pots[0].winners


def test_an_empty_table_waits_for_players_instead_of_drawing_the_last_hand(heads_up, play):
    table, alice, bob, carol = heads_up
    play.play_out(table)
    seat_leave(table=table, player=alice)
    seat_leave(table=table, player=bob)
    table.refresh_from_db()
    for viewer in (carol, alice, None):
        screen = screen_of(table, viewer)
        assert all(panel.plate is None for panel in screen.seats.seats), "no player drawn"
        assert all(panel.cards == () for panel in screen.seats.seats), "no card drawn"
        assert screen.board.hand_id is None and screen.board.pots == ()
        assert screen.log.lines == () and screen.log.hand_number is None
        text = visible_text(render_regions(screen))
        assert "Waiting for players" in text
        assert "wins" not in text


def test_a_seat_left_after_the_hand_is_drawn_free_not_with_the_last_hands_player(heads_up, play):
    table, alice, bob, carol = heads_up
    play.play_out(table)
    seat_leave(table=table, player=bob)
    table.refresh_from_db()
    screen = screen_of(table, carol)
    plates = {panel.number: panel.plate for panel in screen.seats.seats}
    assert plates[2] is None, "bob's seat is free, and offered as free"
    assert 3 in screen.controls.free_seats
    assert plates[0] is not None and plates[0].name == "alice", "the one still seated stays"


def test_chip_counts_have_thousands_separators(players, make_table):
    alice, bob, carol = players
    table = make_table(name="Deep", max_buy_in=5000, min_buy_in=20)
    seat_take(table=table, player=alice, buy_in=2500)
    table.refresh_from_db()
    html = render_regions(screen_of(table, alice))
    assert 'data-stack="2500">2,500<' in html, "the visible count is formatted, the data is not"
    assert 'data-bankroll="7500">7,500<' in html


def test_cards_are_images_with_spoken_names_and_hidden_ones_say_so(heads_up):
    table, alice, bob, carol = heads_up
    html = render_regions(screen_of(table, alice))
    spoken = re.findall(r'role="img" aria-label="([^"]+)"', html)
    assert spoken.count("hidden card") == 2, "bob's two cards, face down"
    faces = [s for s in spoken if s != "hidden card"]
    # alice's two cards, at her seat and in the log's "Your cards" line
    assert len(set(faces)) == 2 and all(
        re.fullmatch(r"(ace|king|queen|jack|\d+) of \w+", s) for s in faces
    )
