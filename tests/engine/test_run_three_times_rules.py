"""Run it three times, one test per rule: the rest of the board dealt three times from the
same deck, each run after the one before it; each pot split in three, its odd chips one at a
time to the runs from the first; results name every board; PHH writes and reads three runs."""

import random

import pytest

from engine import phh
from engine.cards import parse_cards
from engine.deck import stacked_deck
from engine.errors import HandHistoryError, IllegalAction
from engine.hand import Hand, HandConfig
from engine.hand.showdown import split_between_runs
from engine.pots import Pot
from engine.randomhands import random_action, random_deck, random_stacks
from engine.types import EventKind
from tests.engine.test_hand_rules import hand, make_deck

TWICE = HandConfig(small_blind=1, big_blind=2, run_it_twice=True)


def heads_up_deck(holes: dict[int, str], first: str, later: list[str]) -> list:
    """Button 0, heads up (seat 1 is dealt first): the first run's board ``first`` and each
    later street of the later runs, each burning first."""
    return stacked_deck(
        [parse_cards(holes[1]), parse_cards(holes[0])],
        parse_cards(first),
        2,
        later_runs=[parse_cards(street) for street in later],
    )


def test_run_thrice_deals_the_rest_of_the_board_three_times_from_the_same_deck():
    deck = make_deck(2, 0)
    h = Hand(TWICE, [100, 100], 0, deck)
    h.all_in()
    h.call()
    h.act("run_thrice")
    assert h.is_over and h.runs == 3
    # burn, flop, burn, turn, burn, river: for the first run, then the second, then the third
    rest = deck[4:]
    runs = [[rest[k + 1], rest[k + 2], rest[k + 3], rest[k + 5], rest[k + 7]] for k in (0, 8, 16)]
    assert [[int(c) for c in board] for board in h.boards] == runs
    assert h.third_board == h.boards[2]
    kinds = [e.kind for e in h.events]
    assert kinds.count(EventKind.DEAL_SECOND_BOARD) == kinds.count(EventKind.DEAL_THIRD_BOARD) == 3
    # the third run's cards come after the second run's
    assert kinds.index(EventKind.DEAL_THIRD_BOARD) > max(
        i for i, k in enumerate(kinds) if k is EventKind.DEAL_SECOND_BOARD
    )


def test_run_thrice_from_the_turn_shares_the_flop_and_turn():
    h = hand([100, 100], button=0, config=TWICE)
    h.call()
    for _ in range(3):
        h.check()  # preflop, then the flop checked through
    h.all_in()
    h.call()
    assert h.runs_due and len(h.board) == 4
    h.choose_runs(3)
    rivers = {board[4] for board in h.boards}
    assert all(board[:4] == h.board[:4] for board in h.boards) and len(rivers) == 3


def test_each_pot_is_split_in_three_each_part_won_on_its_own_board():
    # a pot of 100: 34 to the first run, 33 to each other; seat 1 wins the first run (a
    # flush), seat 0 the second (aces hold), seat 1 the third (trip kings)
    deck = heads_up_deck(
        {0: "As Ad", 1: "Kh Qh"},
        "2h 7h 9h 3c 4d",
        ["2c 7d 9s", "3s", "4c", "Kc Ks 8d", "3d", "5s"],
    )
    h = Hand(TWICE, [50, 51], 0, deck)
    h.all_in()
    h.call()
    h.choose_runs(3)
    assert [str(c) for c in h.third_board] == ["Kc", "Ks", "8d", "3d", "5s"]
    first, second, third = h.result.awards
    assert [(a.amount, a.winners) for a in (first, second, third)] == [
        (34, (1,)),
        (33, (0,)),
        (33, (1,)),
    ]
    assert first.description.startswith("first run (2h 7h 9h 3c 4d): Flush")
    assert second.description.startswith("second run (2c 7d 9s 3s 4c): Pair of Aces")
    assert third.description.startswith("third run (Kc Ks 8d 3d 5s): Three of a Kind, Kings")
    assert list(h.stacks) == [33, 68]
    shown = h.result.shown[0][1]
    assert shown.startswith("first run: ") and "; third run: " in shown


def test_a_pot_of_two_odd_chips_gives_one_to_each_of_the_first_two_runs():
    assert [[p.amount for p in run] for run in split_between_runs([Pot(101, (0, 1))], 3)] == [
        [34],
        [34],
        [33],
    ]
    # a pot of fewer chips than runs leaves the last run nothing
    assert [[p.amount for p in run] for run in split_between_runs([Pot(2, (0, 1))], 3)] == [
        [1],
        [1],
        [0],
    ]


def test_more_than_three_runs_is_refused_and_changes_nothing():
    h = hand([100, 100], button=0, config=TWICE)
    h.all_in()
    h.call()
    with pytest.raises(IllegalAction, match="once, twice or three times, not 4"):
        h.choose_runs(4)
    assert h.runs_due and h.board == []


