"""One test per house rule (DESIGN.md), each named after the rule it protects."""

import pytest

from engine.cards import Card, parse_cards
from engine.errors import IllegalAction
from engine.hand import Action, Hand, HandConfig
from engine.types import EventKind

NL = HandConfig(small_blind=1, big_blind=2)


def make_deck(n, button, holes=None, board="", hole_count=2):
    """A deck dealing ``holes`` (seat -> text) and ``board`` in the engine's order."""
    holes = {s: parse_cards(t) for s, t in (holes or {}).items()}
    board = parse_cards(board)
    used = {c for h in holes.values() for c in h} | set(board)
    spare = iter([c for c in range(52) if c not in used])
    deck = []
    for r in range(hole_count):
        for k in range(1, n + 1):
            seat = (button + k) % n
            deck.append(holes[seat][r] if seat in holes else next(spare))
    for size, cards in ((3, board[:3]), (1, board[3:4]), (1, board[4:5])):
        deck.append(next(spare))
        deck.extend(cards)
        deck.extend(next(spare) for _ in range(size - len(cards)))
    deck.extend(spare)
    return deck


def hand(stacks, button=0, config=NL, **kw):
    n = len(stacks)
    return Hand(config, stacks, button, make_deck(n, button, hole_count=config.hole_count, **kw))


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after():
    h = hand([100, 100], button=1)
    assert h.committed == (2, 1)
    assert h.actor == 1
    h.call()
    assert h.actor == 0  # big blind option
    h.check()
    assert h.street == "flop" and h.actor == 0  # button acts last after the flop


def test_first_to_act_preflop_is_left_of_big_blind_then_first_live_left_of_button():
    h = hand([100] * 5, button=2)
    assert (h.small_blind_seat, h.big_blind_seat) == (3, 4)
    assert h.actor == 0
    h.call()
    h.call()
    h.call()
    h.fold()
    h.check()  # seat 3 (small blind) folds
    assert h.street == "flop" and h.actor == 4  # seat 3 folded: first live left of button


def test_no_limit_bet_is_at_least_the_big_blind():
    h = hand([100, 100, 100])
    h.call()
    h.call()
    h.check()
    assert h.legal.min_raise_to == 2
    with pytest.raises(IllegalAction, match="minimum"):
        h.bet_or_raise_to(1)


def test_no_limit_raise_is_at_least_the_previous_full_raise():
    h = hand([500, 500, 500])
    h.bet_or_raise_to(10)  # raise of 8
    assert h.legal.min_raise_to == 18
    with pytest.raises(IllegalAction, match="minimum"):
        h.bet_or_raise_to(17)
    h.bet_or_raise_to(30)
    assert h.legal.min_raise_to == 50


def test_all_in_for_less_than_a_minimum_raise_is_allowed():
    h = hand([500, 500, 15])  # seat 2 is the big blind with 13 behind
    h.bet_or_raise_to(10)
    h.call()
    assert h.legal.min_raise_to == 15 and h.legal.max_raise_to == 15
    h.all_in()
    assert h.all_in_seats[2]


def test_short_all_in_raise_does_not_reopen_betting_for_players_who_already_acted():
    h = hand([1000, 1000, 1000, 1000, 130], button=4)  # sb 0, bb 1, utg 2
    h.bet_or_raise_to(100)  # seat 2
    h.call()  # seat 3
    h.all_in()  # seat 4 to 130: a short raise of 30
    h.fold()
    h.fold()  # blinds
    assert h.actor == 2
    assert h.legal.min_raise_to is None and h.legal.call == 30
    with pytest.raises(IllegalAction, match="not reopened"):
        h.bet_or_raise_to(300)


