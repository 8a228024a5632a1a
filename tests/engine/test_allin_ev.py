"""All-in adjusted winnings (``engine.allin_ev``): each seat's expected share of each pot at
the moment nobody could bet any more, checked against hand-computed cases and the engine's
exact enumeration; the EVs of every pot sum to the pot."""

from itertools import combinations

import pytest

from engine.allin_ev import allin_ev, has_allin_ev
from engine.cards import parse_cards
from engine.equity import equity
from engine.evaluate import evaluate_omaha, evaluate_omaha_low8
from engine.hand import Hand, HandConfig
from tests.engine.test_hand_rules import hand, make_deck

NL = HandConfig(small_blind=1, big_blind=2)


def _conserved(h: Hand) -> None:
    ev = allin_ev(h)
    assert ev is not None
    for pot in ev.pots:
        assert sum(pot.expected) == pytest.approx(pot.amount, abs=1e-9)
    assert sum(ev.expected) == pytest.approx(h.total_pot, abs=1e-9)
    assert sum(ev.net) == pytest.approx(0, abs=1e-9)
    assert sum(h.result.net) == 0


def test_aces_against_kings_all_in_preflop_is_the_well_known_82_to_18():
    h = hand([100, 100], button=0, holes={0: "As Ah", 1: "Ks Kd"}, board="2c 7d 9h Kc 3s")
    h.all_in()
    h.call()
    assert h.result.net == (-100, 100)  # the kings hit their set
    ev = allin_ev(h)
    assert ev is not None and ev.exact and ev.street == "preflop" and ev.board == ()
    # AsAh v KsKd: 81.95% / 18.05%, by the engine's exact count of all 1,712,304 boards
    aces = equity(["AsAh", "KsKd"]).equity[0]
    assert round(aces, 4) == 0.8195
    assert ev.expected == pytest.approx((200 * aces, 200 * (1 - aces)))
    assert ev.net == pytest.approx((200 * aces - 100, 100 - 200 * aces))
    assert round(ev.net[0], 2) == 63.89
    _conserved(h)


def test_no_ev_without_cards_to_come():
    folded = hand([100, 100], button=0)
    folded.fold()
    assert not has_allin_ev(folded) and allin_ev(folded) is None
    river = hand([100, 100], button=0)
    river.call()
    for _ in range(3):  # checked to the river, then all in there: nothing left to deal
        river.check()
        river.check()
    river.all_in()
    river.call()
    assert river.is_over and not has_allin_ev(river) and allin_ev(river) is None


def test_a_three_way_side_pot_is_shared_by_the_hands_that_can_win_it_only():
    """The side pot's shares: the two hands that can win it, the aces (in the main pot
    only) out of play."""
    h = hand(
        [50, 100, 100],
        button=0,
        holes={0: "Ac Ad", 1: "Kc Kh", 2: "Qs Qh"},
        board="2c 7d 9h 3s 4d",
    )
    h.all_in()  # the button (seat 0) shoves 50
    h.all_in()  # the small blind: 100
    h.call()  # the big blind calls 100
    ev = allin_ev(h)
    assert ev is not None and ev.exact
    main, side = ev.pots
    assert (main.amount, main.eligible) == (150, (0, 1, 2))
    assert (side.amount, side.eligible) == (100, (1, 2))
    three = equity(["AcAd", "KcKh", "QsQh"]).equity
    two = equity(["KcKh", "QsQh"], dead="AcAd").equity
    assert main.expected == pytest.approx(tuple(150 * e for e in three))
    assert side.expected == pytest.approx(tuple(100 * e for e in two))
    assert ev.net[0] == pytest.approx(150 * three[0] - 50)
    assert ev.net[1] == pytest.approx(150 * three[1] + 100 * two[0] - 100)
    assert ev.net[2] == pytest.approx(150 * three[2] + 100 * two[1] - 100)
    _conserved(h)


def test_a_side_pot_never_counts_the_cards_of_a_hand_in_the_main_pot_as_to_come():
    """The short stack holds two of the nines the side pot's nine-deuce needs: only the
    nine of clubs is left for it, not three nines (as it would be with the nines back in
    the deck)."""
    h = hand(
        [20, 200, 200],
        button=0,
        holes={0: "9s 9h", 1: "9d 2c", 2: "8c 8d"},
        board="2h 5d Jc Qs Kh",
    )
    h.all_in()  # the button: 20
    h.all_in()  # the small blind: 200
    h.call()  # the big blind
    ev = allin_ev(h)
    assert ev is not None and ev.exact
    main, side = ev.pots
    assert (side.amount, side.eligible) == (360, (1, 2))
    known = equity(["9d2c", "8c8d"], dead="9s9h").equity
    assert side.expected == pytest.approx(tuple(360 * e for e in known))
    assert side.expected[0] / 360 == pytest.approx(0.1474, abs=1e-4)
    assert equity(["9d2c", "8c8d"]).equity[0] == pytest.approx(0.2747, abs=1e-4)  # not this
    _conserved(h)


