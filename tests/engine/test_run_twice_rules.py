"""Run it twice, one test per rule: asked only when nobody can bet any more before the
river; the rest of the board dealt twice from the same deck; each pot split between the
runs, the odd chip to the first; results name both boards. And the "no more betting" fact."""

import random

import pytest

from engine import phh
from engine.errors import IllegalAction, PokerError
from engine.hand import Hand, HandConfig
from engine.randomhands import random_action, random_deck, random_stacks
from engine.types import EventKind
from tests.engine.test_hand_rules import hand, make_deck

TWICE = HandConfig(small_blind=1, big_blind=2, run_it_twice=True)


def all_in_preflop(stacks=(100, 100), config=TWICE, **deal):
    h = hand(list(stacks), button=0, config=config, **deal)
    h.all_in()
    h.call()
    return h


def test_the_hand_waits_for_the_choice_when_nobody_can_bet_before_the_river():
    h = all_in_preflop()
    assert h.runs_due and not h.is_over and h.actor is None
    assert h.no_more_betting and h.board == []
    view = h.view(None)
    assert view.runs_due and view.no_more_betting


def test_without_the_table_option_the_board_runs_out_at_once():
    h = all_in_preflop(config=HandConfig(small_blind=1, big_blind=2))
    assert h.is_over and len(h.board) == 5 and h.runs == 1 and h.no_more_betting


def test_run_twice_deals_the_rest_of_the_board_twice_from_the_same_deck():
    deck = make_deck(2, 0)
    h = Hand(TWICE, [100, 100], 0, deck)
    h.all_in()
    h.call()
    h.act("run_twice")
    assert h.is_over and h.runs == 2
    # dealt in order: burn, flop, burn, turn, burn, river; then the same again
    after_holes = deck[4:]
    first = [after_holes[1], after_holes[2], after_holes[3], after_holes[5], after_holes[7]]
    second = [after_holes[9], after_holes[10], after_holes[11], after_holes[13], after_holes[15]]
    assert [int(c) for c in h.board] == first
    assert [int(c) for c in h.second_board] == second
    assert [e.kind for e in h.events].count(EventKind.DEAL_SECOND_BOARD) == 3


def test_run_twice_from_the_turn_shares_the_flop_and_turn():
    h = hand([100, 100], button=0, config=TWICE)
    h.call()
    h.check()
    h.check()
    h.check()  # flop
    h.all_in()
    h.call()  # all in on the turn
    assert h.runs_due and len(h.board) == 4
    h.choose_runs(2)
    assert h.second_board[:4] == h.board[:4] and h.second_board[4] != h.board[4]


def test_each_pot_is_split_between_the_runs_odd_chip_to_the_first():
    # seat 1 wins the first run (a flush), seat 0 the second (aces hold)
    h = hand(
        [51, 51], button=0, config=TWICE, holes={0: "As Ad", 1: "Kh Qh"}, board="2h 7h 9h 3c 4d"
    )
    h.all_in()
    h.call()
    h.choose_runs(2)
    (first, second) = h.result.awards
    assert first.amount == 51 and second.amount == 51
    assert first.winners == (1,) and first.description.startswith("first run (2h 7h 9h 3c 4d)")
    assert second.description.startswith(f"second run ({' '.join(map(str, h.second_board))})")
    assert sum(h.stacks) == 102


def test_an_odd_pot_gives_its_odd_chip_to_the_first_run():
    h = hand([100, 100, 5], button=0, config=TWICE)
    h.all_in()  # seat 0, first to act three-handed; a side pot and an odd main pot follow
    h.call()
    h.call()
    h.choose_runs(2)
    splits = [
        tuple(a.amount for a in h.result.awards if a.pot == pot)
        for pot in sorted({a.pot for a in h.result.awards})
    ]
    assert splits == [(8, 7), (95, 95)]  # the main pot of 15, the side pot of 190
    assert sum(h.stacks) == 205


def test_run_once_runs_the_board_once():
    h = all_in_preflop()
    h.act("run_once")
    assert h.is_over and h.runs == 1 and h.second_board == []