def test_several_short_all_ins_adding_up_to_a_full_raise_reopen_betting():
    h = hand([1000, 1000, 1000, 170, 240], button=2)  # sb 3, bb 4, utg 0, 1, 2
    h.call()
    h.call()
    h.call()
    h.call()
    h.check()
    assert h.street == "flop" and h.actor == 3
    h.check()
    h.check()
    h.bet_or_raise_to(100)  # seat 0 bets 100
    h.call()
    h.fold()  # seat 1 calls, seat 2 folds
    h.all_in()  # seat 3: 168, a short raise of 68
    assert h.actor == 4
    h.all_in()  # seat 4: 238, 138 over the bet in all: a full raise in total
    assert h.actor == 0
    assert h.legal.min_raise_to == 338
    h.call()
    assert h.actor == 1 and h.legal.min_raise_to == 338


def test_big_blind_all_in_for_less_still_makes_others_call_the_full_blind():
    h = hand([100, 100, 1], button=0)  # big blind seat 2 has one chip
    assert h.committed[2] == 1
    assert h.legal.call == 2
    h.call()
    assert h.committed[0] == 2


def test_pot_limit_largest_raise_is_to_the_pot_after_calling():
    h = hand([500, 500, 500], config=HandConfig(betting="pot-limit"))
    # pot 3, call 2 -> pot after calling 5 -> raise to 2 + 5 = 7
    assert h.legal.max_raise_to == 7
    with pytest.raises(IllegalAction, match="pot-limit"):
        h.bet_or_raise_to(8)
    h.bet_or_raise_to(7)
    # pot 10, call 6 -> 16 -> raise to 7 + 16 = 23
    assert h.legal.max_raise_to == 23


def test_fixed_limit_small_bet_preflop_and_flop_big_bet_turn_and_river():
    h = hand([500] * 3, config=HandConfig(betting="fixed-limit"))
    assert (h.legal.min_raise_to, h.legal.max_raise_to) == (4, 4)
    h.call()
    h.call()
    h.check()
    assert h.legal.min_raise_to == 2
    h.check()
    h.check()
    h.check()
    assert h.street == "turn" and h.legal.min_raise_to == 4


def test_fixed_limit_one_bet_and_three_raises_per_street():
    h = hand([500] * 3, config=HandConfig(betting="fixed-limit"))
    h.bet_or_raise_to(4)
    h.bet_or_raise_to(6)
    h.bet_or_raise_to(8)
    assert h.legal.min_raise_to is None
    with pytest.raises(IllegalAction, match="cap"):
        h.bet_or_raise_to(10)


def test_fixed_limit_no_cap_heads_up():
    h = hand([500, 500], config=HandConfig(betting="fixed-limit"))
    for to in (4, 6, 8, 10, 12):
        h.bet_or_raise_to(to)
    assert h.legal.min_raise_to == 14


def test_per_player_antes_are_posted_before_the_deal():
    h = hand([100, 100, 100], config=HandConfig(ante=1))
    assert h.committed == (1, 2, 3) and h.bets == (0, 1, 2)
    assert [e.kind for e in h.events[:3]] == ["ante"] * 3


def test_big_blind_ante_is_dead_money_and_not_part_of_the_blind():
    h = hand([100, 100, 100], config=HandConfig(ante=2, ante_mode="big-blind"))
    assert h.committed[2] == 4 and h.bets[2] == 2
    assert h.legal.call == 2  # the ante does not count toward the blind
    h.call()
    h.call()
    h.check()
    assert h.pots[0].amount == 8


def test_straddle_is_a_blind_raise_posted_left_of_the_big_blind():
    h = hand([100] * 4, config=HandConfig(straddle=4))
    assert h.committed == (0, 1, 2, 4)
    assert h.actor == 0 and h.legal.call == 4 and h.legal.min_raise_to == 8
    h.call()
    h.call()
    h.call()
    assert h.actor == 3 and h.legal.check  # the straddle has the option


def test_blinds_and_antes_posted_all_in_for_less():
    h = hand([100, 1, 1], config=HandConfig(ante=1))
    assert h.all_in_seats == (False, True, True) and h.committed == (1, 1, 1)


