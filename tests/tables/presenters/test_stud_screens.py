"""The stud games on the site's screens (issue 20): each seat's up-cards in a row for
everyone, the viewer's own down-cards marked down and others' as backs, the streets by name,
the bring-in and completion buttons with their amounts, the hi-lo split and razz lows in the
log and the result; the same in the play state's JSON, which validates against its schema.

The no-leak rule over the site's own output: for many stud, stud hi-lo and razz hands played
through the services with random decisions, after every step each seated player's and a
spectator's rendered HTML and play state hold no card but the viewer's own, the up-cards dealt
so far, the common card, and at the end the hands shown: never another's down-card.
"""

from __future__ import annotations

import random
import re

import jsonschema
import pytest

from engine.bots import RandomBot
from tables.models import Hand
from tables.presenters.play_state import PLAY_STATE, play_state
from tables.presenters.render import cards_in_html, render_regions
from tables.presenters.screen import table_screen
from tables.selectors.hands import hand_state
from tables.selectors.players import player_bankroll
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_act, hand_start, seat_take

pytestmark = pytest.mark.django_db

VALIDATOR = jsonschema.Draft202012Validator(PLAY_STATE)
STUD = {"betting": "fixed-limit", "ante": 1, "bring_in": 2, "small_bet": 5, "max_seats": 8}


def view_of(table, player):
    """(the rendered HTML, the play state) of ``table`` for ``player`` (None: spectator)."""
    snapshot = load_snapshot(table)
    bankroll = player_bankroll(player.pk) if player is not None else None
    screen = table_screen(snapshot, player, bankroll)
    state = play_state(snapshot, screen)
    VALIDATOR.validate(state)
    return render_regions(screen, oob=False), state


@pytest.fixture
def stud_table(make_table, players):
    def make(game: str, seated: int = 3):
        table = make_table(game=game, **STUD)
        for number, player in enumerate(players[:seated]):
            seat_take(table=table, player=player, buy_in=300, seat_number=number)
        return table

    return make


def act_as_actor(table, hand: Hand, action) -> Hand:
    state = hand_state(hand)
    player_id = hand.seats[state.actor]["player_id"]
    table.refresh_from_db()
    return hand_act(
        table=table,
        player=next(p for p in table_players(table) if p.pk == player_id),
        hand_id=hand.pk,
        version=table.version,
        action=action,
    )


def table_players(table):
    return [seat.player for seat in table.seats.select_related("player__user")]


def test_third_street_shows_up_cards_to_all_and_down_cards_to_their_owner(stud_table, players):
    table = stud_table("stud")
    hand = hand_start(table=table)
    table.refresh_from_db()
    state = hand_state(hand)
    alice = players[0]
    html, json_state = view_of(table, alice)
    mine = json_state["seats"][0]
    assert json_state["street"] == "third"
    assert "3rd street" in html
    assert mine["up"] == [False, False, True]
    assert mine["cards"] == [str(c) for c in state.hole[0]], "alice sees her own three cards"
    for other in json_state["seats"][1:3]:
        assert other["up"] == [False, False, True]
        assert other["cards"][:2] == [None, None], "another's down-cards are backs"
        assert other["cards"][2] is not None, "everyone sees the up-card"
    # The HTML groups the down-cards apart from the up-cards; alice's down-cards are faces.
    seat_1 = re.search(r'id="seat-1".*?class="plate', html, re.S).group(0)
    downs, ups = seat_1.split('class="down-cards"')[1].split('class="up-cards"')
    assert cards_in_html(downs) == [str(c) for c in state.hole[0][:2]]
    assert cards_in_html(ups) == [str(state.hole[0][2])]
    seat_2 = re.search(r'id="seat-2".*?class="up-cards"', html, re.S).group(0)
    assert seat_2.count('class="pc back"') == 2
    # A spectator sees every up-card and no down-card.
    _, spectator = view_of(table, None)
    for seat in spectator["seats"][:3]:
        assert seat["cards"][:2] == [None, None] and seat["cards"][2] is not None


def test_the_bring_in_and_the_completion_are_buttons_with_amounts(stud_table, players):
    table = stud_table("razz")
    hand = hand_start(table=table)
    table.refresh_from_db()
    state = hand_state(hand)
    bringer = next(p for p in players if p.pk == hand.seats[state.actor]["player_id"])
    html, json_state = view_of(table, bringer)
    assert json_state["legal"]["call_word"] == "bring in"
    assert json_state["legal"]["raise_word"] == "complete"
    assert (json_state["legal"]["call"], json_state["legal"]["min_raise_to"]) == (2, 5)
    assert "Bring in 2" in html and "Complete to" in html
    assert "Fold" not in re.search(r'id="table-actions".*', html, re.S).group(0)
    hand = act_as_actor(table, hand, "call")  # brings in
    after = hand_state(hand)
    nxt = next(p for p in players if p.pk == hand.seats[after.actor]["player_id"])
    html, json_state = view_of(table, nxt)
    assert json_state["legal"]["call_word"] == "call"
    assert json_state["legal"]["raise_word"] == "complete", "raising the bring-in completes"
    assert "brings in for 2" in html


