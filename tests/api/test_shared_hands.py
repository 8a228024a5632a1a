"""Shared hands: a finished hand one link away, opened logged out, showing only what
everyone at the table saw at its end (the cards shown at showdown or by choice), the
sharer's own cards only if they chose so; a revoked link shows nothing. Real database,
real services, a fixed deck."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import Hand, HandShare, Table
from tables.presenters.render import cards_in_html
from tables.services import hand_start, seat_take
from tables.services.errors import CannotShare, NoSuchShare
from tables.services.sharing import hand_share, hand_share_revoke
from tests.api.test_allin_ev import deal
from tests.tables.helpers import act, current_hand, fresh

pytestmark = pytest.mark.django_db

WINNER = ["As", "Ah"]  # the big blind, dealt first: shows first and wins
LOSER = ["7c", "2d"]  # the button: beaten, so mucked unseen
BOARD = ["2c", "9d", "Jh", "Ks", "3s"]


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


def checked_down(monkeypatch, make_table, players, **options) -> tuple[Table, Hand]:
    """Heads-up, checked down to a showdown: the aces show first and win, the button's
    pair of twos is mucked."""
    deal(monkeypatch, [" ".join(WINNER), " ".join(LOSER)], " ".join(BOARD))
    table = make_table(name="Shared", **options)
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    hand_start(table=table)
    hand = current_hand(table)
    act(table, "call")
    act(table, "check")
    for _ in range(3):
        act(table, "check")
        act(table, "check")
    return fresh(table), Hand.objects.get(pk=hand.pk)


def button_player(hand: Hand, players):
    return next(p for p in players if p.pk == hand.seats[hand.button]["player_id"])


def test_a_shared_hand_shows_logged_out_only_what_everyone_saw(monkeypatch, make_table, players):
    table, hand = checked_down(monkeypatch, make_table, players)
    loser = button_player(hand, players)
    share = hand_share(hand_id=hand.pk, player=loser, user=loser.user, own_cards=False)
    assert len(share.token) >= 32  # unguessable: 24 random bytes

    response = Client().get(f"/shared/{share.token}/")
    assert response.status_code == 200
    html = response.content.decode()
    cards = set(cards_in_html(html))
    assert set(WINNER) <= cards and set(BOARD) <= cards  # shown at showdown, and the board
    assert not set(LOSER) & cards  # mucked: nobody saw them
    assert 'id="shared-mark"' in html and "download" not in html  # no file of the hand
    assert f'<meta property="og:title" content="Shared · hand #{hand.number}">' in html
    winner_name = hand.seats[1 - hand.button]["name"]
    assert f"{winner_name} won 4 (" in html  # the result, in the og:description


def test_the_sharer_may_show_their_own_cards_and_no_one_elses(monkeypatch, make_table, players):
    table, hand = checked_down(monkeypatch, make_table, players)
    loser = button_player(hand, players)
    share = hand_share(hand_id=hand.pk, player=loser, user=loser.user, own_cards=True)
    cards = set(cards_in_html(Client().get(f"/shared/{share.token}/").content.decode()))
    assert set(LOSER) <= cards and set(WINNER) <= cards

    carol = players[2]  # watched the public table: no cards of her own to show
    with pytest.raises(CannotShare):
        hand_share(hand_id=hand.pk, player=carol, user=carol.user, own_cards=True)
    watched = hand_share(hand_id=hand.pk, player=carol, user=carol.user, own_cards=False)
    cards = set(cards_in_html(Client().get(f"/shared/{watched.token}/").content.decode()))
    assert not set(LOSER) & cards


def test_a_revoked_or_unknown_link_shows_nothing(monkeypatch, make_table, players):
    table, hand = checked_down(monkeypatch, make_table, players)
    loser = button_player(hand, players)
    share = hand_share(hand_id=hand.pk, player=loser, user=loser.user, own_cards=True)
    with pytest.raises(NoSuchShare):  # only the sharer revokes it
        hand_share_revoke(token=share.token, player=players[2])
    hand_share_revoke(token=share.token, player=loser)
    assert Client().get(f"/shared/{share.token}/").status_code == 404
    assert Client().get("/shared/not-a-token/").status_code == 404
    with pytest.raises(NoSuchShare):  # revoked already
        hand_share_revoke(token=share.token, player=loser)


def test_share_and_revoke_from_the_replayer(monkeypatch, make_table, players):
    table, hand = checked_down(monkeypatch, make_table, players)
    loser = button_player(hand, players)
    client = Client()
    client.force_login(loser.user)
    replayer = client.get(f"/hands/{hand.pk}/").content.decode()
    assert 'id="share"' in replayer and 'name="own_cards"' in replayer
    assert client.post(f"/hands/{hand.pk}/share/", {"own_cards": "1"}).status_code == 302
    share = HandShare.objects.get(hand=hand)
    assert share.own_cards and share.created_by_id == loser.pk
    assert f"/shared/{share.token}/" in client.get(f"/hands/{hand.pk}/").content.decode()
    assert client.post(f"/shared/{share.token}/revoke/").status_code == 302
    assert Client().get(f"/shared/{share.token}/").status_code == 404


def test_a_hand_being_played_or_out_of_sight_cannot_be_shared(
    monkeypatch, make_table, players, make_player
):
    deal(monkeypatch, ["As Ah", "7c 2d"], "2c 9d Jh Ks 3s")
    table = make_table(name="Private", private=True)
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=100)
    hand_start(table=table)
    running = current_hand(table)
    alice = players[0]
    with pytest.raises(CannotShare):
        hand_share(hand_id=running.pk, player=alice, user=alice.user, own_cards=False)
    act(table, "fold")
    stranger = make_player("dave")
    with pytest.raises(CannotShare):  # a private game he never saw
        hand_share(hand_id=running.pk, player=stranger, user=stranger.user, own_cards=False)
    assert not HandShare.objects.exists()