def test_choosing_runs_is_refused_unless_the_hand_waits_for_it():
    h = hand([100, 100], button=0, config=TWICE)
    with pytest.raises(IllegalAction, match="no run-out to choose"):
        h.choose_runs(2)
    h = all_in_preflop()
    with pytest.raises(IllegalAction, match="run once, twice or three times"):
        h.choose_runs(4)
    with pytest.raises(IllegalAction):
        h.call()
    assert h.runs_due  # nothing changed


def test_no_question_when_all_in_on_the_river():
    h = hand([100, 100], button=0, config=TWICE)
    h.call()
    for _ in range(6):
        h.check()
    h.all_in()
    h.call()
    assert h.is_over and h.runs == 1 and h.no_more_betting


def test_no_more_betting_is_false_while_two_players_can_still_bet():
    h = hand([100, 100, 100], button=0, config=TWICE)
    h.all_in()
    h.call()
    assert not h.no_more_betting  # the big blind still acts
    h.fold()
    assert h.no_more_betting and h.runs_due


def test_the_run_choice_replays():
    h = all_in_preflop()
    h.act("run_twice")
    again = Hand.replay(TWICE, [100, 100], 0, make_deck(2, 0), h.actions)
    assert again.stacks == h.stacks and again.second_board == h.second_board


def test_stud_is_not_run_twice():
    with pytest.raises(PokerError, match="not run twice"):
        HandConfig(
            game="stud",
            betting="fixed-limit",
            small_blind=0,
            big_blind=0,
            bring_in=1,
            small_bet=2,
            run_it_twice=True,
        )


@pytest.mark.parametrize("street_actions", [0, 4])  # all in preflop, or on the turn
def test_a_board_run_twice_is_written_to_phh_as_both_runs_deals_and_read_back(street_actions):
    h = hand([100, 60], button=0, config=TWICE)
    if street_actions:
        h.call()
        for _ in range(3):
            h.check()
    h.all_in()
    h.call()
    h.choose_runs(2)
    text = phh.dumps(h)
    history = phh.loads(text)
    boards = [line for line in history.actions if line.startswith("d db")]
    assert len(boards) == (6 if not street_actions else 4)
    assert history.config().run_it_twice
    again = history.replay()
    assert again.runs == 2
    assert list(again.stacks) == history.finishing_stacks
    assert again.board == h.board and again.second_board == h.second_board


def test_live_hands_turn_face_up_only_when_no_more_betting_is_possible():
    h = hand([100, 100, 100], button=0, config=TWICE)
    h.all_in()
    h.call()
    for viewer in (None, 0, 1, 2):  # the big blind still acts: nobody else's cards show
        seats = h.view(viewer).seats
        assert all(c is None for s in seats if s.seat != viewer for c in s.cards)
    h.fold()
    assert h.runs_due
    for viewer in (None, 0, 1, 2):
        view = h.view(viewer)
        assert view.no_more_betting
        assert view.seats[0].cards == h.hole[0] and view.seats[1].cards == h.hole[1]
        if viewer != 2:
            assert view.seats[2].cards == ()  # the folded hand stays hidden


def test_random_hands_run_twice_conserve_chips_and_split_every_pot_between_the_runs():
    rng = random.Random(7)
    ran_twice = 0
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
                h.choose_runs(rng.choice((1, 2)))
            else:
                h.act(random_action(h, rng))
        assert sum(h.stacks) == sum(stacks)
        if h.runs == 2:
            ran_twice += 1
            own = [c for e in h.events if e.kind == "deal_second_board" for c in e.cards]
            shared = 5 - len(own)
            assert len(h.second_board) == 5 and h.second_board[:shared] == h.board[:shared]
            holes = {c for hole in h.hole for c in hole}
            assert not set(own) & (set(h.board) | holes)  # new cards from the same deck
            by_pot = {}
            for award in h.result.awards:
                by_pot.setdefault((award.pot, award.description.split(" ")[0]), 0)
                by_pot[award.pot, award.description.split(" ")[0]] += award.amount
            for pot in {p for p, _ in by_pot}:
                first, second = by_pot.get((pot, "first"), 0), by_pot.get((pot, "second"), 0)
                assert first - second in (0, 1)
    assert ran_twice >= 20
