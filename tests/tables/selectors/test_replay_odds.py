"""The replayer's odds: at every step the equity of the hands shown at the end (exact), the
viewer's own hand against random hands where nothing else was shown, each call's pot odds;
on the page and in the REST history alike, and never moved by a card the viewer did not see."""

import re

import pytest

from engine.cards import parse_cards
from engine.hand import Hand as EngineHand
from engine.runout import cards_odds
from engine.types import HandConfig
from engine.variants import VARIANTS, stakes_for
from tables.selectors.replay import engine_replay_steps, hand_replay_steps
from tables.selectors.replay_odds import replay_step_odds
from tests.api.helpers import engine_hand, store_hand
from tests.engine.played_games import GAMES, NAMES, STAKES, game_deck, played_hand

pytestmark = pytest.mark.django_db

# three-handed, button seat 0 (first to act preflop), seat 1 the small blind, seat 2 the big
LIMP_AND_CHECK = [
    "call",  # alice limps: 2 to call into 3
    "call",  # bob completes: 1 to call into 5
    "check",
    "check",
    "check",
    "raise 4",
    "fold",  # bob folds the flop: his cards are never shown
    "call",  # carol calls 4 into 10
    "check",
    "check",
    "check",
    "check",
]
# ends on the flop without a showdown: nobody's cards are shown
THREE_BET = ["raise 6", "call", "raise 20", "call", "fold", "raise 30", "fold"]


def showdown_hand(table, players, bob="7c2d", board="9c5d3h8sJd", number=1):
    state = engine_hand(["AsAh", bob, "KsKh"], board, LIMP_AND_CHECK)
    return store_hand(table, players, state, number=number)


def unshown_hand(table, players, others=("7c2d", "KsKh"), board="9c5d3h8sJd", number=1):
    state = engine_hand(["AsAh", *others], board, THREE_BET)
    return store_hand(table, players, state, number=number)


def odds_by_label(hand, seat):
    steps = hand_replay_steps(hand, seat)
    return {step.label: odds for step, odds in zip(steps, replay_step_odds(steps), strict=True)}


def test_the_shown_hands_equity_at_every_street_counted_exactly(table, players):
    hand = showdown_hand(table, players)
    odds = odds_by_label(hand, None)  # a spectator: the shown aces and kings
    expected = {
        "Cards dealt, blinds posted": (),
        "Flop": parse_cards("9c5d3h"),
        "Turn": parse_cards("9c5d3h8s"),
        "River": parse_cards("9c5d3h8sJd"),
    }
    for label, board in expected.items():
        hands = odds[label].hands
        assert hands is not None and hands.basis == "shown" and hands.exact
        assert [h.name for h in hands.hands] == ["alice", "carol"]  # bob's cards never shown
        truth = cards_odds(
            HandConfig(), "", tuple(board), (0, 2), [parse_cards("AsAh"), parse_cards("KsKh")]
        )
        assert tuple(h.share for h in hands.hands) == truth.share
    # aces against kings before the flop: about 82 % to 18 %
    preflop = odds["Cards dealt, blinds posted"].hands
    assert preflop.hands[0].share == pytest.approx(0.82, abs=0.01)
    assert odds["River"].hands.hands[0].share == 1.0


def test_each_call_gets_its_pot_odds(table, players):
    odds = odds_by_label(showdown_hand(table, players), None)
    limp, complete, flop_call = odds["alice calls 2"], odds["bob calls 1"], odds["carol calls 4"]
    assert (limp.pot_odds.to_call, limp.pot_odds.pot) == (2, 3)
    assert limp.pot_odds.percent == pytest.approx(40.0) and limp.pot_odds.ratio == 1.5
    assert (complete.pot_odds.to_call, complete.pot_odds.pot) == (1, 5)
    assert complete.pot_odds.percent == pytest.approx(100 / 6)
    assert (flop_call.pot_odds.to_call, flop_call.pot_odds.pot) == (4, 10)
    assert flop_call.pot_odds.percent == pytest.approx(100 * 4 / 14)
    assert flop_call.pot_odds.ratio == pytest.approx(2.5)
    assert odds["alice bets 4"].pot_odds is None and odds["bob folds"].pot_odds is None


def test_the_viewer_alone_against_random_hands_one_per_opponent_still_in(table, players):
    hand = unshown_hand(table, players)
    mine = odds_by_label(hand, 0)
    opening = mine["Cards dealt, blinds posted"].hands
    assert opening.basis == "random" and opening.opponents == 2 and not opening.exact
    assert [h.name for h in opening.hands] == ["alice"]
    assert mine["Flop"].hands.opponents == 1  # bob folded preflop
    # aces against one random hand on 9c5d3h, against two before the flop: more now
    assert mine["Flop"].hands.hands[0].share > opening.hands[0].share > 0.7
    # a spectator knows no hand: no equity at all, only the pot odds
    spectator = odds_by_label(hand, None)
    assert all(o.hands is None for o in spectator.values())
    assert spectator["bob calls 5"].pot_odds is not None


def page_odds(client, hand) -> list[str]:
    page = client.get(f"/hands/{hand.pk}/").content.decode()
    return re.findall(r'<template class="replay-odds">(.*?)</template>', page, re.S)


