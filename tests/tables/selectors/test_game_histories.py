"""Issue 20's games after the hand: the hand history (JSON and PHH), the replayer and the
statistics for stud, razz, stud hi-lo and Omaha hi-lo hands played on the site, each seen
by one player (never another's down-cards)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables.models import Hand, PlayerHand
from tables.selectors.hands import hand_state
from tables.services import hand_act, hand_start, seat_take
from tables.stats.figures import seat_figures

pytestmark = pytest.mark.django_db

STUD = {"betting": "fixed-limit", "ante": 1, "bring_in": 2, "small_bet": 5, "max_seats": 8}
GAMES = {
    "stud": ("F7S", STUD),
    "stud-hilo": ("F7S/8", STUD),
    "razz": ("FR", STUD),
    "omaha-hilo": ("PO/8", {"betting": "pot-limit"}),
}


def called_down(table, players) -> Hand:
    """One hand checked and called down to the showdown."""
    hand = hand_start(table=table)
    by_id = {p.pk: p for p in players}
    while True:
        hand.refresh_from_db()
        if not hand.is_running:
            return hand
        state = hand_state(hand)
        table.refresh_from_db()
        hand_act(
            table=table,
            player=by_id[hand.seats[state.actor]["player_id"]],
            hand_id=hand.pk,
            version=table.version,
            action="check" if state.legal.check else "call",
        )


@pytest.fixture
def played(make_table, players):
    def play(game: str) -> tuple[Hand, list]:
        table = make_table(game=game, **GAMES[game][1])
        for number, player in enumerate(players[:2]):
            seat_take(table=table, player=player, buy_in=200, seat_number=number)
        return called_down(table, players[:2]), players[:2]

    return play


def web(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_phh_download_writes_the_games_variant_and_only_cards_seen(played, game):
    hand, (alice, bob) = played(game)
    state = hand_state(hand)
    text = web(alice).get(f"/api/hands/{hand.pk}/phh/").content.decode()
    assert f'variant = "{GAMES[game][0]}"' in text
    seen = state.visible_cards(hand.seat_index_of(alice.pk))
    for index in range(2):
        for card in state.hole[index]:
            if card not in seen:
                assert str(card) not in text, f"{card} leaked into alice's PHH"


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_a_stud_history_names_its_streets_and_the_bring_in(played, game):
    hand, (alice, _) = played(game)
    history = web(alice).get(f"/api/hands/{hand.pk}/").json()
    streets = {action["street"] for action in history["actions"]}
    assert streets <= {"third", "fourth", "fifth", "sixth", "seventh"} and "seventh" in streets
    assert history["actions"][0]["kind"] == "bring_in"
    mine = next(s for s in history["seats"] if s["player_id"] == alice.pk)
    assert mine["up"] == [False, False, True, True, True, True, False]


def test_the_replayer_steps_through_stud_street_by_street(played):
    hand, (alice, bob) = played("stud-hilo")
    page = web(alice).get(f"/hands/{hand.pk}/").content.decode()
    for label in ("3rd street dealt, antes posted", "brings in for 2", "4th street dealt"):
        assert label in page, label
    assert "7th street dealt" in page
    assert 'class="hole stud"' in page and 'class="down-cards"' in page


def test_the_replayer_labels_a_hi_lo_split(played):
    for _ in range(20):
        hand, (alice, _) = played("omaha-hilo")
        halves = {award.half for award in hand_state(hand).result.awards}
        if "low" in halves:
            break
    else:
        pytest.fail("no Omaha hi-lo low in 20 hands called down")
    page = web(alice).get(f"/hands/{hand.pk}/").content.decode()
    assert re.search(r"Pot · low", page) and re.search(r"Pot · high", page)


def test_statistics_count_third_street_as_preflop_and_filter_by_game(played):
    hand, (alice, bob) = played("stud")
    figures = seat_figures(hand_state(hand))
    bringer = hand_state(hand).events  # the bring-in is forced: not voluntary
    assert any(e.kind == "bring_in" for e in bringer)
    # called down: the bring-in's seat never put money in voluntarily on 3rd street, the
    # other called it; both saw 4th street and the showdown
    assert sorted(f.vpip for f in figures) == [False, True]
    assert all(f.saw_flop and f.showdown for f in figures)
    assert {f.big_blind for f in figures} == {5}, "stud's unit is the small bet"
    rows = PlayerHand.objects.filter(hand=hand)
    assert {row.game for row in rows} == {"stud"}
    client = web(alice)
    stats = client.get(f"/api/players/{alice.pk}/stats/?game=stud").json()
    assert (stats["hands"], stats["game"]) == (1, "stud")
    assert client.get(f"/api/players/{alice.pk}/stats/?game=holdem").json()["hands"] == 0
    assert client.get(f"/api/players/{alice.pk}/stats/?game=chess").status_code == 400
    page = client.get(f"/players/{alice.pk}/stats/?game=stud").content.decode()
    assert '<option value="stud" selected>' in page
    assert client.get(f"/players/{alice.pk}/stats/?game=chess").status_code == 400
