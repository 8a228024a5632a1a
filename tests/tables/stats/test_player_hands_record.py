"""``player_hands_record``: the summary rows of a hand that ends, written from their values
(``insert_many(..., model=PlayerHand)``, no instance made), are exactly the rows
the ORM stores for ``PlayerHand`` instances built field by field from the hand's figures (how
they were written before): every column, as the database holds it. Real services, on SQLite
and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from engine.allin_ev import has_allin_ev
from tables.models import Hand, PlayerHand
from tables.selectors.hands import hand_state, with_deck
from tables.services import hand_start, seat_take
from tables.stats.figures import seat_figures
from tables.stats.player_hands import player_hands_record, player_hands_rows
from tests.api.test_allin_ev import aces_against_kings
from tests.tables.helpers import act, current_hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_croupier(settings):
    settings.POKER_CROUPIER = False


def stored(hand: Hand) -> list[tuple]:
    """The hand's summary rows as the database holds them, every column but the key."""
    columns = [f.column for f in PlayerHand._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(map(quote, columns))} FROM {quote(PlayerHand._meta.db_table)} "
            f"WHERE {quote('hand_id')} = %s ORDER BY {quote('seat')}",
            [hand.pk],
        )
        return cursor.fetchall()


def as_before(hand: Hand) -> list[PlayerHand]:
    """The rows as ``player_hands_rows`` built them before: instances, field by field."""
    state = hand_state(hand)
    all_in = has_allin_ev(state)
    return [
        PlayerHand(
            hand=hand,
            player_id=seat["player_id"],
            table_id=hand.table_id,
            seat=figures.seat,
            started_at=hand.started_at,
            game=state.config.game,
            big_blind=figures.big_blind,
            contributed=figures.contributed,
            collected=figures.collected,
            net=figures.net,
            net_bb=figures.net_bb,
            vpip=figures.vpip,
            pfr=figures.pfr,
            three_bet_chance=figures.three_bet_chance,
            three_bet=figures.three_bet,
            saw_flop=figures.saw_flop,
            showdown=figures.showdown,
            won_at_showdown=figures.won_at_showdown,
            postflop_aggressive=figures.postflop_aggressive,
            postflop_calls=figures.postflop_calls,
            all_in=all_in,
            ev_net=None if all_in else figures.net,
            ev_net_bb=None if all_in else figures.net_bb,
        )
        for seat, figures in zip(hand.seats, seat_figures(state), strict=True)
    ]


def assert_rows_as_before(hand: Hand) -> None:
    hand = with_deck(Hand.objects).get(pk=hand.pk)
    assert hand.status == Hand.Status.FINISHED
    written = stored(hand)  # by the hand's end (hooks.hand_finished)
    assert len(written) == len(hand.seats)
    PlayerHand.objects.filter(hand=hand).delete()
    PlayerHand.objects.bulk_create(as_before(hand))
    assert stored(hand) == written
    PlayerHand.objects.filter(hand=hand).delete()
    PlayerHand.objects.bulk_create(player_hands_rows(hand, hand_state(hand)))
    assert stored(hand) == written
    PlayerHand.objects.filter(hand=hand).delete()
    with transaction.atomic():
        player_hands_record(hand, hand_state(hand))
    assert stored(hand) == written


def test_an_all_in_hand_stores_the_rows_the_orm_stored(monkeypatch, make_table, players):
    _, hand = aces_against_kings(monkeypatch, make_table, players)
    assert_rows_as_before(hand)
    assert {row.all_in for row in PlayerHand.objects.filter(hand=hand)} == {True}


def test_a_called_down_and_a_folded_hand_store_the_rows_the_orm_stored(make_table, players):
    table = make_table(name="Rows")
    for player in players:
        seat_take(table=table, player=player, buy_in=200)
    hand_start(table=table)
    hand = current_hand(table)
    act(table, "raise 6")
    act(table, "call")
    act(table, "fold")
    for _ in range(3):  # flop, turn, river: a bet and a call, checks
        act(table, "bet 4")
        act(table, "call")
    assert_rows_as_before(hand)
    hand_start(table=table)
    folded = current_hand(table)
    act(table, "fold")
    act(table, "fold")
    assert_rows_as_before(folded)
    rows = PlayerHand.objects.filter(hand=folded)
    assert [(row.all_in, row.ev_net == row.net) for row in rows] == [(False, True)] * 3