# per viewer (engine seat, None: someone not dealt in), the others' hole cards in the unshown
# hand changed to cards that viewer never saw
UNSEEN_CHANGED = {
    0: ("QdJc", "8h8d"),
    1: ("7c2d", "8h8d"),
    2: ("QdJc", "KsKh"),
    None: ("QdJc", "8h8d"),
}


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_cards_the_viewer_never_saw_move_no_figure(client, table, players, make_player, viewer):
    """The same hands dealt with other cards where the viewer did not see them (the others'
    hole cards, the turn and river never dealt; in the showdown hand bob's folded cards):
    every figure on the page and in the REST history is the same."""
    who = players[viewer] if viewer is not None else make_player("dave")
    client.force_login(who.user)
    pairs = [
        (
            unshown_hand(table, players, number=1),
            unshown_hand(table, players, UNSEEN_CHANGED[viewer], "9c5d3hAdKd", number=2),
        )
    ]
    if viewer != 1:  # bob's folded cards: hidden from all but bob
        pairs.append(
            (
                showdown_hand(table, players, number=3),
                showdown_hand(table, players, "QdJc", number=4),
            )
        )
    for first, second in pairs:
        assert page_odds(client, first) == page_odds(client, second)
        api = [client.get(f"/api/hands/{h.pk}/").json()["steps"] for h in (first, second)]
        assert api[0] == api[1]
    # and figures there are: the viewer's own hand against random hands, the shown hands
    shown = "Equity vs" if viewer is not None else "Equity of the hands shown"
    assert any(shown in block for pair in pairs for block in page_odds(client, pair[0]))


def test_the_page_and_the_rest_history_show_the_same_odds(client, table, players):
    hand = showdown_hand(table, players)
    client.force_login(players[0].user)
    blocks = page_odds(client, hand)
    steps = client.get(f"/api/hands/{hand.pk}/").json()["steps"]
    assert len(blocks) == len(steps)
    flop = next(s for s in steps if s["text"] == "Flop")
    assert flop["equity"]["basis"] == "shown" and flop["equity"]["exact"] is True
    alice = flop["equity"]["hands"][0]
    assert f"{100 * alice['share']:.1f}%" in blocks[flop["index"]]
    assert "Equity of the hands shown" in blocks[flop["index"]]
    call = next(s for s in steps if s["text"] == "carol calls 4")
    assert call["pot_odds"] == {"to_call": 4, "pot": 10, "percent": 28.57, "ratio": 2.5}
    assert "needs 28.6% equity (2.5 to 1)" in blocks[call["index"]]
    assert steps[-1]["equity"] is None  # the award


#: each game once, at its first betting (the odds do not depend on the betting)
ONE_BETTING_EACH = list({game: (game, betting) for game, betting in reversed(GAMES)}.values())


@pytest.mark.parametrize(("game", "betting"), ONE_BETTING_EACH)
def test_every_game_board_and_stud_games_with_equity_draw_games_with_pot_odds_only(game, betting):
    state = played_hand(game, betting)  # everyone calls down: every hand shown at the end
    steps = engine_replay_steps(state, [int(c) for c in game_deck(game, betting)], 0)
    odds = replay_step_odds(steps)
    with_equity = [o for o in odds if o.hands is not None]
    assert any(o.pot_odds is not None for o in odds)
    if VARIANTS[game].structure in ("board", "stud"):
        assert with_equity and all(o.hands.basis == "shown" for o in with_equity)
        for o in with_equity:  # the pot's shares add up to the whole pot
            assert sum(h.share for h in o.hands.hands) == pytest.approx(1.0)
    else:
        assert not with_equity


def stud_hand(deck: list[int]) -> EngineHand:
    """Stud, three-handed, everyone calling but seat 2, who folds on fourth street: seat 0
    shows and wins, seat 1 mucks."""
    hand = EngineHand(stakes_for("stud", "fixed-limit", STAKES), [200] * 3, 0, deck, NAMES)
    while not hand.is_over:
        legal = hand.legal
        if hand.actor == 2 and hand.street == "fourth":
            hand.fold()
        elif legal.check and legal.min_raise_to is not None:
            hand.bet_or_raise_to(legal.min_raise_to)
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return hand


def test_in_stud_the_folded_hands_down_cards_move_no_figure():
    deck = [int(c) for c in game_deck("stud", "fixed-limit")]
    first = stud_hand(deck)
    # seat 2's two down cards swapped with two cards nobody was dealt
    down = [int(c) for c in first.hole[2][:2]]
    dealt = {int(c) for hole in first.hole for c in hole} | {int(c) for c in first.board}
    unused = [c for c in deck if c not in dealt][:2]
    swap = dict(zip(down + unused, unused + down, strict=True))
    other_deck = [swap.get(c, c) for c in deck]
    second = stud_hand(other_deck)
    assert second.hole[2][:2] != first.hole[2][:2] and second.hole[:2] == first.hole[:2]
    # bob (seat 1) knows his own hand and alice's, shown at the end
    odds = [
        replay_step_odds(engine_replay_steps(state, cards, 1))
        for state, cards in ((first, deck), (second, other_deck))
    ]
    assert odds[0] == odds[1]
    assert sum(1 for o in odds[0] if o.hands is not None) >= 10
