"""The replayer's odds from the engine: shown hands' equity from their cards alone (exact),
one hand against random hands (a seeded sample), and a call's pot odds."""

from itertools import combinations
from math import comb

import pytest

from engine.cards import ALL_CARDS, parse_cards
from engine.errors import CardError
from engine.evaluate import evaluate
from engine.replay_odds import pot_odds, random_hands_odds, stud_odds
from engine.runout import cards_odds
from engine.types import HandConfig
from engine.variants import stakes_for
from tests.engine.played_games import STAKES

HOLDEM = HandConfig()


def test_aces_against_kings_all_in_preflop_is_about_81_to_19_counted_exactly():
    odds = cards_odds(HOLDEM, "preflop", (), (0, 1), [parse_cards("AhAs"), parse_cards("KcKd")])
    assert odds.exact
    assert odds.share[0] == pytest.approx(0.8126, abs=5e-5)
    assert odds.share[1] == pytest.approx(0.1874, abs=5e-5)
    assert odds.share[0] + odds.share[1] == pytest.approx(1.0)


def test_on_the_turn_the_outs_counted_by_hand():
    # AhKh v QsQd on 2h 3h 4c 9d: AK wins on 9 hearts, 3 aces, 3 kings and the 3 other fives
    # (a wheel): 18 of the 44 river cards; no card ties.
    board = tuple(parse_cards("2h3h4c9d"))
    odds = cards_odds(HOLDEM, "turn", board, (0, 1), [parse_cards("AhKh"), parse_cards("QsQd")])
    assert odds.exact
    assert odds.win == pytest.approx((18 / 44, 26 / 44))
    assert odds.tie == (0.0, 0.0)


def test_on_the_flop_every_turn_and_river_counted():
    hands = [parse_cards("AhKh"), parse_cards("QsQd")]
    board = parse_cards("2h3h4c")
    stub = [c for c in ALL_CARDS if c not in {*hands[0], *hands[1], *board}]
    won = tied = 0
    for rest in combinations(stub, 2):  # the scalar evaluator, board by board
        mine, theirs = (evaluate([*hand, *board, *rest]) for hand in hands)
        won += mine > theirs
        tied += mine == theirs
    odds = cards_odds(HOLDEM, "flop", tuple(board), (0, 1), hands)
    assert odds.exact and comb(len(stub), 2) == 990
    assert odds.win[0] == pytest.approx(won / 990)
    assert odds.tie[0] == pytest.approx(tied / 990)


def test_omaha_preflop_is_a_seeded_sample_the_same_every_time():
    omaha = HandConfig(game="omaha")
    hands = [parse_cards("AhAsKdQd"), parse_cards("7c8c9dTd")]
    first = cards_odds(omaha, "preflop", (), (0, 1), hands, seed=0)
    assert not first.exact
    assert cards_odds(omaha, "preflop", (), (0, 1), hands, seed=0) == first


def test_pot_odds_as_a_percentage_and_as_so_many_to_one():
    odds = pot_odds(50, 150)  # 50 to call into 150: risk 50 to win 150
    assert odds.percent == pytest.approx(25.0)
    assert odds.ratio == pytest.approx(3.0)
    assert pot_odds(10, 25).percent == pytest.approx(100 * 10 / 35)
    with pytest.raises(ValueError, match="pot odds"):
        pot_odds(0, 10)


def test_aces_against_one_random_hand_near_85_percent_and_seeded():
    odds = random_hands_odds(parse_cards("AhAs"), (), 1)
    assert not odds.exact and odds.deals == 20_000
    # AA v a random hand preflop: 85.2 % (published tables), within four standard errors
    assert abs(odds.share - 0.852) < 4 * odds.stderr
    assert random_hands_odds(parse_cards("AhAs"), (), 1) == odds
    assert random_hands_odds(parse_cards("AhAs"), (), 4).share < odds.share


def test_a_made_nut_hand_on_the_river_wins_against_any_random_hands():
    # a royal flush on the board's help: nothing beats or ties it
    odds = random_hands_odds(parse_cards("AhKh"), parse_cards("QhJhTh2c3d"), 3)
    assert odds.win == 1.0 and odds.tie == 0.0


def test_random_hand_odds_refuse_other_games_and_bad_cards():
    with pytest.raises(CardError, match="Hold'em"):
        random_hands_odds(parse_cards("AhAsKdQd"), (), 1)
    with pytest.raises(CardError, match="board"):
        random_hands_odds(parse_cards("AhAs"), parse_cards("Ah2c3d"), 1)
    with pytest.raises(ValueError, match="opponent"):
        random_hands_odds(parse_cards("AhAs"), (), 0)


def stud_config(game: str) -> HandConfig:
    return HandConfig(**stakes_for(game, "fixed-limit", STAKES))


def test_stud_on_sixth_street_the_outs_counted_by_hand():
    # aces against 2-3-4-5 with J Q: the straight comes with Ad, Ac or any six (6 of the 40
    # unseen cards); nothing the aces catch beats a straight; every deal counted
    aces, draw = parse_cards("AsAhKd7c8d9s"), parse_cards("2c3c4c5hJdQs")
    odds = stud_odds(stud_config("stud"), [aces, draw])
    assert odds.exact and odds.deals == 40 * 39
    assert odds.share == pytest.approx((34 / 40, 6 / 40))
    assert odds.tie == (0.0, 0.0)
    # the two other aces showing in a folded hand: 4 outs of 38
    dead = stud_odds(stud_config("stud"), [aces, draw], dead=parse_cards("AdAc"))
    assert dead.share[1] == pytest.approx(4 / 38)


def test_stud_with_seven_cards_each_is_decided_and_razz_counts_the_low():
    aces, wheel = parse_cards("AsAhKd7c8d9sTs"), parse_cards("2c3c4c5h6hQsJs")
    assert stud_odds(stud_config("stud"), [aces, wheel]).win == (0.0, 1.0)
    assert stud_odds(stud_config("razz"), [aces, wheel]).win == (0.0, 1.0)
    # hi-lo: the straight takes the high half and the only low (6-5-4-3-2): a scoop
    assert stud_odds(stud_config("stud-hilo"), [aces, wheel]).share == (0.0, 1.0)


def test_stud_on_third_street_is_a_seeded_sample():
    hands = [parse_cards("AsAhKd"), parse_cards("2c3c4c")]
    odds = stud_odds(stud_config("stud"), hands)
    assert not odds.exact and odds.deals == 5_000
    assert stud_odds(stud_config("stud"), hands) == odds
    with pytest.raises(CardError, match="stud"):
        stud_odds(HOLDEM, hands)
