"""engine.icm: a deal at the final table by ICM (Malmuth–Harville) or chip chop, exact, in
whole chips that add up to the money split."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings, strategies as st

from engine.icm import EXACT_LIMIT, DealError, chip_chop_equities, deal, icm_equities


def brute_force_icm(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Every finishing order, each with its Malmuth–Harville chance: the definition itself."""
    n = len(stacks)
    paid = prizes + [0] * (n - len(prizes))
    equities = [Fraction(0)] * n
    for order in permutations(range(n)):
        chance, left = Fraction(1), sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order):
            equities[player] += chance * paid[place]
    return equities


def test_the_textbook_example():
    # The example ICM guides work by hand: 5,000 / 3,000 / 2,000 chips, 50 / 30 / 20 to pay:
    # $38.39, $32.75 and $28.86.
    equities = icm_equities([5000, 3000, 2000], [50, 30, 20])
    assert [round(float(e), 2) for e in equities] == [38.39, 32.75, 28.86]
    # worked out by hand: A first 1/2; second 3/10 * 5/7 + 2/10 * 5/8; third the rest
    first, second = (
        Fraction(1, 2),
        Fraction(3, 10) * Fraction(5, 7) + Fraction(1, 5) * Fraction(5, 8),
    )
    assert equities[0] == 50 * first + 30 * second + 20 * (1 - first - second)
    assert sum(equities) == 100


def test_four_players_two_paid_by_hand():
    # 4 players, 40/30/20/10 % of 1,000 chips, 70 and 30 to pay (the bubble is past)
    stacks, prizes = [400, 300, 200, 100], [70, 30]
    equities = icm_equities(stacks, prizes)
    # D (100 chips): first 1/10; second after A 1/6, after B 1/7, after C 1/8
    d_second = (
        Fraction(4, 10) * Fraction(1, 6)
        + Fraction(3, 10) * Fraction(1, 7)
        + Fraction(2, 10) * Fraction(1, 8)
    )
    assert equities[3] == 70 * Fraction(1, 10) + 30 * d_second
    assert equities == brute_force_icm(stacks, prizes)


@settings(max_examples=150, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 10_000), min_size=1, max_size=6),
    data=st.data(),
)
def test_icm_matches_every_finishing_order(stacks, data):
    prizes = sorted(
        data.draw(st.lists(st.integers(0, 5_000), min_size=1, max_size=len(stacks))),
        reverse=True,
    )
    assert icm_equities(stacks, prizes) == brute_force_icm(stacks, prizes)
    shares = deal(stacks, prizes)
    assert sum(shares) == sum(prizes)  # no chip made or lost
    assert all(abs(s - e) < 1 for s, e in zip(shares, icm_equities(stacks, prizes), strict=True))


def test_more_chips_never_less_money_and_equal_stacks_equal_shares():
    equities = icm_equities([900, 500, 500, 100], [500, 300, 200])
    assert equities[0] > equities[1] == equities[2] > equities[3]
    assert deal([100] * 9, [900, 500, 300, 200, 100]) == [223] * 2 + [222] * 7


def test_icm_is_exact_at_a_full_final_table():
    stacks = [12_000, 9_500, 8_000, 7_000, 5_500, 4_000, 2_500, 1_000, 500]
    prizes = [4_000, 2_500, 1_600, 1_100, 800, 600, 450, 350, 300]
    equities = icm_equities(stacks, prizes)
    assert sum(equities) == sum(prizes)
    # the short stack gets more than its chip share of the money, the leader less
    share = [Fraction(s, sum(stacks)) * sum(prizes) for s in stacks]
    assert equities[-1] > share[-1] and equities[0] < share[0]


def test_chip_chop():
    # each is sure of 20; the other 40 goes by chips: 20, 12 and 8
    assert chip_chop_equities([5000, 3000, 2000], [50, 30, 20]) == [40, 32, 28]
    # with a place still unpaid among them, nobody is sure of anything
    assert chip_chop_equities([600, 400], [100]) == [60, 40]
    assert deal([1, 1, 1], [10, 0, 0], method="chip_chop") == [4, 3, 3]


def test_keeping_an_amount_to_play_for():
    # 10 kept for the winner comes off first place; 90 is split
    shares = deal([5000, 3000, 2000], [50, 30, 20], keep=10)
    assert sum(shares) == 90
    assert shares == deal([5000, 3000, 2000], [40, 30, 20])


@pytest.mark.parametrize(
    ("stacks", "prizes", "keep", "method", "message"),
    [
        ([], [10], 0, "icm", "at least one player"),
        ([1] * (EXACT_LIMIT + 1), [10], 0, "icm", "at most 9 players"),
        ([100, 0], [10], 0, "icm", "has chips"),
        ([100, 50], [10, 20], 0, "icm", "first place down"),
        ([100, 50], [10, 5, 1], 0, "icm", "only 2 players"),
        ([100, 50], [10, -1], 0, "icm", "none below 0"),
        ([100, 50], [30, 20], 11, "icm", "at least the second prize"),
        ([100, 50], [30, 20], -1, "icm", "at least the second prize"),
        ([100, 50], [30, 20], 0, "even", "'icm' or 'chip_chop'"),
    ],
)
def test_a_deal_that_cannot_be_made_says_why(stacks, prizes, keep, method, message):
    with pytest.raises(DealError, match=message):
        deal(stacks, prizes, method=method, keep=keep)
