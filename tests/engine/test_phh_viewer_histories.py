"""A viewer's own hand history (issue 49's known gap): the PHH a player downloads names only the
cards they saw, and it reads back to the hand that was played, in every game the site deals.

Two faults broke it: a seat that mucked at the showdown was replayed with made-up cards, which
could win what it had lost; and a stud history left out the up-cards of the seats that folded
and read a hidden dealing (``????``) as no cards at all, so the up-cards landed in the wrong
places and another seat brought it in.
"""

from __future__ import annotations

import random

import pytest

from engine import phh
from engine.bots import RandomBot
from engine.deck import seeded_deck
from engine.errors import FormatCannotHold
from engine.hand import Hand
from engine.phh.variants import phh_code
from engine.variants import stakes_for
from tests.engine.played_games import GAMES, STAKES

SEEDS = range(12)


def _has_phh(game: str, betting: str) -> bool:
    try:
        phh_code(game, betting)
    except FormatCannotHold:
        return False
    return True


#: Every game the site deals that PHH can hold (the others are refused by name elsewhere).
PHH_GAMES = [(game, betting) for game, betting in GAMES if _has_phh(game, betting)]


def random_hand(game: str, betting: str, seed: int) -> Hand:
    """``game`` played to its end by random bots at two to six seats, on a fixed deck."""
    rng = random.Random(seed)
    config = stakes_for(game, betting, STAKES)
    seats = rng.randint(2, 6)
    hand = Hand(
        config, [rng.randint(5, 200) for _ in range(seats)], seats - 1, seeded_deck(f"{seed}")
    )
    bot = RandomBot(rng)
    while not hand.is_over:
        if hand.runs_due:
            hand.choose_runs(1)
        elif hand.draw_due:
            hand.discard(())
        else:
            assert hand.actor is not None
            hand.act(bot.decide(hand.view(hand.actor)))
    return hand


@pytest.mark.parametrize(("game", "betting"), PHH_GAMES, ids=[f"{g}-{b}" for g, b in PHH_GAMES])
def test_each_viewer_s_history_reads_back_to_the_hand_and_names_only_what_they_saw(game, betting):
    for seed in SEEDS:
        hand = random_hand(game, betting, seed)
        for viewer in range(hand.seats):
            seen = hand.history_cards(viewer)
            assert set(hand.hole[viewer]) <= seen
            text = phh.dumps(hand, known_cards=seen)
            history = phh.loads(text)
            assert history.known_cards() <= seen  # nothing the viewer did not see
            again = history.replay()
            assert again.stacks == hand.stacks, (seed, viewer, text)


def test_a_hand_mucked_at_the_showdown_loses_in_the_viewer_s_history():
    # seed 31: heads-up, checked down; the big blind mucks a hand the small blind's pair beats
    hand = random_hand("holdem", "no-limit", 31)
    assert [e.kind for e in hand.events].count("muck") == 1
    loser = next(e.seat for e in hand.events if e.kind == "muck")
    winner = 1 - loser
    text = phh.dumps(hand, known_cards=hand.history_cards(winner))
    assert f'p{2 if loser == 1 else 1} sm"' in text.replace(", ", "\n").replace("]", "")
    again = phh.loads(text).replay()
    assert again.stacks == hand.stacks
    assert loser not in again.result.shown


def test_a_stud_viewer_saw_the_up_cards_of_those_who_folded():
    hand = random_hand("stud", "fixed-limit", 0)
    folded_up = {
        card
        for seat in range(1, hand.seats)  # the others'
        if hand.view(None).seats[seat].folded
        for card, up in zip(hand.hole[seat], hand.up[seat], strict=True)
        if up
    }
    assert folded_up  # seats folded with their up-cards seen
    assert not folded_up & hand.visible_cards(0)  # turned down now
    assert folded_up <= hand.history_cards(0)  # but seen while the hand ran
    # and nothing more: the others' down cards stay unknown unless shown
    hidden_down = {
        card
        for seat in range(1, hand.seats)
        if seat not in hand.result.shown
        for card, up in zip(hand.hole[seat], hand.up[seat], strict=True)
        if not up
    }
    assert hidden_down and not hidden_down & hand.history_cards(0)
