"""No view shows another seat's hole cards before the hand lets it: only the hands shown at
showdown and, once nobody can bet any more, the live hands (turned face up for the run-out).
Checked at every step of random hands with straddles, bomb pots and run it twice."""

import random

from engine.hand import Hand, HandConfig
from engine.randomhands import random_action, random_deck, random_stacks
from engine.types import EventKind


def random_config(rng, players):
    extra = {}
    roll = rng.random()
    if roll < 0.25:
        extra = {"bomb_pot": rng.choice((1, 2, 5))}
    elif roll < 0.5 and players >= 3:
        extra = {"straddle": 4, "straddles": rng.randint(1, min(3, players - 2))}
    return HandConfig(
        game=rng.choice(("holdem", "omaha")),
        betting="pot-limit",
        small_blind=1,
        big_blind=2,
        run_it_twice=rng.random() < 0.7,
        **extra,
    )


def check_views(hand):
    live = [not f for f in hand.folded]
    for viewer in (None, *range(hand.seats)):
        view = hand.view(viewer)
        shown = set(view.result.shown) if view.result else set()
        for seat in view.seats:
            if (
                seat.seat == viewer
                or seat.seat in shown
                or (hand.no_more_betting and live[seat.seat])
            ):
                assert seat.cards == hand.hole[seat.seat]
            else:
                assert all(card is None for card in seat.cards), (viewer, seat)
        for event in view.events:
            if event.kind is EventKind.DEAL_HOLE and event.seat != viewer:
                assert event.cards == ()
        assert view.board == tuple(hand.board)
        assert view.second_board == tuple(hand.second_board)


def test_no_view_shows_a_hole_card_before_showdown_or_the_end_of_betting():
    rng = random.Random(11)
    face_up_runouts = 0
    for _ in range(150):
        players = rng.randint(2, 9)
        config = random_config(rng, players)
        stacks = random_stacks(rng, players, 2)
        hand = Hand(config, stacks, rng.randrange(players), random_deck(rng, players, 4, False))
        check_views(hand)
        while not hand.is_over:
            if hand.runs_due:
                face_up_runouts += 1
                hand.choose_runs(rng.choice((1, 2)))
            else:
                hand.act(random_action(hand, rng))
            check_views(hand)
    assert face_up_runouts >= 20