def play_to_the_end(table, rng: random.Random | None, check=None) -> Hand:
    """Deal a hand and play it out: random decisions, or (``rng`` None) check and call
    down to the showdown."""
    hand = hand_start(table=table)
    for _ in range(200):
        hand.refresh_from_db()
        if check is not None:
            check(table, hand)
        if not hand.is_running:
            return hand
        state = hand_state(hand)
        if rng is None:
            action = "check" if state.legal.check else "call"
        else:
            action = RandomBot(rng).decide(state.view(state.actor))
        hand = act_as_actor(table, hand, action)
    raise AssertionError("the hand did not end")


def test_a_hi_lo_showdown_names_the_high_and_the_low_halves(stud_table, players):
    """Played until a stud hi-lo showdown splits a pot or finds no low: the result and the
    log say which half each winner took ("for high", "for low", "no low")."""
    table = stud_table("stud-hilo", seated=2)
    seen = set()
    for _ in range(40):
        hand = play_to_the_end(table, None)
        result = hand_state(hand).result
        halves = {award.half for award in result.awards}
        if not halves - {""}:
            continue  # won without a showdown
        html, json_state = view_of(table, players[0])
        names = [pot["name"] for pot in json_state["result"]["pots"]]
        for pot, award in zip(json_state["result"]["pots"], result.awards, strict=True):
            assert pot["half"] == award.half
        if "low" in halves:
            assert any(name.endswith("· low") for name in names)
            assert "for low" in html and "for high" in html
        if "whole" in halves:
            assert any(name.endswith("no low") for name in names) and "(no low)" in html
        seen |= halves
        if {"low", "whole"} <= seen:
            break
    assert {"low", "whole"} <= seen, seen


def test_razz_names_its_lows_and_the_log_names_the_streets(stud_table, players):
    table = stud_table("razz", seated=2)
    for _ in range(10):
        hand = play_to_the_end(table, None)
        if hand_state(hand).result.shown:
            break
    else:
        pytest.fail("no razz showdown in 10 hands called down")
    html, json_state = view_of(table, players[0])
    shown = json_state["result"]["shown"]
    assert shown and all(re.search(r"\blow\b", s["description"]) for s in shown), shown
    assert all(len(s["cards"]) == 7 for s in shown)
    for street in ("4th street:", "7th street:"):
        assert street in html
    assert "3rd street:" not in html  # it opens the hand, as preflop does: no empty line


def allowed_cards(hand: Hand, viewer_id: int | None) -> set[str]:
    """What ``viewer_id`` may see now: own cards, every up-card dealt, the common card, and
    once the hand is over the hands shown."""
    state = hand_state(hand)
    seen = {str(c) for c in state.board}
    for index, seat in enumerate(hand.seats):
        cards, up = state.hole[index], state.up[index]
        if seat["player_id"] == viewer_id:
            seen |= {str(c) for c in cards}
        seen |= {str(c) for c, face_up in zip(cards, up, strict=True) if face_up}
    if state.result is not None:
        for cards, _ in state.result.shown.values():
            seen |= {str(c) for c in cards}
    return seen


@pytest.mark.one_pass
@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
def test_no_viewer_ever_sees_another_players_down_cards(stud_table, players, game):
    table = stud_table(game, seated=3)
    rng = random.Random(game)
    viewers = [*players, None]
    checked = 0

    def check(table, hand):
        nonlocal checked
        for viewer in viewers:
            html, state = view_of(table, viewer)
            allowed = allowed_cards(hand, viewer.pk if viewer else None)
            leaked = [card for card in cards_in_html(html) if card not in allowed]
            assert not leaked, (game, hand.number, viewer, leaked)
            in_json = {card for seat in state["seats"] for card in seat["cards"] if card}
            in_json |= {card for line in state["log"] for card in line["cards"]}
            assert in_json <= allowed, (game, hand.number, viewer, in_json - allowed)
            checked += 1

    for _ in range(12):
        play_to_the_end(table, rng, check)
    assert checked > 300


def test_stud_plates_show_no_dealer_button(stud_table, players):
    table = stud_table("stud")
    hand_start(table=table)
    table.refresh_from_db()
    html, _ = view_of(table, players[0])
    screen = table_screen(load_snapshot(table), players[0], None)
    assert not any(s.plate and s.plate.is_button for s in screen.seats.seats)
    assert 'class="dealer"' not in html
