"""All-in adjusted winnings (EV): what each player would win on average from a hand's all-in.

When nobody can bet any more with two or more hands live and board cards still to come (an
all-in run-out: ``Hand.runout_start``), luck decides the rest. ``allin_ev(hand)`` gives each
seat's expected share of every pot at that moment, each pot on its own (a side pot is shared
by the hands that can win it only), from ``engine.runout.street_odds``: exact enumeration of
every board still to come where the engine can (Hold'em always; Omaha from the flop; hi-lo
and short deck up to their limits), else a seeded sample (``AllInEV.exact`` says which).

- The expected net of a seat is its expected chips won minus what it put in; the expected
  nets of a hand sum to zero, as its nets do (chips are conserved in expectation too).
- Run it twice or three times: each pot is split between the runs and each part dealt from
  the same board, so a pot's expected share is the same as run once; only the net differs.
- A double-board bomb pot: each pot's expected share is the mean of the two boards' (each
  board's odds with the other board's cards out of play).
- Hi-lo: the pot's expected share counts the high and the low halves (``street_odds``).
- A side pot's shares are those of the hands that can win it, on the boards that can come:
  the cards of the live hands that cannot win it are out of play (they are in those hands,
  shown at the showdown), as they are for the pot every live hand can win.
- The cards of folded hands are not counted out: nobody at the table saw them.

No EV where the betting ended on the river (nothing left to come), and not for the games
without a board: in a draw game the draw is a decision, not a deal, and after the last draw
there is no card to come; stud's cards to come are dealt to the players, partly face down,
which this module does not enumerate. Their expected net is their net.

    >>> from engine.hand import Hand, HandConfig
    >>> from engine.cards import parse_cards
    >>> dealt = parse_cards("KsAsKdAh")  # one card each in turn from the big blind: seat 1
    >>> hand = Hand(HandConfig(), [100, 100], 0, dealt + [c for c in range(52) if c not in dealt])
    >>> _ = hand.all_in(), hand.call()
    >>> ev = allin_ev(hand)
    >>> ev.street, ev.exact, [round(n, 1) for n in ev.net]
    ('preflop', True, [63.9, -63.9])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.equity import DEFAULT_MAX_BOARDS
from engine.hand import Hand
from engine.runout import runout_streets, street_odds

__all__ = ["AllInEV", "PotEV", "allin_ev", "has_allin_ev"]


@dataclass(frozen=True, slots=True)
class PotEV:
    """One pot: its chips, the seats that can win it and each one's expected chips of it
    (in the order of ``eligible``; they sum to ``amount``)."""

    amount: int
    eligible: tuple[int, ...]
    expected: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class AllInEV:
    """A hand's all-in EV: the street and board when no more betting was possible, its pots,
    and per seat (every seat, folded ones too) the chips expected back and the expected net
    (expected back − put in). ``exact``: every pot's shares enumerated, not sampled."""

    street: str
    board: tuple[Card, ...]
    pots: tuple[PotEV, ...]
    expected: tuple[float, ...]
    net: tuple[float, ...]
    exact: bool


def has_allin_ev(hand: Hand) -> bool:
    """Whether finished ``hand`` has an all-in EV (see the module docstring), without
    computing it: cheap enough for the hand's end."""
    if not hand.is_over or hand.result is None:
        raise ValueError("the all-in EV is a finished hand's")
    if hand.config.variant.structure != "board":
        return False
    # the first street is the all-in's; none after it: the betting ended on the river
    return len(runout_streets(hand, hand.board)) >= 2


def allin_ev(
    hand: Hand,
    known: Mapping[tuple[int, ...], Sequence[float]] | None = None,
    *,
    max_boards: int = DEFAULT_MAX_BOARDS,
) -> AllInEV | None:
    """The all-in EV of finished ``hand``, or None when it had no all-in run-out (see the
    module docstring). ``known``: pot shares already computed at the all-in's board, by the
    seats sharing them (the run-out's odds of every live hand), so they are not computed
    twice."""
    if not has_allin_ev(hand):
        return None
    street, size = runout_streets(hand, hand.board)[0]
    board = tuple(hand.board[:size])
    committed = hand.committed
    double = hand.config.double_board  # each board wins half: its shares averaged
    shares_of = {} if double else dict(known or {})
    live = [seat for seat in range(hand.seats) if not hand.folded[seat]]
    pots: list[PotEV] = []
    exact = True
    for pot in hand.pots:
        eligible = tuple(pot.eligible)
        if eligible not in shares_of:
            # the live hands that cannot win this pot hold their cards: none of them can come
            held = [card for seat in live if seat not in eligible for card in hand.hole[seat]]
            if len(eligible) == 1:
                shares_of[eligible] = (1.0,)
            elif double:
                one, two = (
                    street_odds(
                        hand,
                        street,
                        tuple(b[:size]),
                        eligible,
                        max_boards=max_boards,
                        dead=[*o[:size], *held],
                    )
                    for b, o in ((hand.board, hand.second_board), (hand.second_board, hand.board))
                )
                halves = zip(one.share, two.share, strict=True)
                shares_of[eligible] = tuple((a + b) / 2 for a, b in halves)
                exact = exact and one.exact and two.exact
            else:
                odds = street_odds(hand, street, board, eligible, max_boards=max_boards, dead=held)
                shares_of[eligible] = odds.share
                exact = exact and odds.exact
        pots.append(PotEV(pot.amount, eligible, tuple(pot.amount * s for s in shares_of[eligible])))
    expected = [0.0] * hand.seats
    for pot_ev in pots:
        for seat, chips in zip(pot_ev.eligible, pot_ev.expected, strict=True):
            expected[seat] += chips
    net = tuple(e - c for e, c in zip(expected, committed, strict=True))
    return AllInEV(street, board, tuple(pots), tuple(expected), net, exact)
