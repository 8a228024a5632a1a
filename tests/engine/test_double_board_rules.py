"""Double-board bomb pots (issue 50), one test per rule: two boards dealt street by street
(each street: burn, board one's cards, burn, board two's); each pot split between the boards,
the odd chip to board one, each half won on its own board (hi-lo: each half split high and
low as usual); never run twice; PHH and PokerStars text write both boards."""

import random
import re

import pytest

from engine import phh
from engine.allin_ev import allin_ev
from engine.cards import parse_cards
from engine.config import double_board_fits
from engine.deck import seeded_deck, stacked_deck
from engine.errors import IllegalAction, PokerError
from engine.hand import Hand, HandConfig
from engine.pokerstars import Header, hand_text
from engine.pots import build_pots
from engine.randomhands import random_action, random_stacks
from engine.runout import runout_odds
from engine.types import EventKind

DOUBLE = HandConfig(small_blind=1, big_blind=2, bomb_pot=5, double_board=True)


def deck_for(holes: list[str], streets: list[str]) -> list:
    """``holes`` in dealing order (from the left of the button), then each board dealing."""
    return stacked_deck(
        [parse_cards(h) for h in holes],
        [],
        len(parse_cards(holes[0])),
        streets=[parse_cards(s) for s in streets],
    )


def check_down(h: Hand) -> None:
    while not h.is_over:
        h.check()


def test_each_street_deals_board_one_then_board_two_each_burning_first():
    deck = seeded_deck("double")
    h = Hand(DOUBLE, [100, 100, 100], 0, deck)
    rest = [int(c) for c in deck[6:]]  # after three two-card hands
    assert [int(c) for c in h.board] == rest[1:4]  # burn, board one's flop
    assert [int(c) for c in h.second_board] == rest[5:8]  # burn, board two's flop
    check_down(h)
    assert [int(c) for c in h.board] == rest[1:4] + [rest[9], rest[13]]
    assert [int(c) for c in h.second_board] == rest[5:8] + [rest[11], rest[15]]
    kinds = [e.kind for e in h.events]
    assert kinds.count(EventKind.DEAL_BOARD) == kinds.count(EventKind.DEAL_BOARD_TWO) == 3
    assert h.boards == [h.board, h.second_board] and h.runs == 1


def test_each_board_wins_half_of_the_pot_the_odd_chip_to_board_one():
    # button 0: seat 1, then 2, then 0 are dealt. Pot 15 (three antes of 5): board one 8,
    # board two 7. Board one: seat 0's aces make trips; board two: seat 1's kings do.
    deck = deck_for(
        ["Ks Kd", "7c 2d", "As Ad"],
        ["Ac 8h 4s", "Kh 8d 4c", "9d", "9s", "3c", "3h"],
    )
    h = Hand(DOUBLE, [100, 100, 100], 0, deck)
    check_down(h)
    first, second = h.result.awards
    assert (first.amount, first.winners) == (8, (0,))
    assert (second.amount, second.winners) == (7, (1,))
    assert first.description.startswith("first board (Ac 8h 4s 9d 3c): Three of a Kind, Aces")
    assert second.description.startswith("second board (Kh 8d 4c 9s 3h): Three of a Kind, Kings")
    assert list(h.stacks) == [103, 102, 95]
    # seat 2 is beaten on both boards: mucked; seat 1 wins board two: shown, though beaten
    # on board one
    assert 2 not in h.result.shown and {0, 1} <= set(h.result.shown)
    assert h.result.shown[1][1].startswith("first board: Pair of Kings; second board: ")


def test_omaha_hi_lo_splits_each_boards_half_high_and_low():
    # heads up, button 0 (seat 1 dealt first); pot 20: each board 10. Board one: seat 0's
    # kings win the high half (5), seat 1's 7-5-4-3-2 the low (5). Board two has no low: seat
    # 1's four nines take its whole 10.
    config = HandConfig(
        game="omaha-hilo",
        betting="pot-limit",
        small_blind=1,
        big_blind=2,
        bomb_pot=10,
        double_board=True,
    )
    deck = deck_for(
        ["2c 3c 9h 9d", "As Ks Qs Js"],
        ["4d 5h 7s", "Kh Qd Jc", "Kc", "9s", "Kd", "9c"],
    )
    h = Hand(config, [100, 100], 0, deck)
    check_down(h)
    parts = [(a.amount, a.winners, a.half) for a in h.result.awards]
    assert parts == [(5, (0,), "high"), (5, (1,), "low"), (10, (1,), "whole")]
    assert list(h.stacks) == [95, 105]


def test_a_double_board_is_a_bomb_pots_and_needs_the_cards_for_two_boards():
    with pytest.raises(PokerError, match="a double board is a bomb pot's"):
        HandConfig(small_blind=1, big_blind=2, double_board=True)
    with pytest.raises(PokerError, match="double_board must be true or false"):
        HandConfig(small_blind=1, big_blind=2, bomb_pot=5, double_board="yes")
    omaha = HandConfig(
        game="omaha",
        betting="pot-limit",
        small_blind=1,
        big_blind=2,
        bomb_pot=5,
        double_board=True,
    )
    Hand(omaha, [100] * 9, 0, seeded_deck("nine"))  # 36 + 16 cards: exactly the deck
    assert omaha.to_dict()["double_board"] is True
    assert "double_board" not in HandConfig(bomb_pot=5).to_dict()  # stored configs unchanged


def test_ten_omaha_hands_leave_too_few_cards_for_two_boards():
    assert double_board_fits("omaha", 9) and double_board_fits("holdem", 12)
    assert not double_board_fits("omaha", 10)  # 40 + 16 cards: more than the deck
    config = HandConfig(
        game="omaha",
        betting="pot-limit",
        small_blind=1,
        big_blind=2,
        bomb_pot=5,
        double_board=True,
    )
    with pytest.raises(PokerError, match="too few cards for two boards"):
        Hand(config, [100] * 10, 0, seeded_deck("ten"))