def test_three_runs_are_refused_when_the_deck_has_not_the_cards_for_them():
    # eight Omaha hands (32 cards) all in preflop: each run burns three and deals five, so
    # the 52 cards run the board twice (32 + 16 = 48), not three times
    omaha = HandConfig(game="omaha", betting="pot-limit", small_blind=1, big_blind=2)
    config = HandConfig(**{**omaha.to_dict(), "run_it_twice": True})
    h = Hand(config, [2] * 8, 0, make_deck(8, 0, hole_count=4))
    while not h.runs_due:
        h.call()  # each call puts its caller all in
    assert h.most_runs == 2
    with pytest.raises(IllegalAction, match="cards left to run the board twice, not three times"):
        h.choose_runs(3)
    assert h.runs_due
    h.choose_runs(2)
    assert all(len(board) == 5 for board in h.boards) and len(h.boards) == 2


def test_the_choice_of_three_runs_replays():
    h = hand([100, 100], button=0, config=TWICE)
    h.all_in()
    h.call()
    h.act("run_thrice")
    again = Hand.replay(TWICE, [100, 100], 0, make_deck(2, 0), h.actions)
    assert again.stacks == h.stacks and again.boards == h.boards


@pytest.mark.parametrize("checks", [0, 1, 3])  # all in preflop, on the flop, on the turn
def test_a_board_run_three_times_is_written_to_phh_and_read_back(checks):
    h = hand([100, 60], button=0, config=TWICE)
    if checks:
        h.call()
        for _ in range(checks):
            h.check()
    h.all_in()
    h.call()
    h.choose_runs(3)
    text = phh.dumps(h)
    assert "# third run" not in text  # PHH has no comments in actions: plain board deals
    history = phh.loads(text)
    deals = [line for line in history.actions if line.startswith("d db")]
    assert len(deals) == {0: 3 + 3 + 3, 1: 3 + 2 + 2, 3: 3 + 1 + 1}[checks]
    again = history.replay()
    assert again.runs == 3
    assert list(again.stacks) == history.finishing_stacks  # PHH orders the players its way
    assert sorted(again.stacks) == sorted(h.stacks)
    assert again.boards == h.boards


def test_a_phh_board_whose_later_cards_do_not_make_whole_runs_is_refused():
    h = hand([100, 60], button=0, config=TWICE)
    h.call()
    h.check()  # all in on the flop: each later run deals a turn and a river
    h.all_in()
    h.call()
    h.choose_runs(2)
    history = phh.loads(phh.dumps(h))
    used = {c for b in h.boards for c in b} | {c for hole in h.hole for c in hole}
    spare = next(c for c in parse_cards("2c 2d 2h 2s 3c 3d 3h 3s") if c not in used)
    history.actions.append(f"d db {spare}")  # a third run of one card from the flop
    with pytest.raises(HandHistoryError, match="do not run a board of 3 cards"):
        history.replay()


def test_random_hands_run_three_times_conserve_chips_and_split_every_pot_in_three():
    rng = random.Random(11)
    ran_thrice = 0
    for _ in range(300):
        players = rng.randint(2, 9)
        game = rng.choice(("holdem", "omaha"))
        config = HandConfig(
            game=game,
            betting="no-limit" if game == "holdem" else "pot-limit",
            small_blind=1,
            big_blind=2,
            run_it_twice=True,
        )
        stacks = random_stacks(rng, players, 2)
        h = Hand(config, stacks, rng.randrange(players), random_deck(rng, players, 4, False))
        while not h.is_over:
            if h.runs_due:
                h.choose_runs(min(rng.choice((1, 3, 3)), h.most_runs))
            else:
                h.act(random_action(h, rng))
        assert sum(h.stacks) == sum(stacks)
        if h.runs != 3:
            continue
        ran_thrice += 1
        own = [
            [c for e in h.events if e.kind is kind for c in e.cards]
            for kind in (EventKind.DEAL_SECOND_BOARD, EventKind.DEAL_THIRD_BOARD)
        ]
        shared = 5 - len(own[0])
        assert all(b[:shared] == h.board[:shared] and len(b) == 5 for b in h.boards)
        new = own[0] + own[1]
        holes = {c for hole in h.hole for c in hole}
        assert len(set(new)) == len(new) and not set(new) & (set(h.board) | holes)
        by_pot: dict[tuple[int, str], int] = {}
        for award in h.result.awards:
            key = (award.pot, award.description.split(" ")[0])
            by_pot[key] = by_pot.get(key, 0) + award.amount
        for pot in {p for p, _ in by_pot}:
            parts = [by_pot.get((pot, run), 0) for run in ("first", "second", "third")]
            assert max(parts) - min(parts) in (0, 1) and parts == sorted(parts, reverse=True)
    assert ran_thrice >= 20
