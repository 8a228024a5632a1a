"""All-in run-out odds street by street (``engine.runout``) and the rabbit hunt."""

import pytest

from engine.cards import parse_cards
from engine.equity import equity
from engine.errors import IllegalAction
from engine.hand import Hand, HandConfig
from engine.runout import runout_odds, runout_streets
from tests.engine.test_hand_rules import hand, make_deck

NL = HandConfig(small_blind=1, big_blind=2)


def test_odds_at_each_street_from_the_all_in_to_the_river_are_the_exact_equity():
    h = hand([100, 100], button=0, holes={0: "As Ah", 1: "Kd Kc"}, board="2c 7d 9h Ks 3s")
    h.all_in()
    h.call()
    odds = runout_odds(h)
    assert [o.street for o in odds] == ["preflop", "flop", "turn", "river"]
    assert all(o.exact and o.seats == (0, 1) for o in odds)
    preflop = equity(["AsAh", "KdKc"])
    assert odds[0].win == preflop.win and odds[0].tie == preflop.tie
    assert odds[1].board == tuple(parse_cards("2c 7d 9h"))
    assert odds[2].win[1] > 0.9  # kings made a set on the turn
    assert odds[3].win == (0.0, 1.0) and odds[3].tie == (0.0, 0.0)
    for o in odds:
        assert all(0 <= w + t <= 1 for w, t in zip(o.win, o.tie, strict=True))


def test_odds_start_at_the_street_where_betting_closed_and_leave_folded_hands_out():
    h = hand([100, 100, 100], button=0, board="2c 7d 9h Ks 3s")
    h.call()
    h.fold()  # the small blind folds
    h.check()  # flop
    h.all_in()
    h.call()
    odds = runout_odds(h)
    assert [o.street for o in odds] == ["flop", "turn", "river"]
    assert all(o.seats == (0, 2) for o in odds)


def test_no_odds_when_the_hand_never_reached_an_all_in():
    h = hand([100, 100], button=0)
    h.fold()
    assert runout_odds(h) == [] and not h.no_more_betting


def test_odds_for_omaha_and_for_the_second_run():
    omaha = HandConfig(
        game="omaha", betting="pot-limit", small_blind=1, big_blind=2, run_it_twice=True
    )
    h = Hand(omaha, [6, 6], 0, make_deck(2, 0, hole_count=4))
    h.call()
    h.check()  # flop
    h.all_in()  # 4 into a pot of 4: the pot-limit maximum
    h.call()
    h.choose_runs(2)
    first, second = runout_odds(h), runout_odds(h, h.second_board)
    assert [o.street for o in first] == ["flop", "turn", "river"]
    assert first[-1].board == tuple(h.board) and second[-1].board == tuple(h.second_board)
    assert first[0] == second[0] and first[0].exact  # the same moment, two futures


def test_omaha_hilo_odds_count_scoops_parts_and_shares_and_end_as_the_pot_was_split():
    config = HandConfig(game="omaha-hilo", betting="pot-limit", small_blind=1, big_blind=2)
    deck = make_deck(
        2, 0, holes={0: "As 2s 3d Kd", 1: "Qh Qc Jh Tc"}, board="4c 5h 9d 8s Kh", hole_count=4
    )
    h = Hand(config, [6, 6], 0, deck)
    h.call()
    h.check()  # flop
    h.all_in()
    h.call()
    odds = runout_odds(h)
    assert [o.street for o in odds] == ["flop", "turn", "river"]
    assert all(o.exact for o in odds)
    for o in odds:
        assert abs(sum(o.share) - 1) < 1e-9
        assert all(w + t <= 1 for w, t in zip(o.win, o.tie, strict=True))
    river = odds[-1]
    won = [h.stacks[s] - h.starting_stacks[s] + h.committed[s] for s in (0, 1)]
    assert river.share == tuple(w / sum(won) for w in won)
    assert odds[0].tie[0] > 0  # a low draw: often half the pot


def test_the_rabbit_hunt_shows_the_cards_that_would_have_come_and_changes_nothing():
    deck = make_deck(3, 0, board="2c 7d 9h Ks 3s")
    h = Hand(NL, [100, 100, 100], 0, deck)
    h.call()
    h.call()
    h.check()  # flop
    h.bet_or_raise_to(10)
    h.fold()
    h.fold()
    stacks, events = h.stacks, len(h.events)
    assert h.rabbit_hunt() == tuple(parse_cards("Ks 3s"))
    assert h.rabbit_hunt() == tuple(parse_cards("Ks 3s"))  # the same each time
    assert h.stacks == stacks and len(h.events) == events


def test_the_rabbit_hunt_after_a_preflop_fold_is_a_whole_board_and_empty_after_the_river():
    h = hand([100, 100], button=0, board="2c 7d 9h Ks 3s")
    h.fold()
    assert h.rabbit_hunt() == tuple(parse_cards("2c 7d 9h Ks 3s"))
    h = hand([100, 100], button=0)
    h.all_in()
    h.call()
    assert h.rabbit_hunt() == ()


def test_no_rabbit_hunt_during_the_hand():
    h = hand([100, 100], button=0)
    with pytest.raises(IllegalAction, match="while the hand is being played"):
        h.rabbit_hunt()


def test_the_streets_of_a_run_out_are_known_without_computing_any_odds():
    """``runout_streets`` (what the action ending the betting stores, cheaply) gives exactly
    the streets ``runout_odds`` computes, from the street the betting ended on."""
    preflop = hand([100, 100], button=0, holes={0: "As Ah", 1: "Kd Kc"}, board="2c 7d 9h Ks 3s")
    preflop.all_in()
    preflop.call()
    on_the_flop = hand([100, 100], button=0, holes={0: "As Ah", 1: "Kd Kc"}, board="2c 7d 9h Ks 3s")
    on_the_flop.call()
    on_the_flop.check()
    on_the_flop.all_in()
    on_the_flop.call()
    for h, streets in ((preflop, 4), (on_the_flop, 3)):
        odds = runout_odds(h)
        assert runout_streets(h) == [(o.street, len(o.board)) for o in odds]
        assert len(odds) == streets