def test_a_double_board_is_never_run_twice_and_has_no_rabbit_hunt():
    config = HandConfig(
        small_blind=1, big_blind=2, bomb_pot=5, double_board=True, run_it_twice=True
    )
    h = Hand(config, [100, 100], 0, seeded_deck("no twice"))
    h.all_in()
    h.call()
    assert h.is_over and not h.runs_due and h.runs == 1
    assert len(h.board) == len(h.second_board) == 5
    h = Hand(config, [100, 100], 0, seeded_deck("fold"))
    h.bet_or_raise_to(10)
    h.fold()
    with pytest.raises(IllegalAction, match="no rabbit hunt on a double board"):
        h.rabbit_hunt()


def test_a_double_board_is_written_to_phh_and_read_back():
    h = Hand(DOUBLE, [100, 60, 80], 1, seeded_deck("phh"))
    h.bet_or_raise_to(10)
    h.call()
    h.call()
    check_down(h)
    history = phh.loads(phh.dumps(h))
    deals = [line for line in history.actions if line.startswith("d db")]
    assert [len(line.split()[2]) // 2 for line in deals] == [3, 3, 1, 1, 1, 1]
    assert history.config().double_board and not history.config().run_it_twice
    again = history.replay()
    assert again.boards == h.boards
    assert list(again.stacks) == history.finishing_stacks


def test_pokerstars_text_writes_each_board_as_a_run():
    h = Hand(DOUBLE, [100, 100], 0, seeded_deck("stars"), ["Ann", "Bob"])
    check_down(h)
    lines = hand_text(h, viewer=0, header=Header(hand_id=5)).splitlines()
    titles = [m.group(0) for line in lines if (m := re.match(r"\*\*\* [A-Z ]+ \*\*\*", line))]
    assert titles[:6] == [
        "*** HOLE CARDS ***",
        "*** FIRST FLOP ***",
        "*** SECOND FLOP ***",
        "*** FIRST TURN ***",
        "*** SECOND TURN ***",
        "*** FIRST RIVER ***",
    ]
    assert "Hand was dealt two boards" in lines
    assert f"SECOND Board [{' '.join(map(str, h.second_board))}]" in lines
    assert sum(int(line.split()[2]) for line in lines if " collected " in line) == 10


def test_random_double_board_bomb_pots_conserve_chips_and_each_board_pays_its_best_hand():
    """The oracle, built by hand here: chips conserved; each pot split between the boards,
    board one's part the larger by at most the odd chip; every high (or whole) part paid to
    the eligible hands best on its own board by the game's evaluator; both boards five
    distinct cards no hand holds."""
    rng = random.Random(50)
    showdowns = 0
    games = (("holdem", "no-limit", 9), ("omaha", "pot-limit", 9), ("omaha-hilo", "pot-limit", 9))
    for _ in range(600):
        game, betting, most = rng.choice(games)
        players = rng.randint(2, most)
        config = HandConfig(
            game=game,
            betting=betting,
            small_blind=1,
            big_blind=2,
            bomb_pot=rng.choice((1, 2, 5)),
            double_board=True,
            run_it_twice=rng.random() < 0.5,
        )
        stacks = random_stacks(rng, players, 2)
        deck = list(range(52))
        rng.shuffle(deck)
        h = Hand(config, stacks, rng.randrange(players), deck)
        while not h.is_over:
            h.act(random_action(h, rng))
        assert sum(h.stacks) == sum(stacks)
        assert h.result is not None
        live = [s for s in range(players) if not h.folded[s]]
        if len(live) == 1:
            continue
        showdowns += 1
        holes = {c for s in range(players) for c in h.hole[s]}
        cards = h.board + h.second_board
        assert len(h.board) == len(h.second_board) == 5
        assert len(set(cards)) == 10 and not set(cards) & holes
        pots = build_pots(list(h.committed), [not f for f in h.folded])
        by_board: dict[tuple[int, str], int] = {}
        for award in h.result.awards:
            which = award.description.split(" ")[0]
            by_board[award.pot, which] = by_board.get((award.pot, which), 0) + award.amount
            if award.half == "low":
                continue
            board = h.board if which == "first" else h.second_board
            eligible = pots[award.pot].eligible
            strengths = {s: config.variant.strength(h.hole[s], board) for s in eligible}
            best = max(strengths.values())
            assert set(award.winners) == {s for s in eligible if strengths[s] == best}
        for index, pot in enumerate(pots):
            first, second = by_board.get((index, "first"), 0), by_board.get((index, "second"), 0)
            assert first + second == pot.amount and first - second in (0, 1)
    assert showdowns >= 300  # most of the 600 hands reach a showdown on both boards


def test_the_all_in_ev_of_a_double_board_is_the_mean_of_its_boards():
    # all in on the flop: board one's flop gives seat 0 quad aces, board two's seat 1 quad
    # kings, neither beatable: each is sure of one half, so neither is ahead in EV
    deck = deck_for(
        ["Ks Kh", "As Ad"],
        ["Ac Ah 7d", "Kc Kd 2s", "3h", "4h", "5s", "9c"],
    )
    h = Hand(DOUBLE, [100, 100], 0, deck)
    h.all_in()
    h.call()
    assert h.is_over and list(h.stacks) == [100, 100]
    ev = allin_ev(h)
    assert ev is not None and ev.exact
    assert ev.net == pytest.approx((0.0, 0.0))  # board one alone would say +95 for seat 0
    odds = runout_odds(h, h.second_board)
    assert odds[0].share == pytest.approx((0.0, 1.0))  # board two: seat 1's kings hold