def test_uncalled_part_of_a_bet_goes_back_to_its_owner():
    h = hand([100, 100, 30], button=0)
    h.bet_or_raise_to(80)
    h.fold()
    h.call()  # big blind calls all-in for 30
    assert h.is_over
    assert sum(h.stacks) == 230
    assert any(e.kind == "return" and e.seat == 0 and e.amount == 50 for e in h.events)


def test_side_pots_go_to_the_best_eligible_hand():
    h = hand([20, 100, 100], button=0, holes={0: "AsAh", 1: "KsKh", 2: "2c7d"}, board="3c8d9sJhQd")
    h.all_in()
    h.call()
    h.call()
    h.bet_or_raise_to(40)
    h.call()  # side pot of 80 between seats 1 and 2
    while not h.is_over:
        h.check()
    assert h.stacks == (60, 120, 40)
    assert [a.winners for a in h.result.awards] == [(0,), (1,)]


def test_split_pot_odd_chips_go_to_winners_in_seat_order_left_of_the_button():
    # 3 winners share 5 chips... board plays: broadway straight
    cfg = HandConfig(small_blind=1, big_blind=2, ante=0)
    h = hand(
        [100, 100, 100, 100],
        button=3,
        config=cfg,
        holes={0: "2c3d", 1: "2d3h", 2: "2h4s", 3: "4c5c"},
        board="TcJdQhKsAc",
    )
    h.call()
    h.call()
    h.fold()  # seat 1? order: sb 0, bb 1, utg 2, button 3
    # seat 2 called, seat 3 called, seat 0 folded (sb, 1 chip)
    h.check()
    while not h.is_over:
        h.check()
    award = h.result.awards[0]
    assert award.amount == 7 and award.winners == (1, 2, 3)
    assert award.amounts == (3, 2, 2)  # seat 1 is first left of the button among winners


def test_showdown_last_aggressor_on_final_street_shows_first():
    h = hand([100, 100, 100], button=0, holes={0: "AsAh", 1: "KsKh", 2: "QsQh"}, board="2c5d9s3hTd")
    h.call()
    h.call()
    h.check()
    h.check()
    h.check()
    h.check()
    h.check()
    h.check()
    h.check()
    h.check()
    h.bet_or_raise_to(10)
    h.call()
    h.call()  # seat 2 bets the river
    shows = [e.seat for e in h.events if e.kind in ("show", "muck")]
    assert shows[0] == 2


def test_showdown_without_bet_first_live_seat_left_of_button_shows_first():
    h = hand([100, 100, 100], button=0, holes={0: "AsAh", 1: "KsKh", 2: "QsQh"}, board="2c5d9s3hTd")
    h.call()
    h.call()
    h.check()
    for _ in range(9):
        h.check()
    assert [e.seat for e in h.events if e.kind in ("show", "muck")] == [1, 2, 0]


def test_losing_hand_is_mucked_unseen_and_winning_hands_always_shown():
    h = hand([100, 100, 100], button=0, holes={0: "AsAh", 1: "KsKh", 2: "QsQh"}, board="2c5d9s3hTd")
    h.call()
    h.call()
    h.check()
    for _ in range(9):
        h.check()
    kinds = {e.seat: e.kind for e in h.events if e.kind in ("show", "muck")}
    assert kinds == {1: "show", 2: "muck", 0: "show"}
    assert h.view(None).seats[2].cards == ()


def test_all_in_showdown_shows_every_live_hand():
    h = hand([50, 100, 100], button=0, holes={0: "2s7h", 1: "KsKh", 2: "QsQh"}, board="2c5d9s3hTd")
    h.all_in()
    h.call()
    h.call()
    while not h.is_over:
        h.check()
    assert {e.seat for e in h.events if e.kind == "show"} == {0, 1, 2}


def test_when_everyone_left_is_all_in_the_board_is_run_out():
    h = hand([50, 50], button=0)
    h.all_in()
    h.call()
    assert h.is_over and len(h.board) == 5


