"""Showing cards by choice once a hand is over (``Hand.reveal``): only the cards shown are
seen, by everyone; never while the hand is played; never a card not the seat's own."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.errors import IllegalAction
from engine.hand import Action, Hand
from engine.types import EventKind
from tests.engine.test_hand_rules import NL, make_deck

HOLES = ["AsAh", "7c2d", "KsKh"]


def engine_hand(holes: list[str], board: str, actions: list[str]) -> Hand:
    deck = make_deck(len(holes), 0, dict(enumerate(holes)), board)
    return Hand.replay(NL, [200] * len(holes), 0, deck, [Action.parse(a) for a in actions])


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(text[i : i + 2]) for i in range(0, len(text), 2))


def test_a_folded_seat_shows_one_card_and_only_it_is_seen():
    hand = engine_hand(HOLES, "9c5d3h8sJd", ["fold", "fold"])  # alice folds, bob folds
    assert hand.reveal(0, cards("As")) == cards("As")
    for viewer in (None, 1, 2):
        seen = hand.visible_cards(viewer)
        assert Card.parse("As") in seen and Card.parse("Ah") not in seen
        assert hand.view(viewer).seats[0].cards == cards("As")
    assert hand.events[-1].kind is EventKind.REVEAL and hand.events[-1].cards == cards("As")
    assert hand.view(0).seats[0].cards == cards("AsAh")  # her own, as before


def test_the_winner_without_a_showdown_shows_both_cards():
    hand = engine_hand(HOLES, "9c5d3h8sJd", ["fold", "fold"])
    assert hand.view(None).seats[2].cards == (None, None)
    hand.reveal(2, cards("KhKs"))
    assert hand.view(None).seats[2].cards == cards("KsKh")  # in the hand's order


def test_refusals():
    running = engine_hand(HOLES, "9c5d3h8sJd", [])
    with pytest.raises(IllegalAction, match="once the hand is over"):
        running.reveal(0, cards("As"))
    hand = engine_hand(HOLES, "9c5d3h8sJd", ["fold", "fold"])
    with pytest.raises(IllegalAction, match="own hand"):
        hand.reveal(1, cards("As"))
    with pytest.raises(IllegalAction, match="own hand"):
        hand.reveal(1, ())
    hand.reveal(0, cards("As"))
    with pytest.raises(IllegalAction, match="already"):
        hand.reveal(0, cards("As"))
    events = len(hand.events)
    hand.reveal(0, cards("AsAh"))  # the card not yet shown
    assert hand.events[-1].cards == cards("Ah") and len(hand.events) == events + 1
