"""Show your cards (issue 31 item 6): once a hand is over and until the next one starts, a
player dealt in shows all or one of their cards; everyone sees exactly those, in the table's
log, the replayer and the histories (JSON, PHH, PokerStars); refusals change nothing."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tables.models import Hand
from tables.operations import run_op
from tables.selectors.hands import hand_state
from tables.selectors.replay import hand_replay_steps
from tables.services import cards_show, hand_start, seat_take
from tables.services.errors import HandNotRunning, IllegalMove, NotSeated
from tests.api.helpers import engine_hand, store_hand

# alice (the button) and bob fold before the flop: carol wins without a showdown.
HOLES = ["AsAh", "7c2d", "KsKh"]


@pytest.fixture
def folded(players, table):
    state = engine_hand(HOLES, "9c5d3h8sJd", ["fold", "fold"])
    return store_hand(table, players, state, number=1)


def seen_by(hand: Hand, seat: int | None) -> set[str]:
    return {str(c) for c in hand_state(Hand.objects.get(pk=hand.pk)).visible_cards(seat)}


def api(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


@pytest.mark.django_db
def test_a_folded_player_shows_one_card_and_only_that_card_is_seen(players, table, folded):
    alice, bob, carol = players
    assert cards_show(table=table, player=alice, hand_id=folded.pk, cards=["As"]) == (
        hand_state(folded).hole[0][0],
    )
    for seat in (None, 1, 2):
        assert "As" in seen_by(folded, seat) and "Ah" not in seen_by(folded, seat)
    # the winner without a showdown shows both
    run_op(table_id=table.pk, user=carol.user, data={"op": "show_cards", "hand": folded.pk})
    assert {"Ks", "Kh"} <= seen_by(folded, None)
    assert Hand.objects.get(pk=folded.pk).shown_cards == [[0, ["As"]], [2, ["Ks", "Kh"]]]
    # the replayer's last steps and the histories say so; the other card stays hidden
    labels = [step.label for step in hand_replay_steps(Hand.objects.get(pk=folded.pk), None)]
    assert labels[-2:] == ["alice shows As", "carol shows Ks Kh"]
    outsider = api(bob)
    history = json.dumps(outsider.get(f"/api/hands/{folded.pk}/").json())
    assert '"As"' in history and '"Ah"' not in history
    phh = outsider.get(f"/api/hands/{folded.pk}/phh/").content.decode()
    assert "As??" in phh
    assert "Ah" not in phh
    assert outsider.get(f"/api/hands/{folded.pk}/yaml/").status_code == 200
    stars = outsider.get(f"/api/hands/{folded.pk}/pokerstars/").content.decode()
    assert "alice: shows [As]" in stars and "carol: shows [Ks Kh]" in stars
    assert "Ah" not in stars


@pytest.mark.django_db
def test_refusals_change_nothing(players, table, folded, make_player):
    alice, bob, carol = players
    with pytest.raises(IllegalMove, match="own hand") as error:
        cards_show(table=table, player=bob, hand_id=folded.pk, cards=["As"])
    assert error.value.code == "cannot_show"
    with pytest.raises(IllegalMove):
        cards_show(table=table, player=bob, hand_id=folded.pk, cards=["Zz"])
    with pytest.raises(NotSeated):
        cards_show(table=table, player=make_player("dave"), hand_id=folded.pk)
    cards_show(table=table, player=alice, hand_id=folded.pk)
    with pytest.raises(IllegalMove, match="already"):
        cards_show(table=table, player=alice, hand_id=folded.pk, cards=["Ah"])
    assert Hand.objects.get(pk=folded.pk).shown_cards == [[0, ["As", "Ah"]]]


@pytest.mark.django_db
def test_a_loser_at_showdown_is_mucked_and_may_show(players, table):
    alice, bob, carol = players
    # alice raises, bob folds, carol calls; checked to the river, where alice bets and carol
    # calls: alice's aces show first, carol's kings are mucked
    moves = ["raise 6", "fold", "call", *["check"] * 5, "bet 10", "call"]
    state = engine_hand(HOLES, "9c5d3h8sJd", moves)
    hand = store_hand(table, players, state, number=1)
    assert "Ks" not in seen_by(hand, None)  # mucked
    cards_show(table=table, player=carol, hand_id=hand.pk, cards=["Kh"])
    assert "Kh" in seen_by(hand, None) and "Ks" not in seen_by(hand, None)


@pytest.mark.django_db
def test_once_the_next_hand_started_it_is_too_late(players, table, folded):
    running = engine_hand(HOLES, "9c5d3h8sJd", [])
    store_hand(table, players, running, number=2)
    with pytest.raises(HandNotRunning, match="next one starts"):
        cards_show(table=table, player=players[0], hand_id=folded.pk)
    assert Hand.objects.get(pk=folded.pk).shown_cards == []


@pytest.mark.django_db
def test_the_play_api_shows_cards_and_answers_the_state(players, table, play):
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=200, seat_number=0)
    seat_take(table=table, player=bob, buy_in=200, seat_number=1)
    hand = hand_start(table=table)
    folder = play.actor(hand)
    other = bob if folder == alice else alice
    play.act(table, "fold")
    mine = [str(c) for c in hand_state(hand).hole[hand.seat_index_of(folder.pk)]]
    url = f"/api/tables/{table.pk}/show/"
    answer = api(folder).post(url, {"hand": hand.pk, "cards": [mine[1]]}, format="json")
    assert answer.status_code == 200, answer.content
    assert mine[1] in seen_by(hand, None) and mine[0] not in seen_by(hand, None)
    refused = api(other).post(url, {"hand": hand.pk, "cards": [mine[0]]}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "cannot_show"
