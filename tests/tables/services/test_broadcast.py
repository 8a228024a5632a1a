"""The hole-card broadcast's consent (issue 53): the host proposes it, and a hand is
broadcast only when every seated player agreed before it was dealt."""

import pytest

from tables.models import BroadcastConsent, Hand, Table, TableNotice
from tables.services import hand_start, seat_take
from tables.services.broadcast import (
    BroadcastNotProposed,
    broadcast_agree,
    broadcast_withdraw,
    table_broadcast_propose,
    table_broadcast_stop,
)
from tables.services.errors import InvalidSettings, NotHost, NotSeated

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(players, make_table):
    alice, bob, carol = players
    table = make_table(name="Stream", host=alice)
    seat_take(table=table, player=alice, buy_in=100)
    seat_take(table=table, player=bob, buy_in=100)
    return table


def finish(play, table):
    """Fold the running hand away."""
    while play.current_hand(table).is_running:
        play.act(table, "fold")
        if not Hand.objects.filter(table=table, status="running").exists():
            break


def deal(table) -> Hand:
    return hand_start(table=Table.objects.get(pk=table.pk))


def test_on_only_when_every_seated_player_agreed(game, players, play):
    alice, bob, _ = players
    table_broadcast_propose(table=game, by=alice.user, delay="street")
    broadcast_agree(table=game, player=alice)
    assert deal(game).broadcast == ""  # bob has not agreed: off
    finish(play, game)
    broadcast_agree(table=game, player=bob)
    assert deal(game).broadcast == "street"
    texts = list(TableNotice.objects.filter(table=game).values_list("text", flat=True))
    assert any("proposes" in t for t in texts)
    assert any(t.startswith("bob agrees") for t in texts)


@pytest.mark.parametrize(
    ("delay", "minutes", "stored"),
    [("street", 5, "street+tv"), ("minutes", 120, "m120+tv"), ("none", 5, "0+tv")],
)
def test_the_longest_codes_with_the_room_screen_are_stored(game, players, delay, minutes, stored):
    # The hand row keeps the code as it is (PostgreSQL refuses a value longer than its column,
    # where SQLite keeps it: this test runs on both).
    alice, bob, _ = players
    table_broadcast_propose(
        table=game, by=alice.user, delay=delay, minutes=minutes, room_screen=True
    )
    for player in (alice, bob):
        broadcast_agree(table=game, player=player)
    hand = deal(game)
    assert Hand.objects.get(pk=hand.pk).broadcast == stored


def test_a_refusal_keeps_it_off(game, players, play):
    alice, bob, _ = players
    table_broadcast_propose(table=game, by=alice.user, delay="none")
    broadcast_agree(table=game, player=alice)  # bob never agrees
    for _ in range(3):
        assert deal(game).broadcast == ""
        finish(play, game)


def test_a_newcomer_is_asked_and_it_is_off_until_they_agree(game, players, play):
    alice, bob, carol = players
    table_broadcast_propose(table=game, by=alice.user, delay="minutes", minutes=3)
    broadcast_agree(table=game, player=alice)
    broadcast_agree(table=game, player=bob)
    assert deal(game).broadcast == "m3"
    finish(play, game)
    seat_take(table=game, player=carol, buy_in=100)
    assert deal(game).broadcast == ""
    finish(play, game)
    broadcast_agree(table=game, player=carol)
    assert deal(game).broadcast == "m3"


def test_a_withdrawal_stops_it_from_the_next_hand(game, players, play):
    alice, bob, _ = players
    table_broadcast_propose(table=game, by=alice.user, delay="hand")
    broadcast_agree(table=game, player=alice)
    broadcast_agree(table=game, player=bob)
    hand = deal(game)
    broadcast_withdraw(table=game, player=bob)
    hand.refresh_from_db()
    assert hand.broadcast == "hand"  # the hand being played keeps what it was dealt with
    assert TableNotice.objects.filter(table=game, text__startswith="bob withdrew").exists()
    finish(play, game)
    assert deal(game).broadcast == ""


def test_a_changed_proposal_asks_everyone_again(game, players, play):
    alice, bob, _ = players
    table_broadcast_propose(table=game, by=alice.user, delay="hand")
    broadcast_agree(table=game, player=alice)
    broadcast_agree(table=game, player=bob)
    table_broadcast_propose(table=game, by=alice.user, delay="none")
    assert not BroadcastConsent.objects.filter(table=game).exists()
    assert deal(game).broadcast == ""
    finish(play, game)
    table_broadcast_stop(table=game, by=alice.user)
    with pytest.raises(BroadcastNotProposed):
        broadcast_agree(table=game, player=alice)


def snapshot(table):
    table = Table.objects.get(pk=table.pk)
    fields = ("broadcast_proposed", "broadcast_delay", "broadcast_minutes", "version")
    return (
        tuple(getattr(table, f) for f in fields),
        list(BroadcastConsent.objects.filter(table=table).values_list("player_id", flat=True)),
        TableNotice.objects.filter(table=table).count(),
    )


@pytest.mark.parametrize(
    "attempt, error",
    [
        (lambda t, a, b, c: table_broadcast_propose(table=t, by=b.user, delay="none"), NotHost),
        (lambda t, a, b, c: table_broadcast_stop(table=t, by=c.user), NotHost),
        (
            lambda t, a, b, c: table_broadcast_propose(table=t, by=a.user, delay="x"),
            InvalidSettings,
        ),
        (
            lambda t, a, b, c: table_broadcast_propose(
                table=t, by=a.user, delay="minutes", minutes=0
            ),
            InvalidSettings,
        ),
        (
            lambda t, a, b, c: table_broadcast_propose(
                table=t, by=a.user, delay="minutes", minutes="5"
            ),
            InvalidSettings,
        ),
        (lambda t, a, b, c: broadcast_agree(table=t, player=c), NotSeated),
        (lambda t, a, b, c: broadcast_withdraw(table=t, player=c), NotSeated),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(game, players, attempt, error):
    alice, bob, carol = players
    table_broadcast_propose(table=game, by=alice.user, delay="street")
    broadcast_agree(table=game, player=alice)
    before = snapshot(game)
    with pytest.raises(error):
        attempt(game, alice, bob, carol)
    assert snapshot(game) == before