def test_illegal_actions_name_the_rule_and_change_nothing():
    h = hand([100, 100, 100])
    before = h.view(None)
    for bad, rule in (
        (lambda: h.check(), "facing a bet"),
        (lambda: h.bet_or_raise_to(1000), "more chips than the stack"),
        (lambda: h.call(seat=2), "out of turn"),
    ):
        with pytest.raises(IllegalAction, match=rule):
            bad()
    assert h.view(None) == before and h.actions == ()


def test_replay_is_deterministic():
    deck = make_deck(3, 0)
    h = Hand(NL, [100, 80, 60], 0, deck)
    h.bet_or_raise_to(10)
    h.call()
    h.all_in()
    h.call()
    h.call()
    again = Hand.replay(NL, [100, 80, 60], 0, deck, [str(a) for a in h.actions])
    assert again.stacks == h.stacks and again.events == h.events
    assert Action.parse("raise 120") == Action("raise", 120)
    assert HandConfig.from_dict(NL.to_dict()) == NL


def test_view_shows_own_cards_only():
    h = hand([100, 100, 100], holes={1: "AsAh"})
    seats = h.view(1).seats
    assert seats[1].cards == (Card("As"), Card("Ah"))
    assert seats[0].cards == (None, None) and seats[2].cards == (None, None)
    assert "AsAh" not in str(h.view(0).to_dict()) and "As" not in str(h.view(None).to_dict()["log"])
    # the typed events too: another seat's dealt cards are absent, the viewer's own there
    dealt = {e.seat: e.cards for e in h.view(1).events if e.kind is EventKind.DEAL_HOLE}
    assert dealt == {0: (), 1: (Card("As"), Card("Ah")), 2: ()}


def test_omaha_uses_exactly_two_hole_cards():
    cfg = HandConfig(game="omaha", betting="pot-limit")
    # seat 0 holds four spades but the board has three: a flush needs two hole + three board
    h = Hand(
        cfg,
        [100, 100],
        1,
        make_deck(2, 1, holes={0: "AsKsQsJs", 1: "2c2d7h8h"}, board="2s3s9sTd4c", hole_count=4),
    )
    h.call()
    h.check()
    while not h.is_over:
        h.check()
    assert h.result.shown[0][1].startswith("Flush")
    h2 = Hand(
        cfg,
        [100, 100],
        1,
        make_deck(2, 1, holes={0: "AsKhQdJc", 1: "2c2d7h8h"}, board="2s3s9sTs4s", hole_count=4),
    )
    h2.call()
    h2.check()
    while not h2.is_over:
        h2.check()
    assert h2.result.awards[0].winners == (1,)  # one spade in hand: no flush for seat 0


def test_a_pot_decided_by_a_kicker_names_the_kicker():
    # both hold a pair of kings on K-7-4-3-2: seat 0's ace beats seat 1's queen
    h = hand([100, 100], holes={0: "As Kh", 1: "Qs Kd"}, board="Kc 7d 4h 3s 2c")
    while not h.is_over:
        if h.legal.check:
            h.check()
        else:
            h.call()
    (award,) = h.result.awards
    assert award.winners == (0,)
    assert award.description == "Pair of Kings, Ace kicker"
    assert h.result.shown[1][1] == "Pair of Kings"  # the loser's hand: no kicker to name


def test_a_kicker_is_named_only_over_a_hand_that_was_shown():
    # as above with the hands swapped: the winner shows first and the loser mucks unseen, so
    # naming the ace as a kicker would tell the table the mucked hand held a king too
    h = hand([100, 100], holes={0: "Qs Kd", 1: "As Kh"}, board="Kc 7d 4h 3s 2c")
    while not h.is_over:
        if h.legal.check:
            h.check()
        else:
            h.call()
    (award,) = h.result.awards
    assert award.winners == (1,)
    assert 0 not in h.result.shown  # mucked
    assert award.description == "Pair of Kings"
