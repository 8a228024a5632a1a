"""Hands played through the real services: summary rows written at hand end, the PHH
download replays to the stored result, and the browser pages (stats chart, replayer)."""

from __future__ import annotations

import random

from engine import phh
from engine.bots import RandomBot
from tables.models import Hand, PlayerHand
from tables.selectors.hands import hand_state
from tables.services import hand_start, seat_take
from tables.stats.figures import Totals, seat_figures
from tables.stats.selectors import player_stats


def play_hands(table, players, count: int, seed: int = 7, choose=None):
    """``count`` hands played through ``hand_start``/``hand_act``, each actor choosing
    ``choose(hand)`` (by default a random bot's action: someone may bust early)."""
    from tests.tables import helpers

    rng = random.Random(seed)
    bot = RandomBot(rng)
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=200, seat_number=number)

    def random_bot(hand):
        state = hand_state(hand)
        return bot.decide(state.view(state.actor))

    choose = choose or random_bot

    finished = []
    for _ in range(count):
        if table.seats.filter(stack__gt=0).count() < 2:
            break
        hand_start(table=table)
        finished.append(helpers.play_out(table, choose))
    return finished


def test_hand_end_writes_the_summary_rows(table, players):
    hands = play_hands(table, players, 12)
    assert hands and all(h.status == Hand.Status.FINISHED for h in hands)
    for hand in hands:
        assert PlayerHand.objects.filter(hand=hand).count() == len(hand.seats)
    for player in players:
        pure = Totals()
        for hand in hands:
            seat = hand.seat_index_of(player.pk)
            if seat is not None:
                pure.add(seat_figures(hand_state(hand))[seat])
        assert player_stats(player) == pure.stats()


def test_phh_downloads_of_played_hands_replay_to_the_stored_result(table, players, client_for):
    hands = play_hands(table, players, 12, seed=11)
    for hand in hands:
        for viewer in players:
            text = client_for(viewer).get(f"/api/hands/{hand.pk}/phh/").content.decode()
            replayed = phh.loads(text).replay()
            n = len(hand.seats)
            order = [(hand.button + 1 + k) % n for k in range(n)]
            mucked = any(e.kind == "muck" for e in hand_state(hand).events)
            if not mucked:  # a mucked hand's cards are unknown: the file cannot say who lost
                assert list(replayed.result.net) == [hand.result["net"][s] for s in order]
            assert [replayed.starting_stacks[i] for i in range(n)] == [
                hand.seats[s]["stack"] for s in order
            ]


def test_stats_page_has_the_figures_and_the_chart(table, players, client_for):
    play_hands(table, players, 6, seed=3)
    alice = players[0]
    page = client_for(players[1]).get(f"/players/{alice.pk}/stats/")
    assert page.status_code == 200
    html = page.content.decode()
    stats = player_stats(alice)
    assert f"<dd>{stats['hands']}</dd>" in html
    assert "<polyline" in html and "W$SD" in html and "bb/100" in html
    assert client_for(alice).get("/players/me/stats/")["Location"] == f"/players/{alice.pk}/stats/"


def test_replayer_steps_through_a_finished_hand(table, players, client_for):
    hand = play_hands(table, players, 1, seed=5)[0]
    response = client_for(players[0]).get(f"/hands/{hand.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    # the deal, each decision, each street dealt, the award
    streets = len(hand_state(hand).board) and {3: 1, 4: 2, 5: 3}[len(hand_state(hand).board)]
    steps = 1 + hand.actions.count() + streets + 1
    assert html.count('<template class="replay-felt">') == steps
    assert "Cards dealt, blinds posted" in html and "js/replayer.js" in html
    assert client_for(players[0]).get("/hands/999999/").status_code == 404


def test_leaderboard_page(table, players, api):
    from tables.stats.selectors import leaderboard
    from tests.tables.helpers import passive_action

    # Checking and calling, nobody busts: all three reach the page's ten-hand minimum.
    assert len(play_hands(table, players, 12, choose=passive_action)) == 12
    html = api.get("/leaderboard/?order=hands").content.decode()
    ranked = [row["name"] for row in leaderboard("hands", min_hands=10)]
    assert ranked and all(f">{name}</a>" in html for name in ranked)
    assert html.index(f">{ranked[0]}</a>") < html.index(f">{ranked[-1]}</a>") or len(ranked) == 1
