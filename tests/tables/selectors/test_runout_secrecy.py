"""A run-out's end is secret until its last street is on the table (issue 32 item 5): the
engine settles an all-in hand at once, but while the board still comes street by street the
API's hand detail and files, the hand lists, the replayer and the admin treat the hand as
running (no board, result, seed or deck). The croupier is ticked at injected times."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine.cards import Card
from tables.croupier import Croupier
from tables.models import Hand
from tables.models.hands import runout_showing_q
from tables.selectors.hands import hand_secret
from tables.services import hand_start, seat_take
from tests.tables.helpers import act, current_hand, fresh

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def paced(settings):
    settings.POKER_RUNOUT_PAUSE_SECONDS = 1.5
    settings.POKER_HAND_PAUSE_SECONDS = 4
    settings.POKER_CROUPIER = False


@pytest.fixture
def showing(make_table, players) -> Hand:
    """alice and bob all in before the flop: the hand is finished, its board still to come."""
    table = make_table(name="Run-out")
    alice, bob, _ = players
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    hand_start(table=table)
    hand = current_hand(fresh(table))
    act(table, "all_in")
    act(table, "call")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.runout_showing
    return hand


def api_for(player) -> APIClient:
    client = APIClient()
    client.force_login(player.user)
    return client


def deal_the_rest(hand: Hand) -> None:
    """Tick the croupier street by street until the river is on the table."""
    croupier = Croupier()
    for _ in range(10):
        hand.refresh_from_db()
        if not hand.runout_showing:
            return
        croupier.tick(fresh(hand.table).next_hand_at)
    raise AssertionError("the run-out never reached the river")


def board_texts(hand: Hand) -> list[str]:
    """The five board cards as the API and the files would write them."""
    deck = hand_secret(hand).deck
    return [str(Card(c)) for c in deck[4:9]]  # after two hole cards each, heads-up


def test_the_api_serves_no_board_or_result_before_the_river_is_shown(showing, players):
    alice = players[0]
    client = api_for(alice)
    for suffix in ("", "phh/", "yaml/"):
        answer = client.get(f"/api/hands/{showing.pk}/{suffix}")
        assert (answer.status_code, answer.json()["code"]) == (409, "hand_running"), suffix
    listed = client.get("/api/hands/").json()["results"]
    assert showing.pk not in [row["id"] for row in listed]

    deal_the_rest(showing)
    answer = client.get(f"/api/hands/{showing.pk}/")
    assert answer.status_code == 200
    assert len(answer.json()["board"]) == 5 and answer.json()["result"] is not None
    listed = client.get("/api/hands/").json()["results"]
    assert showing.pk in [row["id"] for row in listed]


def test_the_replayer_waits_for_the_river(showing, players):
    web = Client()
    web.force_login(players[0].user)
    url = reverse("stats:hand", args=[showing.pk])
    assert web.get(url).status_code == 409
    deal_the_rest(showing)
    assert web.get(url).status_code == 200


def test_the_admin_hides_seed_deck_and_result_until_the_river(showing, django_user_model):
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("boss", password="x"))
    url = reverse("admin:tables_hand_change", args=[showing.pk])
    page = admin.get(url).content.decode()
    assert hand_secret(showing).seed not in page
    assert " ".join(board_texts(showing)) not in page
    assert "hidden until the hand is over" in page
    deal_the_rest(showing)
    page = admin.get(url).content.decode()
    assert hand_secret(showing).seed in page


def test_the_query_and_the_property_agree(showing):
    assert list(Hand.objects.filter(runout_showing_q())) == [showing]
    deal_the_rest(showing)
    assert not Hand.objects.filter(runout_showing_q()).exists()
    showing.refresh_from_db()
    assert not showing.in_play