def test_run_twice_has_the_same_ev_as_run_once_and_only_the_net_differs():
    config = HandConfig(small_blind=1, big_blind=2, run_it_twice=True)
    holes = {0: "As Ah", 1: "Ks Kd"}
    board = "2c 7d 9h Kc 3s"

    def play(runs: int) -> Hand:
        h = Hand(config, [100, 100], 0, make_deck(2, 0, holes=holes, board=board))
        h.all_in()
        h.call()
        h.choose_runs(runs)
        return h

    once, twice = play(1), play(2)
    assert twice.runs == 2 and twice.second_board != twice.board
    assert once.result.net == (-100, 100)
    assert twice.result.net != once.result.net  # the second run went to the aces
    assert allin_ev(twice).net == pytest.approx(allin_ev(once).net)
    assert allin_ev(twice).net[0] == pytest.approx(200 * equity(["AsAh", "KsKd"]).equity[0] - 100)
    _conserved(twice)


def _hilo_shares(holes: list[str], flop: str) -> list[float]:
    """Each hand's expected part of a pot of 1 over every turn and river, counted here on
    its own: the high half to the best Omaha hand, the low half to the best eight-or-better
    low (the whole pot high when there is none), each half split between ties."""
    hands = [[int(c) for c in parse_cards(h)] for h in holes]
    known = [int(c) for c in parse_cards(flop)]
    used = {c for h in hands for c in h} | set(known)
    stub = [c for c in range(52) if c not in used]
    totals = [0.0] * len(hands)
    boards = list(combinations(stub, 2))
    for rest in boards:
        full = [*known, *rest]
        highs = [evaluate_omaha(h, full) for h in hands]
        lows = [evaluate_omaha_low8(h, full) for h in hands]
        top = max(highs)
        high_winners = [i for i, v in enumerate(highs) if v == top]
        qualified = [v for v in lows if v is not None]
        high_part = 0.5 if qualified else 1.0
        for i in high_winners:
            totals[i] += high_part / len(high_winners)
        if qualified:
            best = max(qualified)
            low_winners = [i for i, v in enumerate(lows) if v == best]
            for i in low_winners:
                totals[i] += 0.5 / len(low_winners)
    return [t / len(boards) for t in totals]


def test_omaha_hilo_counts_the_high_and_the_low_halves():
    config = HandConfig(game="omaha-hilo", betting="pot-limit", small_blind=1, big_blind=2)
    holes = {0: "As 2s 3d Kd", 1: "Qh Qc Jh Tc"}
    deck = make_deck(2, 0, holes=holes, board="4c 5h 9d 8s Kh", hole_count=4)
    h = Hand(config, [6, 6], 0, deck)
    h.call()
    h.check()  # flop
    h.all_in()
    h.call()
    ev = allin_ev(h)
    assert ev is not None and ev.exact and ev.street == "flop"
    shares = _hilo_shares([holes[0], holes[1]], "4c 5h 9d")
    assert ev.expected == pytest.approx(tuple(12 * s for s in shares))
    assert ev.expected[0] > 6  # the wheel draw and the nut low draw: more than half
    _conserved(h)


def test_omaha_hilo_identical_hands_split_every_pot_exactly():
    config = HandConfig(game="omaha-hilo", betting="pot-limit", small_blind=1, big_blind=2)
    # a rainbow flop: no flush can come, so the same ranks tie high and low on every board
    holes = {0: "As 2d 3c 4h", 1: "Ad 2c 3h 4s"}
    deck = make_deck(2, 0, holes=holes, board="7s 8d 9c", hole_count=4)
    h = Hand(config, [6, 6], 0, deck)
    h.call()
    h.check()
    h.all_in()
    h.call()
    ev = allin_ev(h)
    assert (
        ev is not None
        and ev.expected == pytest.approx((6.0, 6.0))
        and ev.net
        == (
            pytest.approx(0.0),
            pytest.approx(0.0),
        )
    )
