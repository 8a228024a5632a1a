"""The hand's deck lives in HandSecret; the reads that replay a hand bring it in the statement
that reads the hand, so the live path reads no more rows than when it was a field of Hand."""

import pytest

from engine.deck import seeded_deck
from tables.models import Hand, HandSecret
from tables.selectors.hands import hand_deck, hand_secret, running_hand
from tables.selectors.snapshot import load_snapshot
from tables.services import hand_start, seat_take

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(players, table):
    for player in players[:2]:
        seat_take(table=table, player=player, buy_in=200)
    hand = hand_start(table=table)
    table.refresh_from_db()
    return table, hand


def test_a_table_snapshot_reads_the_deck_with_the_hand(dealt, django_assert_num_queries):
    table, hand = dealt
    # the table with its seats, the hand on screen with its deck, its actions, recent hands,
    # the notices for the log, the table's version again (nothing committed in between)
    with django_assert_num_queries(6):
        snapshot = load_snapshot(table.pk)
    secret = HandSecret.objects.get(hand=hand)
    assert snapshot.hand.secret_deck == secret.deck
    assert [int(card) for card in snapshot.state._deck] == secret.deck  # replayed from it


def test_the_running_hand_comes_with_its_deck(dealt, django_assert_num_queries):
    table, hand = dealt
    with django_assert_num_queries(1):
        deck = hand_deck(running_hand(table))
    assert deck == HandSecret.objects.get(hand=hand).deck


def test_a_hand_read_without_it_reads_its_secret_once(dealt, django_assert_num_queries):
    _, hand = dealt
    fresh = Hand.objects.get(pk=hand.pk)
    with django_assert_num_queries(1):
        deck, seed = hand_deck(fresh), hand_secret(fresh).seed
        assert hand_deck(fresh) is deck and hand_secret(fresh).seed is seed
    assert [int(c) for c in seeded_deck(seed)] == deck
