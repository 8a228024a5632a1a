"""engine.debts: transfers that square every net, at most players - 1 of them, nobody
both paying and receiving, and the exact answer never worse than the greedy one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from engine.debts import EXACT_LIMIT, Transfer, settle, settle_greedy


@st.composite
def nets(draw, most: int = 12):
    """Nets of up to ``most`` players summing to zero (some of them zero, some opposite)."""
    count = draw(st.integers(min_value=1, max_value=most))
    values = draw(st.lists(st.integers(-500, 500), min_size=count - 1, max_size=count - 1))
    values.append(-sum(values))
    if draw(st.booleans()) and len(values) >= 2:  # exact opposites, as real nights have
        values[1] = -values[0]
        values[-1] = -sum(values[:-1])
    return {f"p{i}": value for i, value in enumerate(values)}


def check_guarantees(net_of: dict[str, int], transfers: list[Transfer]) -> None:
    balance = dict.fromkeys(net_of, 0)
    payers, payees = set(), set()
    for transfer in transfers:
        assert transfer.amount > 0 and transfer.payer != transfer.payee
        balance[transfer.payer] -= transfer.amount
        balance[transfer.payee] += transfer.amount
        payers.add(transfer.payer)
        payees.add(transfer.payee)
    assert balance == net_of  # every player's transfers add up to their net
    assert not payers & payees  # nobody both pays and receives
    assert len(transfers) <= max(len(net_of) - 1, 0)
    assert all(net_of[p] < 0 for p in payers) and all(net_of[p] > 0 for p in payees)


@settings(max_examples=300, deadline=None)
@given(nets())
def test_exact_settlement_keeps_every_guarantee(net_of):
    check_guarantees(net_of, settle(net_of))


@settings(max_examples=300, deadline=None)
@given(nets())
def test_greedy_settlement_keeps_every_guarantee(net_of):
    check_guarantees(net_of, settle_greedy(net_of))


@settings(max_examples=300, deadline=None)
@given(nets())
def test_exact_never_needs_more_transfers_than_greedy(net_of):
    assert len(settle(net_of)) <= len(settle_greedy(net_of))


@settings(max_examples=50, deadline=None)
@given(nets(most=30))
def test_beyond_the_exact_limit_the_guarantees_still_hold(net_of):
    check_guarantees(net_of, settle(net_of))


def test_exact_finds_disjoint_groups_greedy_misses():
    # {a, b, c} and {d, e} each sum to zero: 3 transfers. Greedy pairs the largest loser
    # with the largest winner across the groups and needs 4.
    net_of = {"a": -7, "b": -3, "c": 10, "d": -6, "e": 6, "f": -4, "g": 4}
    assert len(settle(net_of)) == 7 - 3
    net_of = {"a": 5, "b": 5, "c": -10, "d": 6, "e": -3, "f": -3}
    exact, greedy = settle(net_of), settle_greedy(net_of)
    check_guarantees(net_of, exact)
    assert len(exact) == 4 and len(greedy) == 5


def test_the_minimum_is_players_minus_groups_at_the_exact_limit():
    # EXACT_LIMIT players in pairs of (-k, +k) after a shift, so no exact opposites are
    # paired beforehand: groups of three {-2k, k, k}.
    net_of = {}
    for k in range(1, EXACT_LIMIT // 3 + 1):
        net_of[f"l{k}"], net_of[f"w{k}a"], net_of[f"w{k}b"] = -2 * k - 100, k + 50, k + 50
    transfers = settle(net_of)
    check_guarantees(net_of, transfers)
    assert len(transfers) == len(net_of) - EXACT_LIMIT // 3


def test_everyone_even_needs_no_transfer():
    assert settle({"a": 0, "b": 0}) == [] and settle({}) == []


@pytest.mark.parametrize(
    ("net_of", "message"),
    [({"a": 5, "b": -4}, "sum to 1"), ({"a": 1.5, "b": -1.5}, "not a whole number")],
)
def test_nets_that_cannot_be_settled_are_refused(net_of, message):
    with pytest.raises(ValueError, match=message):
        settle(net_of)
